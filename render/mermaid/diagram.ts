// `gstack diagram`: mermaid sources -> SVG and/or PNG, all in one render (one browser
// session, one page): every diagram becomes a figure, the bundled mermaid draws them, one
// eval step collects the SVGs and one screenshot step per PNG crops each figure.
import { commandSpec } from '../../driver/catalog.js';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { EMOJI_FACE, SANS } from '../page/fonts.js';
import {
  BOOT_SCRIPT,
  MERMAID_READY_SELECTOR,
  MERMAID_SCRIPT_TAG,
  mermaidBootScript,
  mermaidDistDir,
  mermaidFigure,
  isMermaidFence,
  type MermaidPageOptions,
  type MermaidPageState,
} from './mermaid-page.js';
import { RenderError } from '../api/errors.js';
import { outputNameProblem } from '../api/output-names.js';
import { inputProblem, MAX_RENDER_INPUT_BYTES } from '../api/inputs.js';
import { readRegularFile } from '../../driver/read-file.js';
import type { RenderCallOptions, RenderStep } from '../api/types.js';
import { render } from '../index.js';
import { checkOutputsWritable, noticeLine, writeOutputFile } from '../orchestrate/outputs.js';

export interface DiagramOptions extends RenderCallOptions {
  inputs: string[];
  /** Explicit SVG paths, one per diagram in order. */
  svg?: string[];
  /** Explicit PNG paths, one per diagram in order. */
  png?: string[];
  /** For diagrams without an explicit path: write <name>.<ext> here (default: beside the input). */
  outDir?: string;
  format?: 'svg' | 'png' | 'both';
  width?: number;
  /** Device pixel ratio of PNGs; default the catalog's (2). */
  scale?: number;
  theme?: MermaidPageOptions['theme'];
  background?: 'white' | 'transparent';
}

export interface DiagramSource {
  /** "flow.mmd", or "design.md#2" for the second fence of a Markdown file. */
  label: string;
  /** Output base name without extension. */
  name: string;
  source: string;
  /** 1-based line in the input where the diagram starts. */
  line: number;
  inputDir: string;
}

export interface DiagramFailure {
  label: string;
  message: string;
}

export interface DiagramResult {
  written: string[];
  failures: DiagramFailure[];
  diagrams: number;
  durationMs: number;
}

const usage = (msg: string) => new RenderError(msg, 'USAGE');

/** Every diagram in the inputs: a .md/.markdown file gives one per ```mermaid fence. */
export async function collectDiagrams(inputs: string[], cwd = process.cwd()): Promise<DiagramSource[]> {
  if (!inputs.length) throw usage('name at least one .mmd file');
  const out: DiagramSource[] = [];
  for (const input of inputs) {
    const abs = resolve(cwd, input);
    const read = await readRegularFile(abs, MAX_RENDER_INPUT_BYTES);
    if (!read.ok) throw usage(inputProblem(input, abs, read));
    const text = read.bytes.toString('utf8');
    const base = basename(abs, extname(abs));
    if (/^\.(md|markdown)$/i.test(extname(abs))) {
      // Only Markdown inputs need the parser; a plain .mmd call does not load it.
      const { default: MarkdownIt } = await import('markdown-it');
      const fences = new MarkdownIt()
        .parse(text, {})
        .filter((t) => t.type === 'fence' && isMermaidFence(t.info));
      if (!fences.length) throw usage(`${input} has no \`\`\`mermaid fences`);
      fences.forEach((t, i) =>
        out.push({ label: `${basename(abs)}#${i + 1}`, name: `${base}-${i + 1}`, source: t.content, line: (t.map?.[0] ?? 0) + 2, inputDir: dirname(abs) }),
      );
    } else {
      out.push({ label: basename(abs), name: base, source: text, line: 1, inputDir: dirname(abs) });
    }
  }
  return out;
}

interface Targets {
  svg: Array<string | undefined>;
  png: Array<string | undefined>;
}

