// `gstack login URL`: the user signs in to a site in the session's profile, in a visible
// Chromium window (driver/cli/login.ts). Flags come from the catalog; the implementation
// loads only when the command runs. It always runs in the invoking process (never the warm
// worker): it needs the user's display and terminal, so Enter is read from this process's stdin.
import type { Argv } from 'yargs';
import type { Catalog } from '../../driver/catalog.js';
import type { CliIo } from '../../driver/cli/process-io.js';
import { commandSpec } from '../../driver/catalog.js';
import { applyFlags } from '../cli-flags.js';
import { readLoginFlags, readLoginPositionals } from '../../driver/catalog.gen.js';

export function register(y: Argv<any>, catalog: Catalog, io: CliIo): Argv<any> {
  const spec = commandSpec('login', catalog);
  const [url] = spec.positionals ?? [];
  return y.command(
    `${spec.name} <${url.name}>`,
    spec.description,
    (c) => {
      let b = applyFlags(c.positional(url.name, { describe: url.description, type: 'string' }), spec.flags);
      for (const ex of spec.examples ?? []) b = b.example(ex, '');
      return b;
    },
    async (argv) => {
      const { runLogin } = await import('../../driver/cli/login.js');
      const stdin = io.inHost ? undefined : process.stdin;
      try {
        io.exitCode = await runLogin({ ...readLoginFlags(argv), ...readLoginPositionals(argv) }, {
          out: (l) => io.out(l + '\n'),
          err: (l) => io.err(l + '\n'),
          env: io.env,
          cwd: io.cwd,
          signal: io.signal,
          stdin,
        });
      } finally {
        // Reading the terminal keeps the process alive; the command is done with it.
        stdin?.pause();
      }
    },
  );
}
