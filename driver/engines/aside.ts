// The Aside engine: the script goes to `aside repl` unchanged, and we compute the truth the
// CLI does not give. Aside's CLI exits 0 even when the script throws (it prints an `[error`
// line instead), so success is: the sentinel was printed and no `[error` line came after it.
import { asideSaysNoWindow, runAsideRepl } from './aside-probe.js';
import { timedOutMessage } from '../deadline.js';
import { SENTINEL } from '../runtime/output.js';
import type { EngineRunInput, EngineRunOutcome } from './types.js';
import { parseAsideEvidence, wrapForAside, type TabEvidence } from '../runtime/evidence.js';

/** The line an Aside script prints with its own artifact directory (cookbook and render). */
export const ASIDE_DIR_LABEL = 'ASIDE_DIR=';
/** How the Aside CLI says it cut stdout; when that ate the sentinel the fix is different. */
const CUT_MARKER = /^\[?(output )?truncated\b/i;

export interface AsideVerdict {
  completed: boolean;
  error?: string;
  artifactDir?: string;
}

/** Reads Aside's stdout (already complete) the way `gstack run` must judge it. Exported for
 * `gstack render` and for unit tests. */
export function judgeAsideOutput(lines: string[], exitCode: number | null): AsideVerdict {
  let artifactDir: string | undefined;
  let lastSentinel = -1;
  let lastError = -1;
  let sawCut = false;
  lines.forEach((line, i) => {
    // The first one is the script's own (the cookbook prints it before it opens a page); a later
    // one may be page text spelling the label, and --out would copy from where it points.
    if (artifactDir === undefined && line.startsWith(ASIDE_DIR_LABEL)) artifactDir = line.slice(ASIDE_DIR_LABEL.length).trim() || undefined;
    if (line === SENTINEL) lastSentinel = i;
    if (line.startsWith('[error')) lastError = i;
    if (CUT_MARKER.test(line)) sawCut = true;
  });

  if (lastError > lastSentinel) {
    const raw = lines[lastError].replace(/^\[error[^\]]*\]?\s*/, '').trim();
    return { completed: false, artifactDir, error: raw ? `The script threw on Aside: ${raw}` : 'The script threw on Aside (see the [error line above).' };
  }
  if (lastSentinel < 0) {
    if (sawCut)
      return {
        completed: false,
        artifactDir,
        error: `Aside cut the script's output before ${SENTINEL}. Print less (write long text to a file under pwd and print its path), then run again.`,
      };
    if (exitCode !== 0 && exitCode !== null)
      return { completed: false, artifactDir, error: `The aside CLI exited with code ${exitCode} before the script finished. Check the Aside app with \`gstack probe\`, or run with --engine chromium.` };
    return {
      completed: false,
      artifactDir,
      error: `The script ended without printing ${SENTINEL}. End every script with console.log("${SENTINEL}") after its last step.`,
    };
  }
  if (exitCode !== 0)
    return { completed: false, artifactDir, error: `The aside CLI exited with code ${exitCode} after the script printed ${SENTINEL}; the call's result is not reliable. Check the Aside app with \`gstack probe\`.` };
  return { completed: true, artifactDir };
}

/**
 * The script as Aside gets it: Aside has no `params` global (catalog "params"), so a script
 * that uses it, or a call that has some, gets a prelude declaring it. The prelude shares the
 * script's first line, so line numbers in Aside's errors stay the script's own, and the script
 * runs in a block of its own, so a script that declares its own top-level `params` shadows the
 * prelude's instead of failing to compile.
 */
export function withParamsPrelude(script: string, params: Readonly<Record<string, unknown>> | undefined): string {
  if (params === undefined && !/\bparams\b/.test(script)) return script;
  // JSON inside a JSON string literal: no page or parameter text can end the literal early.
  const literal = JSON.stringify(JSON.stringify(params ?? {}));
  const freeze = '(function f(o){if(o&&typeof o==="object"){for(const k of Object.keys(o))f(o[k]);Object.freeze(o)}return o})';
  return `const params = ${freeze}(JSON.parse(${literal})); {${script}\n}`;
}

export async function runOnAside(input: EngineRunInput & { env?: NodeJS.ProcessEnv }): Promise<EngineRunOutcome> {
  // Evidence on failure is collected by the script itself under Aside (driver/runtime/evidence.ts):
  // its one marked line is taken out of the output here.
  const wrapped = input.evidence === false ? undefined : wrapForAside(input.script);
  let evidence: { tabs: TabEvidence[]; pwd?: string } | undefined;
  // Aside reports a throw as a trailing `[error ...` line. We hold such lines back until
  // another line follows: if the run ends on them, the runner's own final `[error]` line
  // carries the same cause, so the output ends with exactly one error line on both engines.
  const held: string[] = [];
  const onLine = (line: string): void => {
    const ev = wrapped && parseAsideEvidence(line, wrapped.marker);
    if (ev) {
      evidence = ev;
      return;
    }
    if (line.startsWith('[error')) {
      held.push(line);
      return;
    }
    for (const h of held.splice(0)) input.onLine(h);
    input.onLine(line);
  };
  const res = await runAsideRepl(withParamsPrelude(wrapped?.script ?? input.script, input.params), {
    timeoutMs: input.deadline.ms,
    onLine,
    signal: input.signal,
    env: input.env,
  });
  const verdict = judgeAsideOutput(
    wrapped ? res.lines.filter((l) => !l.startsWith(wrapped.marker)) : res.lines,
    res.exitCode,
  );
  verdict.artifactDir ??= evidence?.pwd;
  const endedOnThrow = !res.timedOut && !res.aborted && !verdict.completed && verdict.error?.startsWith('The script threw on Aside');
  if (!endedOnThrow) for (const h of held.splice(0)) input.onLine(h);

  if (res.spawnError)
    return { completed: false, error: `The aside CLI could not be started (${res.spawnError}). Check with \`gstack probe\`, or run with --engine chromium.` };
  if (res.timedOut)
    return withEvidence({
      completed: false,
      timedOut: true,
      artifactDir: verdict.artifactDir,
      error: timedOutMessage(input.deadline.ms, 'aside'),
    });
  if (res.aborted) return withEvidence({ completed: false, artifactDir: verdict.artifactDir, error: 'The call was interrupted; aside repl was stopped.' });
  // The window was closed after the probe said ready: say so rather than "exited with code 1".
  if (!verdict.completed && res.exitCode !== 0 && asideSaysNoWindow(res.stderrTail))
    return withEvidence({ completed: false, artifactDir: verdict.artifactDir, error: 'The Aside app has no browser window open, so the script did not run. Open a window in Aside and run again, or run with --engine chromium.' });
  return withEvidence(verdict);

  /** A failed run carries the evidence its wrapper printed (none after a timeout: the CLI was
   * stopped before the script could collect it). */
  function withEvidence(outcome: EngineRunOutcome): EngineRunOutcome {
    if (evidence && (!outcome.completed || input.failsAnyway?.())) outcome.evidence = evidence.tabs;
    return outcome;
  }
}
