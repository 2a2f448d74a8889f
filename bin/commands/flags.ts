// Turns catalog flag entries into yargs options, so `--help`, the parser and the generated
// docs all come from driver/catalog.json.
import type { Argv, Options } from 'yargs';
import type { Flag } from '../../driver/catalog.js';
import { millisecondsProblem, UsageError } from '../../driver/errors.js';

/** Flags whose empty value would silently fall back to the default session. */
const EMPTY_MEANS_DEFAULT = new Set(['session', 'profile']);

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
        // `--params` values are not quoted: one may hold a test password (pass 27, A27).
        if (Array.isArray(v)) throw new UsageError(`--${f.name} is given ${v.length} times${f.name === 'params' ? '' : ` (${v.map((x) => JSON.stringify(x)).join(', ')})`}; give it once.`);
        // An empty session or profile (an unset variable: `--session "$TASK"`) would quietly
        // mean this directory's session, shared with whoever else runs here.
        if (EMPTY_MEANS_DEFAULT.has(f.name) && typeof v === 'string' && !v.trim()) {
          throw new UsageError(`--${f.name} is empty (an unset variable?): give a ${f.name === 'session' ? 'session key' : 'profile folder'}, or leave the flag out to use this directory's session.`);
        }
        // Chromium strips white space from the ends of a profile path, so `--profile "$P "` would
        // be a second browser on P under another lock; a key with it is a sloppy variable too.
        if (EMPTY_MEANS_DEFAULT.has(f.name) && typeof v === 'string' && v.trim() !== v) {
          throw new UsageError(`--${f.name} ${JSON.stringify(v)} has white space at its start or end: give the ${f.name === 'session' ? 'session key' : 'profile folder'} without it.`);
        }
        return v;
      };
    }
    out = out.option(f.name, opt);
  }
  return out as Argv<T>;
}

/**
 * An on/off flag given more than once (`--allow-file-urls=false --allow-file-urls`, `--json
 * --no-json`): yargs keeps the last, so a careless command line silently means its opposite.
 * A usage error naming it, like a value flag given twice (applyFlags' coerce), however it is
 * spelled; and one given a value other than true or false. Words after `--` are not flags.
 */
export function repeatedSwitch(argv: readonly string[], flags: readonly Flag[]): UsageError | undefined {
  // A render step's flags repeat by design: each --screenshot takes its own --viewport-only.
  const byName = flagsBySpelling(flags, (f) => f.type === 'boolean' && !f.step && !f.repeatable);
  const seen = new Map<Flag, string[]>();
  for (const word of argv) {
    if (word === '--') break;
    const [name, ...value] = word.split('=');
    // Counted under its one name, or `--allow-file-urls=false --allowFileUrls` would turn it on.
    const spelled = kebabSpelling(name);
    const f = byName.get(spelled) ?? (spelled.startsWith('--no-') ? byName.get(`--${spelled.slice(5)}`) : undefined);
    if (!f) continue;
    // yargs reads any other value (`--json=yes`, `--dry-run=1`) as off, silently.
    if (value.length && !/^(?:true|false)$/.test(value.join('='))) {
      return new UsageError(`--${f.name} is on or off: give it as --${f.name} or --no-${f.name} (or =true / =false), not ${word}.`);
    }
    const words = seen.get(f) ?? [];
    words.push(word);
    seen.set(f, words);
  }
  for (const [f, words] of seen) {
    if (words.length > 1) return new UsageError(`--${f.name} is given ${words.length} times (${words.join(', ')}); give it once.`);
  }
  return undefined;
}

/**
 * A number flag spelled as anything but a plain decimal (`--timeout 0x10`, `1e3`, `" 100"`,
 * `--scale=.5e1`): yargs reads them all as numbers through `Number()`, so a typo or a value
 * pasted from elsewhere would quietly mean another number. A usage error naming the flag.
 */
export function oddNumber(argv: readonly string[], flags: readonly Flag[]): UsageError | undefined {
  const byName = flagsBySpelling(flags, (f) => f.type === 'number');
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i];
    if (word === '--') break;
    const eq = word.indexOf('=');
    const f = byName.get(kebabSpelling(eq === -1 ? word : word.slice(0, eq)));
    if (!f) continue;
    const value = eq === -1 ? argv[i + 1] : word.slice(eq + 1);
    // A missing value is yargs' own error ("Not enough arguments following").
    if (value === undefined || (eq === -1 && value.startsWith('--'))) continue;
    if (!/^-?\d+(?:\.\d+)?$/.test(value)) {
      // A deadline says what a deadline takes, as for any other bad one.
      if (f.placeholder === 'MS') return new UsageError(millisecondsProblem(f.name, value)!);
      return new UsageError(`--${f.name} takes a plain decimal number (like ${f.default ?? 100}); got ${JSON.stringify(value)}.`);
    }
  }
  return undefined;
}

/** The flags `keep` picks, by every way a command line spells them (`--name`, an alias, `-x`). */
function flagsBySpelling(flags: readonly Flag[], keep: (f: Flag) => boolean): Map<string, Flag> {
  const byName = new Map<string, Flag>();
  for (const f of flags) {
    if (!keep(f)) continue;
    for (const n of [f.name, ...(f.aliases ?? [])]) byName.set(`--${n}`, f);
    if (f.alias) byName.set(f.alias.length === 1 ? `-${f.alias}` : `--${f.alias}`, f);
  }
  return byName;
}

/** A long flag as the catalog names it: yargs also reads one in camelCase (`--allowFileUrls`). */
function kebabSpelling(name: string): string {
  return name.startsWith('--') ? `--${name.slice(2).replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}` : name;
}

export { UsageError };
