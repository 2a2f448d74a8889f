// `gstack run '<script>' | -f FILE | -`: one flow script per call (docs/ARCHITECTURE.md, "One call").
// The yargs reading of the command line; the call itself is driver/cli/call.ts's.
import type { Argv } from 'yargs';
import { commandSpec, type Catalog } from '../../driver/catalog.js';
import type { CliIo } from '../../driver/cli/process-io.js';
import { applyFlags } from './flags.js';
import { dispatchCall } from '../../driver/cli/call.js';
import { readRunFlags, readRunPositionals } from '../../driver/catalog.gen.js';

export function register(y: Argv<any>, catalog: Catalog, io: CliIo): Argv<any> {
  const spec = commandSpec('run', catalog);
  return y.command(
    'run [script]',
    spec.description,
    (b) => applyFlags(b.positional('script', { type: 'string', describe: spec.positionals?.[0]?.description }), spec.flags),
    async (argv) => {
      // yargs turns a lone `-` positional into "": that is the stdin form.
      const { script: given } = readRunPositionals(argv);
      const script = io.argv.includes('-') && given === '' ? '-' : given;
      // The body is driver/cli/call.ts's, the same a session host runs.
      await (io.dispatch ?? dispatchCall)({ command: 'run', script, flags: readRunFlags(argv) }, io);
    },
  );
}
