// Orchestrates one render: validate the spec (before anything starts), serve the root on
// loopback, pick the engine (Aside that cannot start is retried once on Chromium), run the
// steps, write the outputs the caller named — and always close the server.
import { mkdir, realpath, stat, writeFile, access } from 'node:fs/promises';
import { constants } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { OptionError, resolvePdfParams, type PrintToPdfParams } from './pdf-options.js';
import {
  RenderError,
  type EvalResult,
  type RenderArtifact,
  type RenderEngineName,
  type RenderResult,
  type RenderSpec,
  type RenderStep,
} from './render.js';
import { broadRootWarning, isInside, startLoopbackServer } from './server.js';
import { EngineFailure, type EngineRenderOutput, type PreparedRender } from './prepared.js';

export const DEFAULT_TIMEOUT_MS = 120_000;
export const DEFAULT_WAIT_TIMEOUT_MS = 30_000;
const DEFAULT_VIEWPORT = { width: 1280, height: 800 };

/** What a page may load when the network is closed and the engine cannot intercept requests
 * itself (Aside): its own origin, inline code, data: and blob: URLs — nothing remote. */
export const OFFLINE_CSP = "default-src 'self' data: blob: 'unsafe-inline' 'unsafe-eval'; form-action 'none'";

interface Validated {
  file: string;
  root: string;
  steps: RenderStep[];
  outPaths: Array<string | undefined>;
  pdfParams: Array<PrintToPdfParams | undefined>;
}

export async function runRender(spec: RenderSpec): Promise<RenderResult> {
  const started = Date.now();
  const env = spec.env ?? process.env;
  const progress = spec.onProgress ?? (() => {});
  const v = await validate(spec);
  await checkOutputsWritable(v.outPaths);
  const wide = broadRootWarning(v.root, v.file, env);
  if (wide) progress(wide);

  const timeoutMs = spec.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const allowNetwork = !!spec.allowNetwork;
  const server = await startLoopbackServer({
    root: v.root,
    files: spec.files,
    offlineHeaders: allowNetwork ? undefined : { 'content-security-policy': OFFLINE_CSP },
  });
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), timeoutMs);
  // An interrupted caller stops the render the way the deadline does (browser closed, no output).
  const interrupt = () => deadline.abort();
  spec.signal?.addEventListener('abort', interrupt, { once: true });
  if (spec.signal?.aborted) interrupt();
  let engine: RenderEngineName = 'chromium';
  let asideFallback: string | undefined;
  let out: EngineRenderOutput;
  try {
    const job: PreparedRender = {
      url: server.urlFor(v.file),
      offlineUrl: allowNetwork ? undefined : server.urlFor(v.file, { offline: true }),
      origin: server.origin,
      steps: v.steps,
      pdfParams: v.pdfParams,
      waitSelector: spec.waits?.selector,
      waitExpression: spec.waits?.expression,
      waitTimeoutMs: spec.waits?.timeoutMs ?? DEFAULT_WAIT_TIMEOUT_MS,
      allowNetwork,
      onBlockedRequest: spec.onBlockedRequest,
      viewport: spec.viewport ?? DEFAULT_VIEWPORT,
      deviceScaleFactor: spec.deviceScaleFactor ?? 1,
      media: spec.media,
      signal: deadline.signal,
      env,
    };
    engine = await chooseEngine(spec, env, progress);
    const runOn = async (name: RenderEngineName): Promise<EngineRenderOutput> => {
      const run = name === 'aside'
        ? (await import('./aside-render.js')).renderOnAside(job)
        : (await import('./chromium-render.js')).renderOnChromium(job);
      return withDeadline(run, deadline.signal, timeoutMs);
    };
    try {
      out = await runOn(engine);
    } catch (err) {
      if (!(engine === 'aside' && err instanceof EngineFailure && err.stage === 'start') || deadline.signal.aborted) throw err;
      asideFallback = err.message;
      progress(`gstack: Aside could not start the render (${err.message}); retrying once on chromium.`);
      engine = 'chromium';
      out = await runOn(engine);
    }
  } catch (err) {
    if (spec.signal?.aborted) throw new RenderError('the render was interrupted (a signal, or its caller went away); the browser was closed and nothing was written.', 1);
    throw asRenderError(err, engine);
  } finally {
    clearTimeout(timer);
    spec.signal?.removeEventListener('abort', interrupt);
    await server.close();
  }

  const { artifacts, evals } = await writeOutputs(v, out);
  return {
    engine,
    artifacts,
    evals,
    pageErrors: out.pageErrors,
    blockedRequests: out.blockedRequests,
    asideFallback,
    durationMs: Date.now() - started,
  };
}

