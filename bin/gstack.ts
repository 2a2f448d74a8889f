#!/usr/bin/env node
// Entry of the `gstack` command. A browser command goes to a host first (driver/hosts/): `run`,
// `cookbook` and `flows` to the host of the call's session, which keeps that session's browser
// up between calls, read and resolved here (driver/hosts/route.ts) so the host runs the call
// without parsing it again; `render`, `pdf` and `diagram` to the user's render host. This entry
// therefore loads nothing but Node built-ins until it knows it has to run the CLI itself
// (bin/cli.ts): for every other command, a command line the quick reader leaves to yargs (which
// may still hand the call to the host, driver/cli/call.ts), and when no host can take the call.
import { exitAfterFlush, processIo } from '../driver/cli/process-io.js';
import { trace } from '../driver/trace.js';
import { oneLine, terminalSafe } from '../driver/runtime/output.js';
import { routeInvocation } from '../driver/hosts/route.js';
import { callViaHost } from '../driver/hosts/client.js';

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  trace('entry loaded');
  const io = processIo(argv);
  const handOff = routeInvocation(argv, io.env, io.cwd);
  if (handOff) {
    const code = await callViaHost(io, handOff);
    if (code !== undefined) return exitAfterFlush(code);
  }
  const { runCli } = await import('./cli.js');
  // A call a host could not take runs here, without offering it to a host again.
  exitAfterFlush(await runCli({ ...io, hostTried: !!handOff }));
}

main().catch((err: unknown) => {
  process.stderr.write(`[error] ${terminalSafe(oneLine((err as Error)?.message ?? String(err)))}\n`);
  process.exit(1);
});
