// `gstack render` arguments -> a RenderSpec, and the print options both `gstack render --pdf`
// and `gstack pdf` take (the catalog's "print" flag group: one name and one default each)
// -> a PdfStep. Yargs validates the flags (from the catalog) but forgets their order, and
// steps are ordered and repeatable with options that belong to one step
// (`--pdf a.pdf --landscape --pdf b.pdf`), so the raw tokens are read here, in order.
//
// Rule: a step option belongs to the most recent step of its kind; given before any step of
// its kind, it is a default for every step of that kind.
import { existsSync, realpathSync } from 'node:fs';
import { MAX_RENDER_INPUT_BYTES } from '../api/inputs.js';
import { readRegularFileSync } from '../../driver/read-file.js';
import { resolve, sep } from 'node:path';
import { millisecondsProblem, UsageError } from '../../driver/errors.js';
import { RENDER_STEP_FLAGS, RENDER_STEP_OF_OPTION, type RenderStepFlag } from '../../driver/catalog.gen.js';
import { commandSpec, flagGroup, type Catalog, type Flag } from '../../driver/catalog.js';
import { PAPER_SIZES, parseMargins, parsePaperIn, OptionError } from '../api/pdf-options.js';
import type { EvalStep, Margins, PdfStep, RenderEngineChoice, RenderSpec, RenderStep, ScreenshotStep } from '../api/types.js';

/** A bad `gstack render` command line (exit USAGE). */
export class RenderUsageError extends UsageError {}

/** The catalog flag group that holds the print options. */
export const PRINT_GROUP = 'print';


export type Value = string | number | boolean;
interface PendingStep {
  kind: RenderStepFlag;
  arg: string;
  opts: Map<string, Value>;
}

export function parseRenderArgs(tokens: string[], catalog: Catalog, cwd = process.cwd()): RenderSpec {
  const printFlags = flagGroup(PRINT_GROUP, catalog);
  const byName = new Map<string, Flag>();
  for (const f of commandSpec('render', catalog).flags) {
    for (const n of [f.name, f.alias, ...(f.aliases ?? [])]) if (n) byName.set(n, f);
  }
  const positionals: string[] = [];
  const globals = new Map<string, Value>();
  const defaults = { pdf: new Map<string, Value>(), screenshot: new Map<string, Value>(), eval: new Map<string, Value>() };
  const steps: PendingStep[] = [];

  for (let i = 0; i < tokens.length; i++) {
    const tok = tokens[i];
    if (tok === '--') {
      positionals.push(...tokens.slice(i + 1));
      break;
    }
    if (!tok.startsWith('-') || tok === '-') {
      positionals.push(tok);
      continue;
    }
    const body = tok.replace(/^--?/, '');
    const eq = body.indexOf('=');
    let name = eq >= 0 ? body.slice(0, eq) : body;
    let inline: string | undefined = eq >= 0 ? body.slice(eq + 1) : undefined;
    let negated = false;
    if (!byName.has(name) && name.startsWith('no-') && byName.get(name.slice(3))?.type === 'boolean') {
      name = name.slice(3);
      negated = true;
    }
    const flag = byName.get(name);
    if (!flag) throw new RenderUsageError(`unknown option ${tok}`);
    name = flag.name;

    let value: Value;
    if (flag.type === 'boolean') {
      if (inline !== undefined && !/^(true|false)$/i.test(inline)) throw new RenderUsageError(`--${name} is a switch; use --${name} or --no-${name}`);
      value = negated ? false : inline === undefined ? true : inline.toLowerCase() === 'true';
    } else {
      if (inline === undefined) {
        if (i + 1 >= tokens.length) throw new RenderUsageError(`--${name} needs a value${flag.placeholder ? ` (${flag.placeholder})` : ''}`);
        inline = tokens[++i];
      }
      if (flag.type === 'number') {
        const n = Number(inline);
        if (inline.trim() === '' || !Number.isFinite(n)) throw new RenderUsageError(`--${name} expects a number, got "${inline}"`);
        value = n;
      } else {
        value = inline;
      }
      if (flag.choices && !flag.choices.includes(value as string)) {
        throw new RenderUsageError(`--${name} must be one of ${flag.choices.join(', ')} (got "${value}")`);
      }
    }

    if ((RENDER_STEP_FLAGS as readonly string[]).includes(name)) {
      steps.push({ kind: name as RenderStepFlag, arg: String(value), opts: new Map() });
      continue;
    }
    const kind = RENDER_STEP_OF_OPTION[name];
    if (!kind) {
      globals.set(name, value);
      continue;
    }
    const owner = [...steps].reverse().find((s) => s.kind === kind);
    if (owner) owner.opts.set(name, value);
    else if (kind === 'eval') throw new RenderUsageError('--out belongs to an --eval step: write it after the --eval it saves (`--eval JS --out FILE`)');
    else defaults[kind].set(name, value);
  }

  if (positionals.length === 0) throw new RenderUsageError('name the HTML file to render: gstack render <file.html> --pdf OUT | --screenshot OUT | --eval JS');
  if (positionals.length > 1) {
    throw new RenderUsageError(`one input file per render (got ${positionals.map((p) => `"${p}"`).join(', ')}); a step flag may be missing its value`);
  }
  if (steps.length === 0) throw new RenderUsageError('nothing to do: add at least one step: --pdf OUT, --screenshot OUT or --eval JS');

  const spec: RenderSpec = {
    file: positionals[0],
    steps: steps.map((s, i) => buildStep(s, defaults[s.kind], i, printFlags, cwd)),
    engine: (globals.get('engine') as RenderEngineChoice | undefined) ?? 'auto',
    serveRoot: globals.get('serve-root') as string | undefined,
    allowNetwork: globals.get('allow-network') === true,
    waits: {
      selector: globals.get('wait-selector') as string | undefined,
      expression: globals.get('wait-expr') as string | undefined,
      timeoutMs: positive(globals.get('wait-timeout'), 'wait-timeout'),
    },
    timeoutMs: positive(globals.get('timeout'), 'timeout'),
  };
  return spec;
}

