// `gstack sessions list|stop|gc|clear|import-cookies`: flags and positionals come from the catalog;
// the implementation (driver/cli/sessions.ts) loads only when the command runs.
import type { Argv } from 'yargs';
import type { Catalog } from '../../driver/catalog.js';
import type { CliIo } from '../../driver/cli/process-io.js';
import { commandSpec } from '../../driver/catalog.js';
import { applyFlags } from '../cli-flags.js';
import { readSessionsFlags, readSessionsPositionals } from '../../driver/catalog.gen.js';

export function register(y: Argv<any>, catalog: Catalog, io: CliIo): Argv<any> {
  const spec = commandSpec('sessions', catalog);
  const [action, target] = spec.positionals ?? [];
  return y.command(
    `${spec.name} <${action.name}> [${target.name}]`,
    spec.description,
    (c) => {
      let b = c
        .positional(action.name, { describe: action.description, choices: action.choices, type: 'string' })
        .positional(target.name, { describe: target.description, type: 'string' });
      b = applyFlags(b, spec.flags);
      for (const ex of spec.examples ?? []) b = b.example(ex, '');
      return b;
    },
    async (argv) => {
      const { runSessionsCommand } = await import('../../driver/cli/sessions.js');
      const code = await runSessionsCommand({
        ...readSessionsFlags(argv),
        ...readSessionsPositionals(argv),
      }, {
        out: (l) => io.out(l + '\n'),
        err: (l) => io.err(l + '\n'),
        env: io.env,
        cwd: io.cwd,
      });
      io.exitCode = code;
    },
  );
}
