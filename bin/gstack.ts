#!/usr/bin/env node
// Entry of the `gstack` command. A browser command (run, cookbook, render, pdf, diagram) is
// first offered to the warm worker (driver/warm/), which has Playwright and the CLI loaded
// already; this entry therefore loads nothing but Node built-ins until it knows it has to run
// the CLI itself (bin/cli.ts).
import { exitAfterFlush, processIo } from './cli-io.js';
import { trace } from '../driver/trace.js';
import { cliViaWarmWorker, startWorkerInBackground, warmEligible } from '../driver/warm/client.js';

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  trace('entry loaded');
  const io = processIo(argv);
  const warmCode = await cliViaWarmWorker(io);
  if (warmCode !== undefined) return exitAfterFlush(warmCode);
  const { runCli } = await import('./cli.js');
  const code = await runCli(io);
  // This one loaded Playwright itself: leave a worker for the next browser command.
  if (warmEligible(argv, io.env) && !io.signal.aborted) await startWorkerInBackground(io.env).catch(() => undefined);
  exitAfterFlush(code);
}

main().catch((err: unknown) => {
  process.stderr.write(`[error] ${(err as Error)?.message ?? String(err)}\n`);
  process.exit(1);
});
