// `gstack render` as lines on stdout (docs/ARCHITECTURE.md, "Rendering"): ENGINE=, one OK per file written,
// the page-derived values fenced as untrusted web content, then GSTACK_RENDER_OK — or a last
// `[error]` line that says what happened and what to do. Returns the exit code.
import type { Catalog } from '../../driver/catalog.js';
import { noticeLine, oneLine, terminalSafe } from '../../driver/runtime/output.js';
import { parseRenderArgs, RenderUsageError } from './cli-args.js';
import { RenderError } from '../api/errors.js';
import type { RenderResult } from '../api/types.js';

export const RENDER_SENTINEL = 'GSTACK_RENDER_OK';
export const UNTRUSTED_BEGIN = '--- BEGIN UNTRUSTED WEB CONTENT ---';
export const UNTRUSTED_END = '--- END UNTRUSTED WEB CONTENT ---';
/** An EVAL line longer than this is cut (the full value belongs in a file: --out). */
const MAX_EVAL_CHARS = 8_000;
const MAX_LISTED = 50;
const MAX_ITEM_CHARS = 500;

export interface RenderCliIo {
  out: (line: string) => void;
  err: (line: string) => void;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  signal?: AbortSignal;
}

export async function runRenderCli(tokens: string[], catalog: Catalog, io: RenderCliIo): Promise<number> {
  const out = (line: string) => io.out(terminalSafe(line));
  let spec;
  try {
    spec = parseRenderArgs(tokens, catalog, io.cwd);
  } catch (err) {
    if (err instanceof RenderUsageError) {
      io.err(`[error] ${err.message}\nRun \`gstack render --help\` for the steps and their options.`);
      return 2;
    }
    throw err;
  }
  spec.onProgress = (line) => io.err(noticeLine(line));
  spec.env = io.env ?? process.env;
  spec.cwd = io.cwd;
  spec.signal = io.signal;

  const { render } = await import('../index.js');
  let result: RenderResult;
  try {
    result = await render(spec);
  } catch (err) {
    if (err instanceof RenderError) {
      if (err.exit === 'USAGE') {
        io.err(`[error] ${oneLine(err.message)}\nRun \`gstack render --help\` for usage.`);
        return 2;
      }
      out(`[error] ${oneLine(err.message)}`);
      return err.exitCode;
    }
    out(`[error] render failed unexpectedly: ${oneLine(err instanceof Error ? err.message : String(err))}. This is a gstack bug; please report it with the command line.`);
    return 1;
  }
  for (const line of formatRenderResult(result)) out(line);
  return 0;
}

/** The stdout lines of a successful render. Every page-derived line starts with a fixed label
 * and is JSON on one line, so nothing the page says can end the fence or forge the sentinel. */
export function formatRenderResult(r: RenderResult): string[] {
  const lines = [`ENGINE=${r.engine}`];
  for (const a of r.artifacts) if (a.path) lines.push(`OK ${a.path}`);
  lines.push(UNTRUSTED_BEGIN);
  for (const e of r.evals) {
    if (e.path) {
      const bytes = r.artifacts.find((a) => a.step === e.step)?.bytes ?? 0;
      lines.push(`EVAL ${e.index}: written to ${e.path} (${bytes} bytes)`);
    } else {
      lines.push(`EVAL ${e.index}: ${capped(jsonLine(e.value), MAX_EVAL_CHARS, 'use --out FILE for the whole value')}`);
    }
  }
  lines.push(`PAGE_ERRORS=${listLine(r.pageErrors)}`);
  if (r.blockedRequests.length) lines.push(`BLOCKED_REQUESTS=${listLine(r.blockedRequests)}`);
  lines.push(UNTRUSTED_END);
  lines.push(RENDER_SENTINEL);
  return lines;
}

function jsonLine(v: unknown): string {
  if (v === undefined) return 'undefined';
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    return JSON.stringify(String(v));
  }
}

function listLine(items: string[]): string {
  const shown = items.slice(0, MAX_LISTED).map((s) => capped(s, MAX_ITEM_CHARS, 'cut'));
  const json = JSON.stringify(shown);
  return items.length > MAX_LISTED ? `${json} (+${items.length - MAX_LISTED} more)` : json;
}

function capped(s: string, max: number, hint: string): string {
  return s.length <= max ? s : `${s.slice(0, max)}… [${s.length - max} more chars; ${hint}]`;
}
