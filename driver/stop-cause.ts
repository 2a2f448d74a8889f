// Why a call was stopped from outside, and the one place that turns that into the call's
// `[error]` message (docs/ARCHITECTURE.md, "Hosts": "A call stopped from outside").
//
// A call can end before its script does for reasons that are nobody's fault in the script: another
// command stopped the session's host (`gstack sessions stop …`), the `gstack` process got SIGINT
// or SIGTERM, the host itself is going away, or the browser died under the call. The agent that
// reads the `[error]` line must learn which, who did it, and whether running the call again is the
// fix. The cause travels as the reason of the call's AbortSignal (from a signal handler, from the
// client over the host socket, from the host's stop note) and is checked here at each boundary.
//
// Built-ins only: the thin client loads it.

export type StopCause =
  /** Another `gstack` command stopped the session's host (it left a stop note first). */
  | { kind: 'command'; command: string; pid: number }
  /** The `gstack` process running the call received a signal (Ctrl-C, a harness, `kill`). */
  | { kind: 'signal'; signal: string; pid: number }
  /** The host is going away on its own account (a crash of its own, an unexpected signal). */
  | { kind: 'host'; why: string; pid: number };

const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const posInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v > 0;
const text = (v: unknown, max = 200): v is string => typeof v === 'string' && v.length > 0 && v.length <= max;

/** A StopCause from untrusted data (a socket message, a note file), or undefined. */
export function parseStopCause(v: unknown): StopCause | undefined {
  if (!isObj(v) || !posInt(v.pid)) return undefined;
  switch (v.kind) {
    case 'command':
      return text(v.command) ? { kind: 'command', command: v.command, pid: v.pid } : undefined;
    case 'signal':
      return text(v.signal, 20) ? { kind: 'signal', signal: v.signal, pid: v.pid } : undefined;
    case 'host':
      return text(v.why, 500) ? { kind: 'host', why: v.why, pid: v.pid } : undefined;
    default:
      return undefined;
  }
}

/** The `[error]` text of a call that was stopped for `reason` (an AbortSignal's reason). */
export function stoppedMessage(reason: unknown): string {
  const cause = parseStopCause(reason);
  if (!cause) return 'The call was interrupted before its script finished; its tabs were closed. Run the call again if you still need its result.';
  switch (cause.kind) {
    case 'command':
      return (
        `The call was stopped by \`${cause.command}\` (pid ${cause.pid}), run by another command on this machine; ` +
        "its tabs were closed and the session's browser was shut down (logins are kept). " +
        'Nothing was wrong with the script: if you still need its result, run the call again and a fresh browser starts.'
      );
    case 'signal':
      return (
        `The call was interrupted: this gstack process (pid ${cause.pid}) received ${cause.signal} ` +
        '(Ctrl-C, a harness deadline or a kill from outside); its tabs were closed. Run the call again if you still need its result.'
      );
    case 'host':
      return `The call was ended because its session host (pid ${cause.pid}) stopped: ${cause.why}. Its tabs were closed; run the call again: a fresh host starts.`;
  }
}

/** How a browser process ended, in words an agent can act on. */
export function browserGoneMessage(pid: number | undefined, exit: { code: number | null; signal: string | null } | undefined): string {
  const who = pid ? `The browser (pid ${pid})` : 'The browser';
  let how: string;
  if (exit?.signal === 'SIGKILL') how = 'was killed with SIGKILL during the call (the system may have run out of memory, or another process killed it)';
  else if (exit?.signal) how = `was ended by ${exit.signal} during the call (another process signalled it)`;
  else if (exit && exit.code !== null) how = `exited with code ${exit.code} during the call (it crashed)`;
  else how = 'went away during the call (it crashed or was killed)';
  return `${who} ${how}; the call's tabs are gone. Run the call again: the session starts a fresh browser on the same profile, so logins are kept.`;
}
