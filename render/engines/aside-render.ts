// The Aside render engine: the whole render is one `aside repl` script running in the user's
// Aside browser (aside-render-script.js, with this render's job as its first line). PDFs go
// through raw CDP Page.printToPDF from the same resolved params as on Chromium. The script
// writes each output into Aside's per-run `pwd`; we read them back from there and remove them.
//
// Start vs page failure: the script prints RENDER_STARTED right after its tab opens. A failure
// before that line (the CLI missing or failing, the browser not answering) means Aside could not
// start, and the orchestrator retries once on Chromium; after it, the page or a step failed,
// and a retry would only fail again.
import { readFileSync } from 'node:fs';
import { readFile, rm, stat } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import { PROJECT_ROOT } from '../../driver/catalog.js';
import { runAsideRepl } from '../../driver/engines/aside-probe.js';
import { ASIDE_DIR_LABEL, judgeAsideOutput } from '../../driver/engines/aside.js';
import { RENDER_MESSAGES, renderMessage, stepLabel } from '../api/messages.js';
import { MAX_EVAL_DATA_URL_CHARS, evalLimit, evalValueSize } from '../api/eval-limits.js';
import type { RenderStep } from '../api/types.js';
import { EngineFailure, type EngineRenderOutput, type PreparedRender, type StepOutput } from './engine-contract.js';

export const RENDER_STARTED = 'GSTACK_RENDER_STARTED';
export const OUTPUT_PREFIX = 'gstack-render-';
const META_FILE = `${OUTPUT_PREFIX}meta.json`;

/** The part of a prepared render the Aside script needs (all JSON-serializable). */
export type AsideScriptInput = Pick<
  PreparedRender,
  'url' | 'offlineUrl' | 'origin' | 'steps' | 'pdfParams' | 'waitSelector' | 'waitExpression' | 'waitTimeoutMs' | 'allowNetwork' | 'viewport' | 'deviceScaleFactor' | 'media'
>;

/** The file (under Aside's pwd) that step i writes. */
export function stepFileName(step: RenderStep, i: number): string {
  switch (step.kind) {
    case 'pdf': return `${OUTPUT_PREFIX}${i}.pdf`;
    case 'screenshot': return `${OUTPUT_PREFIX}${i}.${step.format === 'jpeg' ? 'jpg' : 'png'}`;
    case 'eval': return `${OUTPUT_PREFIX}${i}.json`;
  }
}

/** The Aside render script, read once from the package (it ships as a file: package.json
 * "files"). Only an Aside render pays for reading it. */
export const ASIDE_RENDER_SCRIPT_PATH = join(PROJECT_ROOT, 'render', 'engines', 'aside-render-script.js');
let scriptText: string | undefined;

/** A pure function of the job: the text of the `aside repl` script that performs the render,
 * aside-render-script.js with the job as its first line. */
export function asideRenderScript(input: AsideScriptInput): string {
  const job = {
    url: input.url,
    offlineUrl: input.offlineUrl ?? null,
    origin: input.origin,
    waitSelector: input.waitSelector ?? null,
    waitExpression: input.waitExpression ?? null,
    waitTimeoutMs: input.waitTimeoutMs,
    allowNetwork: input.allowNetwork,
    viewport: input.viewport,
    dsf: input.deviceScaleFactor,
    media: input.media ?? null,
    steps: input.steps.map((s, i) => {
      const file = stepFileName(s, i);
      switch (s.kind) {
        case 'pdf': return { kind: 'pdf', file, params: { ...input.pdfParams[i], transferMode: 'ReturnAsBase64' } };
        case 'screenshot': return {
          kind: 'screenshot', file, width: s.width ?? null, height: s.height ?? null, selector: s.selector ?? null,
          viewportOnly: !!s.viewportOnly, format: s.format ?? 'png', quality: s.quality ?? null, omitBackground: !!s.omitBackground,
        };
        case 'eval': return { kind: 'eval', file, expression: s.expression };
      }
    }),
    metaFile: META_FILE,
    lines: { started: RENDER_STARTED, asideDir: ASIDE_DIR_LABEL },
    messages: RENDER_MESSAGES,
  };
  scriptText ??= readFileSync(ASIDE_RENDER_SCRIPT_PATH, 'utf8');
  return `const job = ${JSON.stringify(job)};\n${scriptText}`;
}

