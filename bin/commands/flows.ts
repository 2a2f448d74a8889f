// `gstack flows save|run|list|show|check`: saved flows (docs/ARCHITECTURE.md, "Saved flows").
// Flags and positionals come from the catalog; the implementation (driver/flows/command.ts)
// loads only when the command runs, and runs scripts through the same path as `gstack run`.
import type { Argv } from 'yargs';
import { commandSpec, type Catalog } from '../../driver/catalog.js';
import type { CliIo } from '../cli-io.js';
import { applyFlags } from '../cli-flags.js';
import { readScriptSource, runFlowScript } from '../run-support.js';
import { readFlowsFlags, readSharedFlags } from '../../driver/catalog.gen.js';
import type { FlowsArgs } from '../../driver/flows/command.js';

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
      b = applyFlags(applyFlags(b, spec.flags), catalog.sharedFlags ?? []);
      for (const ex of spec.examples ?? []) b = b.example(ex, '');
      return b;
    },
    async (argv) => {
      const { runFlowsCommand } = await import('../../driver/flows/command.js');
      const { asList } = await import('../../driver/flows/params.js');
      const f = readFlowsFlags(argv);
      const act = argv[action.name] as unknown as FlowsArgs['action'];
      // yargs turns a lone `-` positional into "": that is the stdin form (`flows save NAME -`).
      const args = ((argv[rest.name] as unknown[] | undefined) ?? []).map((a) => (a === '' && io.argv.includes('-') ? '-' : String(a)));
      const source = act === 'save' && args.length ? await readScriptSource(args[1], f.file, io) : undefined;
      io.exitCode = await runFlowsCommand(
        {
          action: act,
          args,
          source,
          describe: f.describe,
          // Repeated flags give arrays (the catalog's type names one value).
          param: asList(argv.param),
          required: asList(argv.required),
          global: f.global,
          force: f.force,
          json: readSharedFlags(argv).json,
        },
        { out: (l) => io.out(l.endsWith('\n') ? l : l + '\n'), err: (l) => io.err(l + '\n'), cwd: io.cwd, env: io.env },
        (script, params, print) => runFlowScript(script, argv, io, { params, print }),
      );
    },
  );
}
