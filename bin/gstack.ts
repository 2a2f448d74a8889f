#!/usr/bin/env node
// The `gstack` CLI: a thin yargs layer. Each subcommand lives in bin/commands/<name>.ts and
// loads its implementation lazily, so a call pays only for what it uses.
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { loadCatalog } from '../driver/catalog.js';
import { COMMANDS } from './commands/index.js';
import { trace } from '../driver/trace.js';

async function main(): Promise<void> {
  trace('cli modules loaded');
  const catalog = loadCatalog();
  trace('catalog loaded + validated');
  let y = yargs(hideBin(process.argv))
    .scriptName('gstack')
    .strict()
    .demandCommand(1, 'Name a command: ' + catalog.commands.map((c) => c.name).join(', '))
    .recommendCommands()
    .help()
    .version(false)
    .wrap(Math.min(100, process.stdout.columns || 100))
    .fail((msg, err) => {
      if (err) throw err;
      process.stderr.write(`[error] ${msg}\nRun \`gstack --help\` (or \`gstack <command> --help\`) for usage.\n`);
      process.exit(2);
    });
  for (const register of COMMANDS) y = register(y, catalog);
  await y.parseAsync();
}

main().catch((err: unknown) => {
  const e = err as { exitCode?: number; message?: string };
  process.stderr.write(`[error] ${e?.message ?? String(err)}\n`);
  process.exit(typeof e?.exitCode === 'number' ? e.exitCode : 1);
});