export function planOutputs(diagrams: DiagramSource[], opts: DiagramOptions): Targets {
  const svg = (opts.svg ?? []).map(String);
  const png = (opts.png ?? []).map(String);
  if (svg.length > diagrams.length || png.length > diagrams.length) {
    throw usage(`${Math.max(svg.length, png.length)} output paths for ${diagrams.length} diagram(s); give one --svg/--png per diagram, in order`);
  }
  const explicit = svg.length > 0 || png.length > 0;
  const format = opts.format ?? 'svg';
  const t: Targets = { svg: [], png: [] };
  diagrams.forEach((d, i) => {
    // Diagrams the explicit paths do not cover still get files when --out-dir names a place.
    const auto = opts.outDir !== undefined || !explicit;
    const cwd = opts.cwd ?? process.cwd();
    const dir = opts.outDir !== undefined ? resolve(cwd, opts.outDir) : d.inputDir;
    t.svg.push(svg[i] !== undefined ? resolve(cwd, svg[i]) : auto && format !== 'png' && !png[i] ? join(dir, d.name + '.svg') : undefined);
    t.png.push(png[i] !== undefined ? resolve(cwd, png[i]) : auto && format !== 'svg' && !svg[i] ? join(dir, d.name + '.png') : undefined);
  });
  for (const [paths, kind] of [[t.svg, 'svg'], [t.png, 'png']] as const) {
    for (const p of paths) {
      const named = p === undefined ? undefined : outputNameProblem(p, kind);
      if (named) throw usage(named);
    }
  }
  const seen = new Set<string>();
  for (const p of [...t.svg, ...t.png]) {
    if (p === undefined) continue;
    if (seen.has(p)) throw usage(`two diagrams would both write ${p}; name the outputs with --svg/--png or use inputs with distinct names`);
    seen.add(p);
  }
  return t;
}

