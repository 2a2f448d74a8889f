// Stage 1 of `gstack pdf` (parse, sanitize, resolve assets) as one call with plain data in and
// out, so it runs off the main thread (convert-worker.ts, kept warm between calls). The render host serves every
// session on the machine from one event loop: a Markdown that takes the parser 50 s (a table
// of 30,000 columns) must not hold that loop, where it stopped the host answering, let another
// command stop or replace it mid-render, and held every other render past its --timeout
// (docs/SECURITY.md, "a call in progress is not cut short by another session's command").
import { Worker } from 'node:worker_threads';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { AssetPolicy, StrictAssetError, type RemoteImages } from './assets.js';
import { convertMarkdown, type MarkdownResult } from './markdown.js';
import { loadHighlighter } from './highlight.js';
import type { AssetNotice } from './assets.js';
import { RenderError } from '../api/errors.js';

export interface ConvertInput {
  source: string;
  baseDir: string;
  allowNetwork: boolean;
  strict: boolean;
  remoteImages: RemoteImages;
  printUrls: boolean;
  /** What links to files beside the document become (AssetPolicyOptions.fileLinks). */
  fileLinks: 'keep' | 'text';
}

export interface ConvertOutput {
  converted: MarkdownResult;
  notices: AssetNotice[];
  droppedImages: string[];
  textLinks: string[];
}

/** What a worker posts back: the result, or the error it met (a strict asset error is the
 * document's problem, any other a failure). */
export type ConvertReply = { ok: true; out: ConvertOutput } | { ok: false; strict: boolean; message: string };

/** Stage 1 in this thread. */
export async function convertHere(input: ConvertInput): Promise<ConvertOutput> {
  const policy = new AssetPolicy({ baseDir: input.baseDir, allowNetwork: input.allowNetwork, strict: input.strict, remoteImages: input.remoteImages, fileLinks: input.fileLinks });
  const highlighter = await loadHighlighter(input.source);
  const converted = convertMarkdown(input.source, { policy, highlighter, printUrls: input.printUrls });
  return { converted, notices: policy.notices, droppedImages: policy.droppedImages, textLinks: policy.textLinks };
}

/** The worker's file next to this module: the compiled `.js` (tsc's output, or the bundle's
 * entry one folder up from its chunks), or the `.ts` source when run through tsx (a worker
 * inherits the `--import tsx` of its process). */
function workerFile(): URL | undefined {
  for (const rel of ['./convert-worker.js', '../convert-worker.js', './convert-worker.ts']) {
    const url = new URL(rel, import.meta.url);
    if (existsSync(fileURLToPath(url))) return url;
  }
  return undefined;
}

/** The worker kept warm between calls (its parser modules loaded), unref'd so an idle one never
 * keeps a process alive. A call takes it, or starts a new one when it is busy: two sessions'
 * parses never wait on each other. */
let idle: Worker | undefined;

function takeWorker(file: URL): Worker {
  const w = idle ?? new Worker(file);
  idle = undefined;
  w.ref();
  return w;
}

function giveBack(w: Worker): void {
  if (idle) {
    void w.terminate();
    return;
  }
  w.unref();
  idle = w;
  w.once('exit', () => {
    if (idle === w) idle = undefined;
  });
}

/** Starts the kept worker ahead of the first call (a render host's preload), with an empty
 * document so its parser modules are loaded by the time a real one comes. */
export async function prewarmConvertWorker(): Promise<void> {
  const file = workerFile();
  if (!file || idle) return;
  await convertOffThread({ source: '# warm\n\n`x`\n', baseDir: process.cwd(), allowNetwork: false, strict: false, remoteImages: 'omit', printUrls: false, fileLinks: 'keep' }, 30_000).catch(() => undefined);
}

/**
 * Stage 1 in a worker thread, ended at `timeoutMs` or when `signal` aborts: the caller's event
 * loop stays free while it runs. The worker is kept for the next call once it has answered; one
 * that timed out or was stopped is killed. Where no worker file is found, the stage runs here.
 */
export async function convertOffThread(input: ConvertInput, timeoutMs: number | undefined, signal?: AbortSignal): Promise<ConvertOutput> {
  const file = workerFile();
  if (!file) return convertHere(input);
  const worker = takeWorker(file);
  return await new Promise<ConvertOutput>((resolveOut, reject) => {
    const detach = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
    };
    const fail = (err: Error) => {
      detach();
      void worker.terminate();
      reject(err);
    };
    const onMessage = (reply: ConvertReply) => {
      detach();
      giveBack(worker);
      if (reply.ok) resolveOut(reply.out);
      else reject(reply.strict ? new StrictAssetError(reply.message) : new RenderError(reply.message));
    };
    const onError = (err: Error) => fail(err);
    const onExit = (code: number) => fail(new RenderError(`the Markdown parser stopped (exit ${code}) before it finished`));
    const onAbort = () => fail(signal?.reason instanceof Error ? signal.reason : new RenderError('the render was stopped while it parsed the Markdown'));
    const timer =
      timeoutMs && timeoutMs > 0
        ? setTimeout(() => fail(new RenderError(`parsing the Markdown took longer than --timeout ${timeoutMs} ms (a very large table or deeply nested markup?); split the document or simplify that part`)), timeoutMs)
        : undefined;
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
    signal?.addEventListener('abort', onAbort, { once: true });
    worker.postMessage(input);
  });
}
