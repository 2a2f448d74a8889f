// `gstack run '<script>' | -f FILE | -`: one flow script per call (docs/ARCHITECTURE.md, "One call").
import type { Argv } from 'yargs';
import { commandSpec, type Catalog } from '../../driver/catalog.js';
import type { CliIo } from '../../driver/cli/process-io.js';
import { applyFlags } from './flags.js';
import { readScriptSource, runFlowCall } from '../../driver/cli/flow-call.js';
import { readRunFlags, readRunPositionals } from '../../driver/catalog.gen.js';
import { HEADER_START } from '../../driver/flows/header.js';

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
      const flags = readRunFlags(argv);
      const source = await readScriptSource(script, flags.file, io, flags.timeout);
      // `params` (catalog global): --params, checked against a saved flow's schema when the
      // script is one (driver/flows/params.ts, loaded only then).
      let params: Record<string, unknown> | undefined;
      if (flags.params !== undefined || source.startsWith(HEADER_START)) {
        const { paramsForScript } = await import('../../driver/flows/params.js');
        params = paramsForScript(source, flags.params);
      }
      await runFlowCall(source, argv, io, params);
    },
  );
}