function pageHtml(diagrams: DiagramSource[], background: 'white' | 'transparent'): string {
  const figures = diagrams.map((d, i) => mermaidFigure(i, d.source)).join('\n');
  const bg = background === 'transparent' ? 'transparent' : '#fff';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:">
<title>diagrams</title>
<style>
${EMOJI_FACE}
html, body { margin: 0; background: ${bg}; font-family: ${SANS}; }
figure.gstack-mermaid { display: block; width: max-content; margin: 0 0 24px; padding: 0; background: ${bg}; }
figure.gstack-mermaid > svg { display: block; }
</style>
${MERMAID_SCRIPT_TAG}
</head><body>
${figures}
</body></html>
`;
}

/** Mermaid's message, with the diagram's place in its input when it came from a Markdown file. */
function describeFailure(d: DiagramSource, message: string): string {
  const msg = message.trim();
  if (d.line <= 1) return msg;
  // mermaid counts lines inside the diagram; say where that is in the Markdown file too.
  return msg.replace(/on line (\d+)/, (_m, n) => `on line ${n} (line ${d.line + Number(n) - 1} of the file)`);
}

export async function renderDiagrams(opts: DiagramOptions): Promise<DiagramResult> {
  const started = Date.now();
  // One line each, whatever a notice quotes (a name with a line break: noticeLine).
  const progress = opts.onProgress;
  const say = (line: string) => progress?.(noticeLine(line));
  if (opts.width !== undefined && !(Number.isInteger(opts.width) && opts.width > 0 && opts.width <= 16384)) {
    throw usage(`--width ${opts.width}: use a whole number of CSS pixels, 1 to 16384`);
  }
  // The catalog's default (2: a PNG sharp enough to print); the CLI passes it explicitly.
  const scale = opts.scale ?? (commandSpec('diagram').flags.find((f) => f.name === 'scale')?.default as number);
  if (!(scale > 0 && scale <= 8)) throw usage(`--scale ${opts.scale}: use a number above 0, up to 8`);
  const diagrams = await collectDiagrams(opts.inputs, opts.cwd);
  const targets = planOutputs(diagrams, opts);
  // Every output is checked before anything renders (a FIFO there is a usage error, not a hang).
  await checkOutputsWritable([...targets.svg, ...targets.png]);
  const background = opts.background ?? 'white';

  const distDir = mermaidDistDir();
  const steps: RenderStep[] = [{ kind: 'eval', expression: 'window.__gstackMermaid' }];
  const pngStep = new Map<number, number>();
  targets.png.forEach((p, i) => {
    if (p === undefined) return;
    pngStep.set(i, steps.length);
    steps.push({ kind: 'screenshot', selector: `#gstack-mermaid-${i}`, omitBackground: background === 'transparent' });
  });

  const r = await render({
    file: join(distDir, 'gstack-diagrams.html'),
    serveRoot: distDir,
    files: {
      'gstack-diagrams.html': pageHtml(diagrams, background),
      [BOOT_SCRIPT]: mermaidBootScript({ fontFamily: SANS, theme: opts.theme, width: opts.width }, true),
    },
    steps,
    waits: { selector: MERMAID_READY_SELECTOR, timeoutMs: opts.timeoutMs },
    timeoutMs: opts.timeoutMs,
    engine: opts.engine ?? 'auto',
    deviceScaleFactor: scale,
    onProgress: say,
    env: opts.env,
    signal: opts.signal,
  });

  const state = r.evals[0]?.value as MermaidPageState | undefined;
  if (!state?.svgs) throw new RenderError('the diagram page did not report its results; this is a bug in gstack diagram');
  const failures: DiagramFailure[] = [];
  const failed = new Set<number>();
  for (const e of state.errors) {
    if (e.index < 0) throw new RenderError(`mermaid did not start: ${e.message}`);
    failed.add(e.index);
    failures.push({ label: diagrams[e.index].label, message: describeFailure(diagrams[e.index], e.message) });
  }
  const written: string[] = [];
  const write = async (path: string, data: string | Uint8Array) => {
    await writeOutputFile(path, data);
    written.push(path);
  };
  // Loaded only when an SVG is written: a PNG-only call does not parse XML or CSS.
  const { sanitizeSvg } = targets.svg.some((p) => p !== undefined) ? await import('./svg-sanitize.js') : { sanitizeSvg: undefined };
  for (let i = 0; i < diagrams.length; i++) {
    if (failed.has(i)) continue;
    const svgPath = targets.svg[i];
    const drawn = state.svgs[i];
    if (svgPath !== undefined && drawn && sanitizeSvg) {
      // An SVG file has no CSP: whatever the diagram's labels or themeCSS name outside the file
      // is removed before it is written (svg-sanitize.ts), and said once.
      const { svg, removed } = sanitizeSvg(drawn.replace(/^<\?xml[^>]*\?>\s*/, ''));
      if (removed.length) {
        say(`gstack diagram: ${diagrams[i].label}: removed ${removed.length} reference(s) to files or addresses outside the SVG (an SVG written by gstack diagram loads nothing but its own #ids and data: URLs): ${removed.slice(0, 3).join(', ')}${removed.length > 3 ? ', ...' : ''}`);
      }
      // Controls are no XML 1.0 characters, and a label's ESC or BS would reach a terminal that
      // `cat`s or `grep`s the file: writeOutputFile writes each as U+FFFD.
      await write(svgPath, `<?xml version="1.0" encoding="UTF-8"?>\n${svg}\n`);
    }
    const pngPath = targets.png[i];
    const step = pngStep.get(i);
    const shot = step === undefined ? undefined : r.artifacts.find((a) => a.step === step)?.data;
    if (pngPath !== undefined && shot) await write(pngPath, shot);
  }
  for (const pe of r.pageErrors) say(`gstack diagram: page error: ${pe}`);
  const result = { written, failures, diagrams: diagrams.length, durationMs: Date.now() - started };
  say(`gstack diagram: ${diagrams.length - failures.length} of ${diagrams.length} diagram(s) rendered on ${r.engine} in ${result.durationMs} ms`);
  return result;
}
