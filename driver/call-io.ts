// What one command call reads and writes, wherever it runs (docs/ARCHITECTURE.md, "One call"):
// in the `gstack` process itself or in a host for a client over the socket (driver/hosts/).
// The runner, the engines and the command bodies speak this; the hosts implement it. Types
// and a constant only: the client loads it.

/** The most a flow script may be (`-f FILE`, stdin): bigger is a usage error. */
export const MAX_SCRIPT_BYTES = 4 * 1024 * 1024;

/** What a command run for a client reads and writes: the client's streams, stdin, environment,
 * directory and abort (its SIGINT/SIGTERM, or the client going away). The CLI (bin/cli.ts)
 * runs the same way in the client's own process and in a host. */
export interface CallIo {
  out(text: string): void;
  err(text: string): void;
  /** All of stdin, or with `maxBytes` no more than its first maxBytes + 1 bytes (so the caller
   * can tell it was too long without holding an endless pipe). */
  readStdin(maxBytes?: number): Promise<string>;
  env: NodeJS.ProcessEnv;
  cwd: string;
  columns?: number;
  signal: AbortSignal;
  /** The invoking `gstack` process, when it is not this one (the session lock names it). */
  callerPid?: number;
  /** Tells whoever enforces the call's deadline that the script starts now and may take `ms`:
   * a host's client ends the host if it has not answered by then plus a grace; an in-process
   * call arms its watchdog thread (driver/runner/watchdog.ts). `message` is the reason the enforcer
   * prints if it has to end the call itself. Optional: library callers have neither. */
  armDeadline?(ms: number, message: string): DeadlineHandle;
}

export interface DeadlineHandle {
  /** The browser the call started (a watchdog ends its process group on expiry). */
  browserStarted(pid: number | undefined): void;
  /** The call ended in time. */
  done(): void;
}