function positive(v: Value | undefined, name: string): number | undefined {
  if (v === undefined) return undefined;
  const problem = millisecondsProblem(name, v);
  if (problem) throw new RenderUsageError(problem);
  return v as number;
}

function buildStep(s: PendingStep, defaults: Map<string, Value>, index: number, printFlags: Flag[], cwd: string): RenderStep {
  const o = new Map([...defaults, ...s.opts]);
  const str = (k: string) => o.get(k) as string | undefined;
  const num = (k: string) => o.get(k) as number | undefined;
  const bool = (k: string) => (o.has(k) ? (o.get(k) as boolean) : undefined);
  const label = `step ${index + 1} (--${s.kind})`;
  try {
    switch (s.kind) {
      case 'pdf':
        return { ...printStep(o, printFlags, cwd), out: s.arg };
      case 'screenshot': {
        const step: ScreenshotStep = {
          kind: 'screenshot',
          out: s.arg,
          width: num('width'),
          height: num('height'),
          selector: str('selector'),
          viewportOnly: bool('viewport-only'),
          // An .jpg/.jpeg output name asks for JPEG as clearly as --jpeg does.
          format: bool('jpeg') ?? /\.jpe?g$/i.test(s.arg) ? 'jpeg' : 'png',
          quality: num('quality'),
        };
        return step;
      }
      case 'eval': {
        const step: EvalStep = { kind: 'eval', expression: s.arg, out: str('out') };
        return step;
      }
    }
  } catch (err) {
    if (err instanceof OptionError || err instanceof RenderUsageError) throw new RenderUsageError(`${label}: ${err.message}`);
    throw err;
  }
}

/**
 * The print options, by flag name (`paper`, `margin`, `page-numbers`, ...), as a PdfStep.
 * Options not given take the catalog's defaults, so `gstack render --pdf` and `gstack pdf`
 * print alike. `--header`/`--footer` name HTML or a file holding it (resolved from `cwd`).
 */
