// Orchestrates one render: validate the spec (before anything starts), serve the root on
// loopback, pick the engine (Aside that cannot start is retried once on Chromium), run the
// steps, write the outputs the caller named — and always close the server.
import { RenderError } from '../api/errors.js';
import type { RenderEngineName, RenderResult, RenderSpec } from '../api/types.js';
import { EngineFailure, type EngineRenderOutput, type PreparedRender } from '../engines/engine-contract.js';
import { checkOutputsWritable, writeOutputs } from './outputs.js';
import { broadRootWarning, startLoopbackServer } from './server.js';
import { validate } from './validate.js';

export const DEFAULT_TIMEOUT_MS = 120_000;
export const DEFAULT_WAIT_TIMEOUT_MS = 30_000;
const DEFAULT_VIEWPORT = { width: 1280, height: 800 };

/** What a page may load when the network is closed and the engine cannot intercept requests
 * itself (Aside): its own origin, inline code, data: and blob: URLs — nothing remote. */
export const OFFLINE_CSP = "default-src 'self' data: blob: 'unsafe-inline' 'unsafe-eval'; form-action 'none'";

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
        ? (await import('../engines/aside-render.js')).renderOnAside(job)
        : (await import('../engines/chromium-render.js')).renderOnChromium(job);
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
    if (spec.signal?.aborted) throw new RenderError('the render was interrupted (a signal, or its caller went away); the browser was closed and nothing was written.');
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
  const { selectEngine, fallbackNoteToPrint, AsideUnavailableError } = await import('../../driver/engines/select.js');
  const { gstackHome } = await import('../../driver/sessions/key.js');
  try {
    const sel = await selectEngine({ engine: choice, env });
    // The same rule as gstack run: no `aside` command at all is said once per GSTACK_HOME.
    const note = fallbackNoteToPrint(sel, gstackHome(env));
    if (note) progress(note);
    return sel.engine;
  } catch (err) {
    if (err instanceof AsideUnavailableError) throw new RenderError(err.message, 'NO_ENGINE');
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
    if (err.exit === 'NO_ENGINE') return new RenderError(err.message, 'NO_ENGINE');
    return new RenderError(`render failed on ${engine}: ${err.message}`);
  }
  return new RenderError(`render failed on ${engine}: ${err instanceof Error ? err.message : String(err)}`);
}
