// GSTACK_TRACE=1 prints when each phase of a call happened (ms since process start) to
// stderr: the profile of where a call's time goes, used by the speed work of issue 8.
const on = !!process.env.GSTACK_TRACE;
export function trace(phase: string): void {
  if (on) process.stderr.write(`[trace] ${performance.now().toFixed(0).padStart(5)} ms  ${phase}\n`);
}