export async function renderOnAside(job: PreparedRender): Promise<EngineRenderOutput> {
  const script = asideRenderScript(job);
  const res = await runAsideRepl(script, {
    // The orchestrator enforces the whole-render deadline; this only bounds the CLI itself.
    timeoutMs: 24 * 60 * 60 * 1000,
    signal: job.signal,
    env: job.env,
  });
  const started = res.lines.includes(RENDER_STARTED);
  if (res.spawnError) throw new EngineFailure(`the aside CLI could not be started (${res.spawnError})`, 'start');
  if (res.aborted) throw new EngineFailure(renderMessage('deadlinePassed', {}), 'page');
  const verdict = judgeAsideOutput(res.lines, res.exitCode);
  if (!started) {
    throw new EngineFailure(
      verdict.error ? `Aside did not open the render tab: ${verdict.error}` : `the aside CLI exited with code ${res.exitCode} before opening the render tab`,
      'start',
    );
  }
  const dir = verdict.artifactDir;
  if (!verdict.completed) {
    if (dir) await removeOutputs(dir, job.steps);
    const raw = verdict.error ?? 'the render script did not complete on Aside';
    throw new EngineFailure(raw.replace(/^The script threw on Aside: (Error: )?/, ''), 'page');
  }
  if (!dir || !isAbsolute(dir)) throw new EngineFailure('Aside did not report its run directory (ASIDE_DIR=); cannot collect the outputs', 'page');

  try {
    const outputs: StepOutput[] = [];
    for (let i = 0; i < job.steps.length; i++) {
      const step = job.steps[i];
      const file = join(dir, stepFileName(step, i));
      if (step.kind === 'eval') {
        // Bounded before it is read, and held to the same limits as on Chromium (api/eval-limits.ts).
        const bytes = (await stat(file)).size;
        if (bytes > 3 * MAX_EVAL_DATA_URL_CHARS) throw new EngineFailure(renderMessage('evalTooBig', { label: stepLabel(i, step.kind), size: `about ${bytes}`, max: MAX_EVAL_DATA_URL_CHARS }), 'page');
        const value = (JSON.parse(await readFile(file, 'utf8')) as { value?: unknown }).value;
        const measured = evalValueSize(value);
        if (measured.size > evalLimit(measured)) throw new EngineFailure(renderMessage('evalTooBig', { label: stepLabel(i, step.kind), size: measured.size, max: evalLimit(measured) }), 'page');
        outputs.push({ kind: 'eval', value });
        continue;
      }
      outputs.push({ kind: step.kind, data: await readFile(file) });
    }
    const meta = JSON.parse(await readFile(join(dir, META_FILE), 'utf8')) as { pageErrors: string[]; blocked: string[] };
    for (const url of meta.blocked) job.onBlockedRequest?.(url);
    return { outputs, pageErrors: meta.pageErrors.map(String), blockedRequests: meta.blocked.map(String) };
  } catch (err) {
    if (err instanceof EngineFailure) throw err;
    throw new EngineFailure(`could not read the render outputs Aside wrote under ${dir}: ${(err as Error).message}`, 'page');
  } finally {
    await removeOutputs(dir, job.steps);
  }
}

/** Page content leaves Aside's run directory only through the outputs the caller named. */
async function removeOutputs(dir: string, steps: RenderStep[]): Promise<void> {
  if (!isAbsolute(dir)) return;
  const names = [...steps.map(stepFileName), META_FILE];
  await Promise.all(names.map((n) => rm(join(dir, n), { force: true })));
}