export function printStep(given: ReadonlyMap<string, Value | undefined>, printFlags: Flag[], cwd: string): PdfStep {
  const value = (name: string): Value | undefined => given.get(name) ?? (printFlags.find((f) => f.name === name)?.default as Value | undefined);
  const str = (k: string) => value(k) as string | undefined;
  let margin: Margins | undefined;
  const m = str('margin');
  if (m !== undefined) margin = parseMargins(m);
  for (const side of ['top', 'right', 'bottom', 'left'] as const) {
    const v = str(`margin-${side}`);
    if (v !== undefined) margin = { ...margin, [side]: v };
  }
  return {
    kind: 'pdf',
    ...paperOption(str('paper')),
    margin,
    headerTemplate: templateArg(str('header'), '--header', cwd),
    footerTemplate: templateArg(str('footer'), '--footer', cwd),
    pageNumbers: value('page-numbers') as boolean | undefined,
    tagged: value('tagged') as boolean | undefined,
    outline: value('outline') as boolean | undefined,
    landscape: value('landscape') as boolean | undefined,
    printBackground: value('print-background') as boolean | undefined,
    preferCSSPageSize: value('prefer-css-page-size') as boolean | undefined,
    pageRanges: str('page-ranges'),
    scale: value('scale') as number | undefined,
  };
}

/** `--paper`: a paper name, or WIDTHxHEIGHT. */
function paperOption(value: string | undefined): Pick<PdfStep, 'paper' | 'paperSize'> {
  if (value === undefined) return {};
  if (PAPER_SIZES[value.toLowerCase()]) return { paper: value.toLowerCase() };
  try {
    return { paperSize: parsePaperIn(value) };
  } catch (err) {
    if (err instanceof OptionError) {
      throw new RenderUsageError(`--paper ${value}: use one of ${Object.keys(PAPER_SIZES).join(', ')} or WIDTHxHEIGHT (8.5x11 in inches, 210mmx297mm)`);
    }
    throw err;
  }
}

/** A header/footer value that names a readable file is that file's HTML; anything else is the
 * HTML itself. */
function realpathOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

function templateArg(value: string | undefined, flag: string, cwd: string): string | undefined {
  if (value === undefined) return undefined;
  const file = resolve(cwd, value);
  if (value.includes('<') || !existsSync(file)) return value;
  // A value that names a file is read as one, so a careless `--header "$TITLE"` must not print a
  // secret into every page: nothing under a hidden name (`.env`, `~/.ssh/…`), as written or as
  // the real path behind a link; kernel files are refused by the reader itself.
  const hidden = [file, realpathOr(file)].map((p) => p.split(sep).find((part) => part.startsWith('.') && part !== '.' && part !== '..')).find(Boolean);
  if (hidden) throw new RenderUsageError(`${flag} ${value}: names a file under a hidden name (${hidden}), which is not read as a header or footer; copy the HTML to a visible file, or pass the HTML itself`);
  // Nor anything outside the directory the command runs in (`--header "$TITLE"` with a title of
  // `../notes.txt`): a header file belongs to the project being printed. Checked on the real
  // path too, so a link out of it does not count as inside.
  const roots = [resolve(cwd), realpathOr(cwd)];
  const inside = (p: string) => roots.some((r) => p.startsWith(r.endsWith(sep) ? r : r + sep));
  if (!inside(file) || !inside(realpathOr(file))) throw new RenderUsageError(`${flag} ${value}: names a file outside this directory (${cwd}), which is not read as a header or footer; copy the HTML into this directory, or pass the HTML itself`);
  // Opened without blocking and read bounded (driver/read-file.ts): a FIFO named here must not hang.
  const read = readRegularFileSync(file, MAX_RENDER_INPUT_BYTES);
  if (read.ok) return read.bytes.toString('utf8');
  throw new RenderUsageError(`${flag} ${value}: the file is ${read.why === 'missing' ? 'gone' : read.detail}; pass the HTML itself or a regular, readable file`);
}
