#!/usr/bin/env node
// Entry of the `gstack` command. A browser command goes to a host first (driver/hosts/): `run`
// and `cookbook` to the host of the call's session, which keeps that session's browser up
// between calls; `render`, `pdf` and `diagram` to the user's render host. This entry therefore
// loads nothing but Node built-ins until it knows it has to run the CLI itself (bin/cli.ts):
// for every other command, and when no host can take the call.
import { exitAfterFlush, processIo } from '../driver/cli/process-io.js';
import { trace } from '../driver/trace.js';
import { oneLine, terminalSafe } from '../driver/runtime/output.js';
import { routeInvocation } from '../driver/hosts/route.js';
import { callViaHost } from '../driver/hosts/client.js';

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  trace('entry loaded');
  const io = processIo(argv);
  const target = routeInvocation(argv, io.env, io.cwd);
  if (target) {
    const code = await callViaHost(io, target);
    if (code !== undefined) return exitAfterFlush(code);
  }
  const { runCli } = await import('./cli.js');
  exitAfterFlush(await runCli(io));
}

main().catch((err: unknown) => {
  process.stderr.write(`[error] ${terminalSafe(oneLine((err as Error)?.message ?? String(err)))}\n`);
  process.exit(1);
});
