// Turns catalog flag entries into yargs options, so `--help`, the parser and the generated
// docs all come from driver/catalog.json.
import type { Argv, Options } from 'yargs';
import type { Flag } from '../../driver/catalog.js';
import { UsageError } from '../../driver/errors.js';

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
    // yargs gathers a flag given twice into an array, which the command would then meet as a
    // string or number (a crash deep inside, exit 1): a usage error here, exit 2, instead.
    if (f.type !== 'array' && f.type !== 'count' && !f.repeatable && !f.step) {
      opt.coerce = (v: unknown) => {
        if (Array.isArray(v)) throw new UsageError(`--${f.name} is given ${v.length} times (${v.map((x) => JSON.stringify(x)).join(', ')}); give it once.`);
        return v;
      };
    }
    out = out.option(f.name, opt);
  }
  return out as Argv<T>;
}

export { UsageError };
