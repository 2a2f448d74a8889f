// `gstack render` arguments -> a RenderSpec. Yargs validates the flags (from the catalog) but
// forgets their order, and steps are ordered and repeatable with options that belong to one
// step (`--pdf a.pdf --landscape --pdf b.pdf`), so the raw tokens are read here, in order.
//
// Rule: a step option belongs to the most recent step of its kind; given before any step of
// its kind, it is a default for every step of that kind.
import type { Flag } from '../driver/catalog.js';
import { parseMargins, parsePaperIn, OptionError } from './pdf-options.js';
import type { EvalStep, Margins, PdfStep, RenderEngineChoice, RenderSpec, RenderStep, ScreenshotStep } from './render.js';

export class RenderUsageError extends Error {
  readonly exitCode = 2;
}

const STEP_FLAGS = new Set(['pdf', 'screenshot', 'eval']);
const OPTION_KIND: Record<string, 'pdf' | 'screenshot' | 'eval'> = {};
for (const f of ['paper', 'paper-in', 'margin', 'margin-top', 'margin-right', 'margin-bottom', 'margin-left', 'header', 'footer', 'page-numbers', 'tagged', 'outline', 'landscape', 'print-background', 'prefer-css-page-size', 'page-ranges', 'scale']) OPTION_KIND[f] = 'pdf';
for (const f of ['width', 'height', 'selector', 'viewport-only', 'jpeg', 'quality']) OPTION_KIND[f] = 'screenshot';
OPTION_KIND.out = 'eval';

type Value = string | number | boolean;
interface PendingStep {
  kind: 'pdf' | 'screenshot' | 'eval';
  arg: string;
  opts: Map<string, Value>;
}

export function parseRenderArgs(tokens: string[], flags: Flag[]): RenderSpec {
  const byName = new Map<string, Flag>();
  for (const f of flags) {
    byName.set(f.name, f);
    if (f.alias) byName.set(f.alias, f);
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

    if (STEP_FLAGS.has(name)) {
      steps.push({ kind: name as PendingStep['kind'], arg: String(value), opts: new Map() });
      continue;
    }
    const kind = OPTION_KIND[name];
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
    steps: steps.map((s, i) => buildStep(s, defaults[s.kind], i)),
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
  if (typeof v !== 'number' || !(v > 0)) throw new RenderUsageError(`--${name} must be a positive number of milliseconds`);
  return v;
}

function buildStep(s: PendingStep, defaults: Map<string, Value>, index: number): RenderStep {
  const o = new Map([...defaults, ...s.opts]);
  const str = (k: string) => o.get(k) as string | undefined;
  const num = (k: string) => o.get(k) as number | undefined;
  const bool = (k: string) => (o.has(k) ? (o.get(k) as boolean) : undefined);
  const label = `step ${index + 1} (--${s.kind})`;
  try {
    switch (s.kind) {
      case 'pdf': {
        let margin: Margins | undefined;
        if (o.has('margin')) margin = parseMargins(str('margin')!);
        for (const side of ['top', 'right', 'bottom', 'left'] as const) {
          const v = str(`margin-${side}`);
          if (v !== undefined) margin = { ...margin, [side]: v };
        }
        const step: PdfStep = {
          kind: 'pdf',
          out: s.arg,
          paper: str('paper'),
          paperSize: o.has('paper-in') ? parsePaperIn(str('paper-in')!) : undefined,
          margin,
          headerTemplate: str('header'),
          footerTemplate: str('footer'),
          pageNumbers: bool('page-numbers'),
          tagged: bool('tagged'),
          outline: bool('outline'),
          landscape: bool('landscape'),
          printBackground: bool('print-background'),
          preferCSSPageSize: bool('prefer-css-page-size'),
          pageRanges: str('page-ranges'),
          scale: num('scale'),
        };
        return step;
      }
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
    if (err instanceof OptionError) throw new RenderUsageError(`${label}: ${err.message}`);
    throw err;
  }
}
