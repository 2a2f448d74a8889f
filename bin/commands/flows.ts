// `gstack flows save|run|list|show|check`: saved flows (docs/ARCHITECTURE.md, "Saved flows").
// Flags and positionals come from the catalog; the implementation (driver/cli/flows.ts)
// loads only when the command runs, and runs scripts through the same path as `gstack run`.
import type { Argv } from 'yargs';
import { commandSpec, type Catalog } from '../../driver/catalog.js';
import type { CliIo } from '../../driver/cli/process-io.js';
import { applyFlags } from './flags.js';
import { dispatchCall } from '../../driver/cli/call.js';
import { FLOWS_RUNNING } from '../../driver/hosts/call.js';
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
      // A `-` that is -f's value (`-f -`) is not a positional (pass 34, C34: it was both).
      const loneDash = io.argv.some((w, i) => w === '-' && !['-f', '--file'].includes(io.argv[i - 1] ?? ''));
      if (act === 'save' && args.length === 1 && loneDash) args.push('-');
      const running = FLOWS_RUNNING.find((x) => x === act);
      if (running) {
        // The body is driver/cli/call.ts's, the same a session host runs.
        await (io.dispatch ?? dispatchCall)({ command: 'flows', action: running, args, flags: f }, io);
        return;
      }
      // list, show: they read files and run nothing.
      io.exitCode = await runFlowsCommand(
        { action: act, args, describe: f.describe, param: f.param, required: f.required, inputs: f.in, global: f.global, force: f.force, json: f.json },
        { out: (l) => io.out(l.endsWith('\n') ? l : l + '\n'), err: (l) => io.err(l + '\n'), cwd: io.cwd, env: io.env },
        () => Promise.reject(new Error(`flows ${act} runs no script`)),
      );
    },
  );
}
