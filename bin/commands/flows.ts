// `gstack flows save|run|list|show|check`: saved flows (docs/ARCHITECTURE.md, "Saved flows").
// Flags and positionals come from the catalog; the implementation (driver/cli/flows.ts)
// loads only when the command runs, and runs scripts through the same path as `gstack run`.
import type { Argv } from 'yargs';
import { commandSpec, type Catalog } from '../../driver/catalog.js';
import type { CliIo } from '../../driver/cli/process-io.js';
import { applyFlags, UsageError } from './flags.js';
import { readScriptSource, runFlowScript } from '../../driver/cli/flow-call.js';
import { readFlowsFlags, readFlowsPositionals } from '../../driver/catalog.gen.js';

export function register(y: Argv<any>, catalog: Catalog, io: CliIo): Argv<any> {
  const spec = commandSpec('flows', catalog);
  const [action, rest] = spec.positionals ?? [];
  return y.command(
    `${spec.name} <${action.name}> [${rest.name}..]`,
    spec.description,
    (c) => {
      let b = c
        .positional(action.name, { describe: action.description, choices: action.choices, type: 'string' })
        .positional(rest.name, { describe: rest.description, type: 'string', array: true });
      b = applyFlags(b, spec.flags);
      for (const ex of spec.examples ?? []) b = b.example(ex, '');
      return b;
    },
    async (argv) => {
      const { runFlowsCommand } = await import('../../driver/cli/flows.js');
      const f = readFlowsFlags(argv);
      const { action: act, args } = readFlowsPositionals(argv);
      // yargs drops a lone `-` from a variadic positional: that is the stdin form (`flows save NAME -`).
      if (act === 'save' && args.length === 1 && io.argv.includes('-')) args.push('-');
      let source: string | undefined;
      if (act === 'save' && args.length) {
        if (args[1] === undefined && f.file === undefined) {
          throw new UsageError(`No script given. Usage: gstack flows save ${args[0]} -f flow.js | gstack flows save ${args[0]} '<script>' | echo '<script>' | gstack flows save ${args[0]} -`);
        }
        source = await readScriptSource(args[1], f.file, io, f.timeout);
      }
      io.exitCode = await runFlowsCommand(
        {
          action: act,
          args,
          source,
          describe: f.describe,
          param: f.param,
          required: f.required,
          global: f.global,
          force: f.force,
          json: f.json,
        },
        { out: (l) => io.out(l.endsWith('\n') ? l : l + '\n'), err: (l) => io.err(l + '\n'), cwd: io.cwd, env: io.env },
        (script, params, print) => runFlowScript(script, argv, io, { params, print }),
      );
    },
  );
}
