// The deadline of one call (--timeout): its one owner (docs/ARCHITECTURE.md, "One call").
//
// The runner makes a CallDeadline and starts it when the script is about to start; the engine
// races the script against `expired` and says which browser it started; the runner ends it
// (`done`) whatever happens. Starting it arms both halves at once, with the same milliseconds
// and messages:
// - the timer in this event loop, which ends an ordinary overrun (a slow page, a wait that is
//   never satisfied): the engine kills the browser and the call fails with `timedOutMessage`;
// - the enforcer outside this event loop, for a script that never gives control back
//   (`while(true){}`): the host's client (driver/hosts/client.ts), told over the socket, or the
//   watchdog thread of a call run in the `gstack` process (driver/runner/watchdog.ts), through
//   CallIo.armDeadline. It waits the same milliseconds plus DEADLINE_GRACE_MS, so the timer
//   here always speaks first when it can, and then ends the call with `stuckMessage`.
// Aside runs the script in its own process: its adapter stops `aside repl` at `ms` itself.
// Built-ins only: the client loads it.
import type { CallIo, DeadlineHandle } from './call-io.js';

/** How long past the deadline the outside enforcer waits for the call's own end (a timed-out
 * call still takes its evidence, bounded to 1.5 s, and closes its browser). */
export const DEADLINE_GRACE_MS = 2_000;

/** The `[error]` of a call its own timer ended (on Aside: its adapter's). */
export function timedOutMessage(ms: number, engine: 'chromium' | 'aside' = 'chromium', pending?: string): string {
  if (engine === 'aside') {
    return `The script did not finish within ${Math.round(ms / 100) / 10} s (--timeout); aside repl was stopped. The page may be slow or a wait never matched: wait for a specific selector, or raise --timeout.`;
  }
  // The Playwright call it still waited in, when it waited in one (not in its own sleep or loop).
  const waiting = pending ? ` It was waiting in ${pending}.` : '';
  return `The script did not finish within ${ms} ms (--timeout); its browser was stopped and starts afresh on the next call.${waiting} A page may be slow or a wait never satisfied: print progress lines to see how far it got, wait for specific elements, or raise --timeout.`;
}

/** The `[error]` of a call the outside enforcer ended: its script never gave control back.
 * `stopped` says what was stopped (default: the call's browser). */
export function stuckMessage(ms: number, stopped = 'its browser was stopped.'): string {
  return `The script did not finish within ${ms} ms (--timeout) and did not give control back (a loop that never awaits?); ${stopped} Make every loop await a page action or sleep(ms), or raise --timeout.`;
}

export class CallDeadline {
  /** Resolves when `ms` have passed since `start` (never, before it or after `done`). */
  readonly expired: Promise<void>;
  private expire: () => void = () => undefined;
  private timer: NodeJS.Timeout | undefined;
  private outside: DeadlineHandle | undefined;

  /** `arm`: the caller's outside enforcer (CallIo.armDeadline); a library call has none. */
  constructor(
    readonly ms: number,
    private readonly arm?: CallIo['armDeadline'],
  ) {
    this.expired = new Promise((resolve) => (this.expire = resolve));
  }

  /** The script starts now: both halves are armed. */
  start(): void {
    if (this.timer) return;
    this.outside = this.arm?.(this.ms, stuckMessage(this.ms));
    this.timer = setTimeout(this.expire, this.ms);
    this.timer.unref?.();
  }

  /** The browser the call started: an in-process watchdog ends its process group on expiry. */
  browserStarted(pid: number | undefined): void {
    this.outside?.browserStarted(pid);
  }

  /** The call is over (in time or not): nothing fires any more. */
  done(): void {
    clearTimeout(this.timer);
    this.outside?.done();
    this.outside = undefined;
  }
}
