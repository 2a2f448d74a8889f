// `gstack run '<script>' | -f FILE | -`: one flow script per call (DESIGN section 3).
import type { Argv } from 'yargs';
import type { Catalog } from '../../driver/catalog.js';
import { applyFlags } from '../cli-flags.js';
import { readScriptSource, runFlagsToOptions, exitAfterFlush } from '../run-support.js';

export function register(y: Argv<any>, catalog: Catalog): Argv<any> {
  const spec = catalog.commands.find((c) => c.name === 'run')!;
  return y.command(
    'run [script]',
    spec.description,
    (b) => applyFlags(applyFlags(b.positional('script', { type: 'string', describe: spec.positionals?.[0]?.description }), spec.flags), catalog.sharedFlags ?? []),
    async (argv) => {
      // yargs turns a lone `-` positional into "" (or true): that is the stdin form.
      const loneDash = process.argv.slice(2).includes('-') && ((argv.script as unknown) === '' || (argv.script as unknown) === true);
      const script = loneDash ? '-' : (argv.script as string | undefined);
      const source = await readScriptSource(script, argv.file as string | undefined);
      const { runScript } = await import('../../driver/run.js');
      const controller = new AbortController();
      const stop = () => controller.abort();
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      const json = !!argv.json;
      const result = await runScript(source, {
        ...runFlagsToOptions(argv),
        signal: controller.signal,
        onLine: json ? undefined : (line) => process.stdout.write(line + '\n'),
        onNotice: (line) => process.stderr.write(line + '\n'),
      });
      if (json) process.stdout.write(JSON.stringify(result) + '\n');
      exitAfterFlush(result.exitCode);
    },
  );
}
