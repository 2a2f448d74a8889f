// `gstack render <file.html> steps…`: local HTML -> PDF / PNG / eval values (docs/ARCHITECTURE.md, "Rendering").
// Yargs checks the flags (from the catalog) and serves --help; the steps are read again from
// the raw arguments because their order matters and yargs does not keep it.
import type { Argv } from 'yargs';
import type { Catalog } from '../../driver/catalog.js';
import type { CliIo } from '../../driver/cli/process-io.js';
import { commandSpec } from '../../driver/catalog.js';
import { applyFlags } from '../cli-flags.js';

export function register(y: Argv<any>, catalog: Catalog, io: CliIo): Argv<any> {
  const spec = commandSpec('render', catalog);
  return y.command(
    'render <file>',
    spec.description,
    (c) => {
      let out = c.positional('file', { type: 'string', describe: spec.positionals?.[0]?.description });
      out = applyFlags(out, spec.flags);
      for (const ex of spec.examples ?? []) out = out.example(ex, '');
      return out;
    },
    async () => {
      const raw = io.argv;
      const tokens = raw.slice(raw.indexOf('render') + 1);
      const { runRenderCli } = await import('../../render/cli/render-cli.js');
      io.exitCode = await runRenderCli(tokens, catalog, {
        out: (line) => io.out(line + '\n'),
        err: (line) => io.err(line + '\n'),
        env: io.env,
        cwd: io.cwd,
        signal: io.signal,
      });
    },
  );
}
