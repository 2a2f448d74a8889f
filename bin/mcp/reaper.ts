// The end of an MCP connection, in a process of its own (started by bin/mcp/server.ts):
// wait for the connection's calls to finish aborting, then end its session with the CLI
// (`gstack sessions clear KEY`: stops its browser and removes its profile under its lock; or
// `sessions stop KEY` for a session named with `gstack mcp --session`, which keeps its logins).
//
// Why a separate, detached process: a client may kill the server soon after it closes the
// connection (the SDK's own client closes stdin, then sends SIGTERM after 2 s and SIGKILL after
// 2 s more), and the session's browser must not outlive the connection because of that. The
// server waits for this process when it can, so a client that lets it exit sees it all done.
//
// Usage: node reaper.js <gstack entry> <clear|stop> <session key> [call pid ...]
// Node built-ins only; it writes nothing (stdio is ignored).
import { spawnSync } from 'node:child_process';

/** How long the aborting calls may take (the CLI's own abort grace is 3 s, plus the host's
 * kill and the exit) before they are killed. */
const CALLS_GRACE_MS = 10_000;
/** `sessions clear` refuses while a call holds the lock: how long to retry. */
const CLEAR_RETRY_MS = 15_000;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main(): Promise<void> {
  const [entry, mode, key, ...pids] = process.argv.slice(2);
  if (!entry || (mode !== 'clear' && mode !== 'stop') || !key) process.exit(2);
  const calls = pids.map(Number).filter((p) => p > 0);
  const until = Date.now() + CALLS_GRACE_MS;
  while (calls.some(alive) && Date.now() < until) await sleep(50);
  for (const p of calls.filter(alive)) {
    try {
      process.kill(p, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }
  const clearUntil = Date.now() + CLEAR_RETRY_MS;
  for (;;) {
    const r = spawnSync(process.execPath, [entry, 'sessions', mode, key], { stdio: 'ignore' });
    // 4: a call still holds the session (one killed above leaves a lock its dead pid holds,
    // which the next try takes over).
    if (r.status !== 4 || Date.now() > clearUntil) process.exit(r.status ?? 1);
    await sleep(250);
  }
}

void main();
