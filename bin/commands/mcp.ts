// `gstack mcp [--allow-scripts] [--session KEY]`: the MCP server on stdin/stdout (bin/mcp/).
import type { Argv } from 'yargs';
import { commandSpec, type Catalog } from '../../driver/catalog.js';
import type { CliIo } from '../../driver/cli/process-io.js';
import { applyFlags, UsageError } from '../cli-flags.js';
import { readMcpFlags } from '../../driver/catalog.gen.js';

export function register(y: Argv<any>, catalog: Catalog, io: CliIo): Argv<any> {
  const spec = commandSpec('mcp', catalog);
  return y.command(
    spec.name,
    spec.description,
    (b) => applyFlags(b, spec.flags),
    async (argv) => {
      // The protocol needs this process's own stdin and stdout: a host has neither to lend.
      if (io.inHost) throw new UsageError('`gstack mcp` runs only as its own process; start it directly (an MCP client does).');
      const f = readMcpFlags(argv);
      if (f.session !== undefined && !f.session.trim()) throw new UsageError('--session needs a non-empty KEY.');
      const { serveMcp } = await import('../mcp/server.js');
      io.exitCode = await serveMcp({
        allowScripts: f.allowScripts,
        session: f.session,
        env: io.env,
        cwd: io.cwd,
        signal: io.signal,
        log: (line) => io.err(line + '\n'),
      });
    },
  );
}
