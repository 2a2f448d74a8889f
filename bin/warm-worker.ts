// Entry of the warm worker process (driver/warm/worker.ts), bundled next to the CLI: it serves
// `gstack` invocations through the same CLI code (bin/cli.ts) a normal process runs.
import { runWorker } from '../driver/warm/worker.js';
import type { CliIo } from './cli-io.js';

runWorker({
  preload: async () => {
    await Promise.all([
      import('./cli.js'),
      import('../render/cli.js'),
      import('../render/render.js'),
      import('../render/run-render.js'),
      import('../render/chromium-render.js'),
      import('../render/make-pdf.js'),
      import('../render/diagram.js'),
      import('../cookbook/index.js'),
    ]);
  },
  serve: async (argv, io) => {
    const { runCli } = await import('./cli.js');
    const cliIo: CliIo = { ...io, argv, exitCode: 0, inWorker: true };
    return runCli(cliIo);
  },
}).catch(() => process.exit(1));