async function chooseEngine(spec: RenderSpec, env: NodeJS.ProcessEnv, progress: (l: string) => void): Promise<RenderEngineName> {
  const choice = spec.engine ?? 'auto';
  if (choice === 'chromium') return 'chromium';
  const { selectEngine, AsideUnavailableError } = await import('../driver/engines/select.js');
  try {
    const sel = await selectEngine({ engine: choice, env });
    if (sel.fallbackNote) progress(sel.fallbackNote);
    return sel.engine;
  } catch (err) {
    if (err instanceof AsideUnavailableError) throw new RenderError(err.message, 3);
    throw err;
  }
}

function withDeadline<T>(work: Promise<T>, signal: AbortSignal, timeoutMs: number): Promise<T> {
  return new Promise<T>((ok, fail) => {
    const onAbort = () => fail(new EngineFailure(timeoutMessage(timeoutMs), 'page'));
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(ok, fail).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function timeoutMessage(timeoutMs: number): string {
  return `the render did not finish within --timeout ${timeoutMs} ms and was stopped. Raise --timeout, or check that the page and its waits can finish.`;
}

/** The deadline never shows here as an engine's own 'deadline passed' error: withDeadline has
 * already failed the render with timeoutMessage when the signal fired. */
function asRenderError(err: unknown, engine: RenderEngineName): RenderError {
  if (err instanceof RenderError) return err;
  if (err instanceof EngineFailure) {
    if (err.exitCode === 3) return new RenderError(err.message, 3);
    return new RenderError(`render failed on ${engine}: ${err.message}`, 1);
  }
  return new RenderError(`render failed on ${engine}: ${err instanceof Error ? err.message : String(err)}`, 1);
}

/** Everything that can be checked before a browser starts, as usage errors (exit 2). */
async function validate(spec: RenderSpec): Promise<Validated> {
  const usage = (msg: string) => new RenderError(msg, 2);
  if (!spec.file) throw usage('no input file: name the HTML file to render');
  if (!spec.steps?.length) throw usage('nothing to do: add at least one step (--pdf OUT, --screenshot OUT or --eval JS)');

  const cwd = spec.cwd ?? process.cwd();
  const fileAbs = resolve(cwd, spec.file);
  const rootAbs = resolve(cwd, spec.serveRoot ?? dirname(fileAbs));
  let root: string;
  try {
    root = await realpath(rootAbs);
    if (!(await stat(root)).isDirectory()) throw new Error('not a directory');
  } catch {
    throw usage(`--serve-root ${spec.serveRoot ?? rootAbs} is not an existing directory`);
  }

  // The file may live only in memory (spec.files), keyed relative to the served root.
  const memoryKeys = new Set(Object.keys(spec.files ?? {}).map((k) => k.replace(/^\/+/, '')));
  const lexicalKey = relative(rootAbs, fileAbs).split(sep).join('/');
  let file: string;
  if (isInside(rootAbs, fileAbs) && memoryKeys.has(lexicalKey)) {
    file = join(root, ...lexicalKey.split('/'));
  } else {
    try {
      file = await realpath(fileAbs);
    } catch {
      throw usage(`input file not found: ${spec.file} (looked at ${fileAbs}). Check the path; relative paths are resolved from ${cwd}.`);
    }
    if (!(await stat(file)).isFile()) throw usage(`input is not a file: ${spec.file}. Name an .html file, not a directory.`);
    if (!isInside(root, file)) {
      throw usage(`--serve-root ${spec.serveRoot ?? root} must contain the input file ${spec.file} (it resolves to ${file}). Pass a serve root that is an ancestor of the file.`);
    }
  }
  const dotted = relative(root, file).split(sep).find((seg) => seg.startsWith('.'));
  if (dotted) {
    throw usage(`the input file ${spec.file} is under ${dotted} in the served root, and the render server never serves dot-paths. Pass --serve-root ${dirname(file)} (or another directory below ${dotted}).`);
  }

  const pdfParams: Array<PrintToPdfParams | undefined> = [];
  const outPaths: Array<string | undefined> = [];
  const seen = new Map<string, number>();
  spec.steps.forEach((step, i) => {
    const label = `step ${i + 1} (--${step.kind})`;
    try {
      pdfParams.push(step.kind === 'pdf' ? resolvePdfParams(step) : undefined);
    } catch (err) {
      if (err instanceof OptionError) throw usage(`${label}: ${err.message}`);
      throw err;
    }
    if (step.kind === 'screenshot') {
      for (const k of ['width', 'height'] as const) {
        const n = step[k];
        if (n !== undefined && !(Number.isInteger(n) && n > 0 && n <= 16384)) throw usage(`${label}: --${k} must be a whole number of CSS pixels from 1 to 16384 (got ${n})`);
      }
      if (step.quality !== undefined) {
        if (step.format !== 'jpeg') throw usage(`${label}: --quality applies to JPEG only; add --jpeg or drop --quality`);
        if (!(Number.isInteger(step.quality) && step.quality >= 0 && step.quality <= 100)) throw usage(`${label}: --quality must be 0 to 100`);
      }
    }
    if (step.kind === 'eval' && !step.expression?.trim()) throw usage(`${label}: the expression is empty`);
    const out = step.out === undefined ? undefined : resolve(cwd, step.out);
    if (out !== undefined) {
      if (seen.has(out)) throw usage(`${label} writes ${out}, which step ${seen.get(out)! + 1} also writes; give each step its own output file`);
      seen.set(out, i);
    }
    outPaths.push(out);
  });
  return { file, root, steps: spec.steps, outPaths, pdfParams };
}

/** Fail before the browser starts when an output cannot be written (exit 1): creating the
 * parent directories as needed, like most tools that take an output path. */
async function checkOutputsWritable(outPaths: Array<string | undefined>): Promise<void> {
  for (const out of outPaths) {
    if (out === undefined) continue;
    const dir = dirname(out);
    try {
      await mkdirParents(dir);
      await access(dir, constants.W_OK);
      const existing = await stat(out).catch(() => undefined);
      if (existing?.isDirectory()) throw Object.assign(new Error('it is a directory'), { code: 'EISDIR' });
    } catch (err) {
      const e = err as NodeJS.ErrnoException;
      throw new RenderError(
        `cannot write ${out}: ${describeFsError(e)}. Nothing was rendered; choose an output path in a directory you can write.`,
        1,
      );
    }
  }
}

/** mkdir -p one level at a time: Node's recursive mkdir can spin forever on a pseudo file
 * system such as /proc, where each level fails with ENOENT. */
async function mkdirParents(dir: string): Promise<void> {
  const missing: string[] = [];
  let cur = dir;
  for (;;) {
    const info = await stat(cur).catch((e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT') return undefined;
      throw e;
    });
    if (info) {
      if (!info.isDirectory()) throw Object.assign(new Error(`${cur} is a file`), { code: 'ENOTDIR' });
      break;
    }
    missing.push(cur);
    const up = dirname(cur);
    if (up === cur) break;
    cur = up;
  }
  for (const d of missing.reverse()) {
    await mkdir(d).catch((e: NodeJS.ErrnoException) => {
      if (e.code !== 'EEXIST') throw e;
    });
  }
}

/** Writes one output file, creating its directories (exit 1 with the reason when it cannot). */
export async function writeOutputFile(path: string, data: string | Uint8Array): Promise<void> {
  try {
    await mkdirParents(dirname(path));
    await writeFile(path, data);
  } catch (err) {
    throw new RenderError(`cannot write ${path}: ${describeFsError(err as NodeJS.ErrnoException)}. Choose an output path in a directory you can write.`, 1);
  }
}

function describeFsError(e: NodeJS.ErrnoException): string {
  switch (e.code) {
    case 'ENOTDIR': return 'a parent of that path is a file, not a directory (ENOTDIR)';
    case 'EACCES':
    case 'EPERM': return `permission denied (${e.code})`;
    case 'EROFS': return 'the file system is read-only (EROFS)';
    case 'EISDIR': return 'it is a directory (EISDIR)';
    case 'ENOSPC': return 'no space left on the device (ENOSPC)';
    case 'ENOENT': return `a directory on that path cannot be created (${e.message})`;
    default: return e.code && !e.message.startsWith(e.code) ? `${e.code}: ${e.message}` : e.message;
  }
}

/** Bytes an eval result is written as: strings as-is, data: URLs decoded, others as JSON. */
export async function evalValueBytes(value: unknown): Promise<Buffer> {
  if (typeof value === 'string') {
    if (/^data:[^,]*,/i.test(value)) {
      try {
        return Buffer.from(await (await fetch(value)).arrayBuffer());
      } catch {
        throw new RenderError('the eval returned a malformed data: URL; return a valid data URL or a plain string', 1);
      }
    }
    return Buffer.from(value, 'utf8');
  }
  return Buffer.from(JSON.stringify(value === undefined ? null : value, null, 2) + '\n', 'utf8');
}

async function writeOutputs(v: Validated, out: EngineRenderOutput): Promise<{ artifacts: RenderArtifact[]; evals: EvalResult[] }> {
  const artifacts: RenderArtifact[] = [];
  const evals: EvalResult[] = [];
  let evalIndex = 0;
  for (let i = 0; i < v.steps.length; i++) {
    const produced = out.outputs[i];
    const path = v.outPaths[i];
    const bytes = produced.kind === 'eval'
      ? path !== undefined ? await evalValueBytes(produced.value) : undefined
      : produced.data;
    if (path !== undefined && bytes !== undefined) await writeOutputFile(path, bytes);
    if (produced.kind === 'eval') {
      evals.push({ step: i, index: ++evalIndex, value: produced.value, path });
      if (path !== undefined) artifacts.push({ step: i, kind: 'eval', path, bytes: bytes!.length });
    } else {
      artifacts.push(path !== undefined
        ? { step: i, kind: produced.kind, path, bytes: produced.data.length }
        : { step: i, kind: produced.kind, bytes: produced.data.length, data: produced.data });
    }
  }
  return { artifacts, evals };
}
