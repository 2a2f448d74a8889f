// The render library's vocabulary: the spec a caller writes (file, steps, waits, engine) and
// the result it gets back. Every folder of render/ speaks these types, so this file imports
// nothing else of render/: it sits at the bottom of render/'s layers (docs/ARCHITECTURE.md,
// "Rendering").
//
// Steps are plain data (not callbacks) on purpose: on Aside the whole render becomes one
// `aside repl` script, so anything a step can do must be expressible as that script.
import type { EngineChoice } from '../../driver/catalog.gen.js';
/** Which browser renders (the same `--engine` choices as a flow script). */
export type RenderEngineChoice = EngineChoice;
export type RenderEngineName = 'aside' | 'chromium';

/** A CSS length: a number (CSS px) or a string with a unit: in, mm, cm, pt, px. */
export type Length = number | string;

export interface Margins {
  top?: Length;
  right?: Length;
  bottom?: Length;
  left?: Length;
}

export type PaperName =
  | 'letter' | 'legal' | 'tabloid' | 'ledger'
  | 'a0' | 'a1' | 'a2' | 'a3' | 'a4' | 'a5' | 'a6';

export interface PdfStep {
  kind: 'pdf';
  /** Where to write the PDF. Omit to get the bytes back in RenderArtifact.data instead. */
  out?: string;
  /** Named paper size (case-insensitive); default letter. Ignored when `paperSize` is set. */
  paper?: PaperName | string;
  /** Explicit paper size (e.g. { width: '8.5in', height: '11in' }); wins over `paper`. */
  paperSize?: { width: Length; height: Length };
  /** Page margins. Default: 0.4in each side, 0.6in top/bottom when a header/footer shows. */
  margin?: Length | Margins;
  /** Chromium print header/footer HTML. Classes date, title, pageNumber, totalPages are
   * filled in by the browser; class url by the renderer, with `RenderSpec.shownUrl` (the page's
   * own address is the render server's). Templates cannot load resources: inline any styles. */
  headerTemplate?: string;
  footerTemplate?: string;
  /** Add a centred "N of M" page-number line to the footer. */
  pageNumbers?: boolean;
  /** Tagged (accessible) PDF. */
  tagged?: boolean;
  /** Document outline (bookmarks) built from the page's headings. */
  outline?: boolean;
  landscape?: boolean;
  printBackground?: boolean;
  /** Let CSS @page size win over paper/landscape. */
  preferCSSPageSize?: boolean;
  /** e.g. "1-3, 5". */
  pageRanges?: string;
  /** 0.1 - 2. */
  scale?: number;
}

export interface ScreenshotStep {
  kind: 'screenshot';
  /** Where to write the image. Omit to get the bytes back in RenderArtifact.data instead. */
  out?: string;
  /** Viewport width in CSS px for this shot (the image is width x deviceScaleFactor wide). */
  width?: number;
  /** Viewport height in CSS px for this shot. */
  height?: number;
  /** Capture just this element (its bounding box). */
  selector?: string;
  /** Capture only the viewport instead of the full scrollable page. */
  viewportOnly?: boolean;
  format?: 'png' | 'jpeg';
  /** JPEG quality 0-100. */
  quality?: number;
  /** Transparent background instead of white (PNG only). */
  omitBackground?: boolean;
}

export interface EvalStep {
  kind: 'eval';
  /** A JavaScript expression evaluated in the page; a returned promise is awaited. */
  expression: string;
  /** Write the value here: strings as-is, `data:` URLs decoded to bytes, anything else as
   * JSON. Omit to only get it back in RenderResult.evals. */
  out?: string;
}

export type RenderStep = PdfStep | ScreenshotStep | EvalStep;

export interface RenderWaits {
  /** Wait until this selector matches an element in the DOM (attached; need not be visible). */
  selector?: string;
  /** Wait until this expression is truthy (promises awaited; a throw counts as "not yet"). */
  expression?: string;
  /** Bound on the `load` event plus the waits above, in ms. Default 30000. */
  timeoutMs?: number;
}

export interface RenderSpec {
  /** The HTML file to render. It must be inside `serveRoot`; it may exist only in `files`. */
  file: string;
  /** The directory served (default: the file's directory). Nothing outside it is served. */
  serveRoot?: string;
  /** Extra in-memory files, keyed by POSIX path relative to serveRoot. They win over disk. */
  files?: Record<string, string | Uint8Array>;
  /** Steps, run in order in one browser session. */
  steps: RenderStep[];
  /** What a header or footer element of class `url` shows. Default: the input file's `file:`
   * URL (`gstack pdf` gives the Markdown file's), never the render server's address. */
  shownUrl?: string;
  waits?: RenderWaits;
  /** Whole-render deadline in ms (launch to last step). Default 120000. */
  timeoutMs?: number;
  /** Default 'auto': Aside when it answers the readiness probe, else Chromium. */
  engine?: RenderEngineChoice;
  /** Default false: every request that is not to this render's loopback server (or a
   * data:/blob: URL) is blocked, and listed in RenderResult.blockedRequests. */
  allowNetwork?: boolean;
  /** Called once per blocked request as it happens. */
  onBlockedRequest?: (url: string) => void;
  /** Initial viewport (CSS px). Default 1280 x 800. */
  viewport?: { width: number; height: number };
  /** Device pixel ratio for screenshots. Default 1. */
  deviceScaleFactor?: number;
  /** Emulated CSS media type for the page (PDF output always uses print). */
  media?: 'screen' | 'print';
  /** One line of progress/diagnostics at a time (engine fallback, stages); for stderr. */
  onProgress?: (line: string) => void;
  /** Environment for engine discovery (GSTACK_CHROMIUM, GSTACK_SKIP_ASIDE, PATH). */
  env?: NodeJS.ProcessEnv;
  /** Directory relative paths (file, serveRoot, outputs) are resolved from. Default: the process's. */
  cwd?: string;
  /** Stops the render (the caller was interrupted or went away); reported as interrupted. */
  signal?: AbortSignal;
}

/** What `gstack pdf` and `gstack diagram` pass through to the renders they run, with the
 * meanings RenderSpec gives them (their timeoutMs bounds each render). */
export type RenderCallOptions = Pick<RenderSpec, 'engine' | 'timeoutMs' | 'env' | 'cwd' | 'signal' | 'onProgress'>;

export interface RenderArtifact {
  /** Index of the step (0-based) in spec.steps that produced it. */
  step: number;
  kind: 'pdf' | 'screenshot' | 'eval';
  /** Absolute path written, when the step named an `out`. */
  path?: string;
  bytes: number;
  /** The bytes, when the step had no `out`. */
  data?: Buffer;
}

export interface EvalResult {
  /** Index of the step (0-based) in spec.steps. */
  step: number;
  /** 1-based number among the eval steps (the `EVAL <i>:` of the CLI). */
  index: number;
  /** The value as the page returned it (JSON-compatible; undefined stays undefined). */
  value: unknown;
  /** Absolute path written, when the step named an `out`. */
  path?: string;
}

export interface RenderResult {
  engine: RenderEngineName;
  artifacts: RenderArtifact[];
  evals: EvalResult[];
  /** Uncaught exceptions and unhandled rejections the page threw (untrusted text). */
  pageErrors: string[];
  /** Requests blocked because allowNetwork was false (untrusted URLs). */
  blockedRequests: string[];
  /** Set when Aside was chosen but could not start and the render was retried on Chromium. */
  asideFallback?: string;
  durationMs: number;
}
