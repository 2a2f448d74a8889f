// The `gstack` CLI proper: a thin yargs layer. Each subcommand lives in bin/commands/<name>.ts
// and loads its implementation lazily, so a call pays only for what it uses. It runs in the
// invoking process or, for browser commands, in a host (driver/hosts/); either way it reads and
// writes only through `io` and returns the exit code.
import yargs, { type Argv } from 'yargs';
import { loadCatalog, resolveCommand } from '../driver/catalog.js';
import { packageVersion } from '../driver/package-version.js';
import { oddNumber, repeatedSwitch } from './commands/flags.js';
import { COMMANDS } from './commands/index.js';
import { trace } from '../driver/trace.js';
import { exitCodeOf, UsageError } from '../driver/errors.js';
import type { CliIo } from '../driver/cli/process-io.js';
import type { Catalog } from '../driver/catalog.js';
import { oneLine, terminalSafe } from '../driver/runtime/output.js';

/**
 * The catalog without its prose, for an invocation that does not ask for help. yargs renders
 * the whole help text before running any command (to have it ready should the command fail),
 * and with the catalog's long descriptions that costs ~20 ms per call; we never print help
 * except for --help, so only then does it get the descriptions.
 */
function withoutProse(catalog: Catalog): Catalog {
  const bare = <T extends { description?: string }>(x: T): T => ({ ...x, description: '' });
  return {
    ...catalog,
    sharedFlags: catalog.sharedFlags?.map(bare),
    commands: catalog.commands.map((c) => ({ ...bare(c), flags: c.flags.map(bare), positionals: c.positionals?.map(bare), examples: [] })),
  };
}

/** `gstack gstack cookbook read --url X`: yargs blames every word it could not place ("Unknown
 * arguments: url, gstack, read"); name the stray words before the command instead, and give
 * the command without them. */
function strayWordHint(argv: string[], catalog: Catalog): string | undefined {
  const names = new Set(catalog.commands.map((c) => c.name));
  const at = argv.findIndex((a) => names.has(a));
  const before = argv.slice(0, Math.max(at, 0));
  if (at <= 0 || before.some((a) => a.startsWith('-'))) return undefined;
  const quote = (a: string) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, "'\\''")}'`);
  const words = before.map((w) => `"${w}"`).join(', ');
  return `${words} ${before.length === 1 ? 'is not a command' : 'are not commands'}; the command comes first. Did you mean: gstack ${argv.slice(at).map(quote).join(' ')}`;
}

/**
 * yargs renders the command's whole help text right after starting its handler, to have it
 * ready should the command fail; our fail handler prints its own message instead, so that text
 * (~10 ms of string measuring per call, spent before an async handler such as `run` goes on)
 * is never used. Only `--help` renders help. (yargs' usage instance is internal API; the
 * version is pinned by the lock file and bundled into dist/bin/cli.js.)
 */
function skipHelpCache(y: Argv<any>): void {
  const usage = (y as unknown as { getInternalMethods?: () => { getUsageInstance(): { cacheHelpMessage?: () => void } } }).getInternalMethods?.().getUsageInstance();
  if (usage && typeof usage.cacheHelpMessage === 'function') usage.cacheHelpMessage = () => undefined;
}

/** The catalog without its prose, for an invocation that does not ask for help. */
const bareCatalogs = new WeakMap<Catalog, Catalog>();

/** `gstack flows save -f f.js -- NAME`, `gstack run -- 'script'`: words after `--` are
 * positionals (POSIX). yargs would put them aside, and the command would say its name or script
 * is missing (pass 42, C42); when none of them reads as a flag, the `--` is dropped and they
 * take their places. One that starts with `-` keeps the `--` (yargs then says what is wrong). */
function positionalsAfterDashes(argv: string[]): string[] {
  const at = argv.indexOf('--');
  if (at < 0 || argv.slice(at + 1).some((w) => w.startsWith('-') && w !== '-')) return argv;
  return [...argv.slice(0, at), ...argv.slice(at + 1)];
}

export async function runCli(rawIo: CliIo): Promise<number> {
  // Every line of every command, stdout and stderr, passes the one control filter: page text
  // (errors, eval values, titles) reaches them by many paths, and none may drive the terminal.
  const io: CliIo = { ...rawIo, out: (t) => rawIo.out(terminalSafe(t)), err: (t) => rawIo.err(terminalSafe(t)) };
  try {
    trace('cli modules loaded');
    const full = loadCatalog();
    const wantsHelp = io.argv.some((a) => a === '--help' || a === '-h');
    let catalog = full;
    if (!wantsHelp) {
      catalog = bareCatalogs.get(full) ?? withoutProse(full);
      bareCatalogs.set(full, catalog);
    }
    trace('catalog loaded + validated');
    const command = full.commands.find((c) => c.name === io.argv[0]);
    const flags = command ? resolveCommand(command, full).flags : [];
    const twice = repeatedSwitch(io.argv.slice(1), flags) ?? oddNumber(io.argv.slice(1), flags);
    if (twice) throw twice;
    // Set but blank (`export GSTACK_SESSION_KEY=$TASK` with TASK unset), for a command that
    // has a session: it would quietly mean this directory's session, which every agent here shares.
    if (io.env.GSTACK_SESSION_KEY !== undefined && !io.env.GSTACK_SESSION_KEY.trim() && flags.some((f) => f.name === 'session')) {
      throw new UsageError('GSTACK_SESSION_KEY is set but empty (an unset variable?): give it a session key, or unset it to use this directory\'s session.');
    }
    // White space at an end, as `--session " zz"` is refused: it would quietly be another key
    // than the one written (`zz`), or, as a profile path, one Chromium strips (pass 30, C30).
    if (io.env.GSTACK_SESSION_KEY !== undefined && io.env.GSTACK_SESSION_KEY.trim() !== io.env.GSTACK_SESSION_KEY && flags.some((f) => f.name === 'session')) {
      throw new UsageError(`GSTACK_SESSION_KEY ${JSON.stringify(io.env.GSTACK_SESSION_KEY)} has white space at an end: give the key without it.`);
    }
    let y = yargs(positionalsAfterDashes(io.argv))
      .scriptName('gstack')
      .strict()
      .exitProcess(!io.inHost)
      .demandCommand(1, 'Name a command: ' + catalog.commands.map((c) => c.name).join(', '))
      .recommendCommands()
      .help()
      // `gstack --version` (and `-V`), as Playwright's and agent-browser's CLIs answer it.
      .version(packageVersion())
      .alias('version', 'V')
      .wrap(Math.min(100, io.columns || 100))
      .fail((msg, err) => {
        // yargs reports a flag's coerce error (a flag given twice, flags.ts) as its own YError
        // carrying our message: it is a usage error all the same.
        if (err && err.name === 'YError') throw new UsageError(err.message);
        throw err ?? new UsageError(`${strayWordHint(io.argv, catalog) ?? msg}\nRun \`gstack --help\` (or \`gstack <command> --help\`) for usage.`);
      });
    for (const register of COMMANDS) y = register(y, catalog, io);
    if (!wantsHelp) skipHelpCache(y);
    await y.parseAsync();
    return io.exitCode;
  } catch (err) {
    // A usage error's second line is our hint; anything else may be a library's multi-line text.
    const message = err instanceof UsageError ? err.message : oneLine(err instanceof Error ? err.message : String(err));
    io.err(`[error] ${message}\n`);
    return exitCodeOf(err);
  }
}
