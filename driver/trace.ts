// GSTACK_TRACE=1 prints when each phase of a call happened (ms since process start) to
// stderr: the profile of where a call's time goes, used by the speed work of issue 8.
// A call served by a host (driver/hosts/) traces into that call's own stderr: the
// host runs its calls under a per-call sink, so concurrent calls never mix their lines.
import { AsyncLocalStorage } from 'node:async_hooks';

const sink = new AsyncLocalStorage<(line: string) => void>();

/** Runs `fn` with this call's trace lines going to `write` (a host's per-call sink). */
export function withTraceSink<T>(write: (line: string) => void, fn: () => T): T {
  return sink.run(write, fn);
}

export function trace(phase: string): void {
  const write = sink.getStore();
  if (write) write(phase);
  else if (process.env.GSTACK_TRACE) process.stderr.write(`[trace] ${performance.now().toFixed(0).padStart(5)} ms  ${phase}\n`);
}
