// `gstack probe`: which engine a call would use and why, and the Chromium it would launch.
// The Aside probe always runs here (that is what the command is for); the ENGINE line then
// applies the same rules a `gstack run` would (--engine, GSTACK_SKIP_ASIDE).
import { readProbeFlags } from '../../driver/catalog.gen.js';
import type { Argv } from 'yargs';
import type { Catalog } from '../../driver/catalog.js';
import type { CliIo } from '../../driver/cli/process-io.js';
import { commandSpec } from '../../driver/catalog.js';
import { applyFlags } from '../cli-flags.js';

export function register(y: Argv<any>, catalog: Catalog, io: CliIo): Argv<any> {
  const spec = commandSpec('probe', catalog);
  return y.command(
    spec.name,
    spec.description,
    (c) => applyFlags(c, spec.flags),
    async (argv) => {
      const { runProbeCommand } = await import('../../driver/cli/probe.js');
      io.exitCode = await runProbeCommand(readProbeFlags(argv), io);
    },
  );
}
