// Turns catalog flag entries into yargs options, so `--help`, the parser and the generated
// docs all come from driver/catalog.json.
import type { Argv, Options } from 'yargs';
import type { Flag } from '../../driver/catalog.js';

export function applyFlags<T>(y: Argv<T>, flags: Flag[]): Argv<T> {
  let out: Argv<any> = y;
  for (const f of flags) {
    const opt: Options = { describe: f.description };
    if (f.type !== 'count') opt.type = f.type;
    else opt.count = true;
    const aliases = [...(f.alias ? [f.alias] : []), ...(f.aliases ?? [])];
    if (aliases.length) opt.alias = aliases;
    if (f.choices) opt.choices = f.choices;
    if (f.default !== undefined) opt.default = f.default;
    if (f.placeholder) opt.requiresArg = true;
    out = out.option(f.name, opt);
  }
  return out as Argv<T>;
}

export { UsageError } from '../../driver/errors.js';
