// What an engine gets once the orchestrator (orchestrate/run-render.ts) has validated the spec and
// started the loopback server, and what it gives back. Engines only drive the browser; the
// orchestrator writes the outputs, so both engines write files the same way.
import { GstackError } from '../../driver/errors.js';
import type { RenderStep } from '../api/types.js';
import type { PrintToPdfParams } from '../api/pdf-options.js';

export interface PreparedRender {
  /** The page's URL on the loopback server. */
  url: string;
  /** The same page served with an offline Content-Security-Policy (set unless allowNetwork):
   * for an engine that cannot intercept requests itself. Chromium blocks (and lists) foreign
   * requests with request interception instead, so it uses `url`. */
  offlineUrl?: string;
  /** http://127.0.0.1:<port> of the loopback server: the only origin a page may reach
   * unless allowNetwork. */
  origin: string;
  steps: RenderStep[];
  /** Resolved printToPDF params, aligned with steps (undefined for non-pdf steps). */
  pdfParams: Array<PrintToPdfParams | undefined>;
  waitSelector?: string;
  waitExpression?: string;
  waitTimeoutMs: number;
  allowNetwork: boolean;
  onBlockedRequest?: (url: string) => void;
  viewport: { width: number; height: number };
  deviceScaleFactor: number;
  media?: 'screen' | 'print';
  /** Aborted when the whole-render deadline passes: the engine must stop its browser. */
  signal: AbortSignal;
  env: NodeJS.ProcessEnv;
}

export type StepOutput =
  | { kind: 'pdf' | 'screenshot'; data: Buffer }
  | { kind: 'eval'; value: unknown };

export interface EngineRenderOutput {
  outputs: StepOutput[];
  pageErrors: string[];
  blockedRequests: string[];
}

/** Why an engine failed. `stage: 'start'` means the browser never came up (Aside that cannot
 * start is retried once on Chromium); `stage: 'page'` is a failure of this page or its steps,
 * which a retry would only repeat. */
export class EngineFailure extends GstackError {
  constructor(
    message: string,
    readonly stage: 'start' | 'page',
    exit: 'SCRIPT_FAILED' | 'NO_ENGINE' = 'SCRIPT_FAILED',
  ) {
    super(message, exit);
  }
}

/** One-line summary of a page error: "TypeError: x is undefined". */
export function describePageError(err: { name?: string; message?: string } | unknown): string {
  if (err && typeof err === 'object') {
    const e = err as { name?: string; message?: string };
    const name = e.name && e.name !== 'Error' ? e.name : 'Error';
    return `${name}: ${e.message ?? ''}`.trim();
  }
  return String(err);
}
