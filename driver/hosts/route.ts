// Which host, if any, a `gstack` invocation is handed to (docs/ARCHITECTURE.md, "Hosts").
//
// Owns: the client's quick reading of argv. It is deliberately shallow (the host parses the
// invocation again with the real CLI): it only has to find the session's profile and decide
// whether the call is one a host runs. A misread is harmless: the host checks the profile of
// the fully parsed call against its own and answers `misrouted`, and the call then runs in
// the client's own process. Built-ins only.
import { givenProfileDir, resolveSessionKey, sessionPaths } from '../sessions/key.js';
import { decideEngine } from '../engines/select.js';
import { probeWithoutSpawning } from '../engines/aside-probe.js';
import { ENGINE_CHOICES, type EngineChoice } from '../catalog.gen.js';
import type { HostTarget } from './address.js';

/** `GSTACK_NO_HOST=1` (or the older `GSTACK_NO_WARM=1`): every call runs in its own process. */
export function hostsDisabled(env: NodeJS.ProcessEnv): boolean {
  const on = (v: string | undefined) => v !== undefined && v !== '' && v !== '0' && v.toLowerCase() !== 'false';
  return on(env.GSTACK_NO_HOST) || on(env.GSTACK_NO_WARM);
}

/** The value of `--name V` / `--name=V` (the last one wins, as in yargs). */
export function flagValue(argv: string[], name: string): string | undefined {
  let value: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--') break;
    if (argv[i] === `--${name}`) value = argv[i + 1];
    else if (argv[i].startsWith(`--${name}=`)) value = argv[i].slice(name.length + 3);
  }
  return value;
}

function flagPresent(argv: string[], name: string): boolean {
  for (const a of argv) {
    if (a === '--') return false;
    if (a === `--${name}` || a.startsWith(`--${name}=`)) return true;
  }
  return false;
}

/** Does the engine rule (engines/select.ts) pick our Chromium without probing Aside? A call
 * that may go to the user's Aside browser runs in the client's process: `aside repl` is then
 * the whole cost. */
function surelyChromium(argv: string[], env: NodeJS.ProcessEnv): boolean {
  const engine = flagValue(argv, 'engine') ?? 'auto';
  if (!(ENGINE_CHOICES as readonly string[]).includes(engine)) return false; // the CLI says what is wrong
  const decision = decideEngine(engine as EngineChoice, env, probeWithoutSpawning(env));
  return decision !== 'probe' && decision.engine === 'chromium';
}

const RENDER_COMMANDS = new Set(['render', 'pdf', 'diagram']);
/** `gstack flows` actions that run a script (the others only read files). */
const FLOWS_RUNNING = new Set(['save', 'run', 'check']);

/**
 * The host for this invocation, or undefined to run it in this process:
 * - `run`, `cookbook <shape>` and `flows save|run|check` on the local Chromium profile go to
 *   the session's host;
 * - `render`, `pdf` and `diagram` on Chromium go to the user's render host;
 * - everything else (help, probe, sessions, Aside, --connect/--cdp, --ephemeral, a cookbook
 *   listing or --print, `flows list|show`) runs here.
 */
export function routeInvocation(argv: string[], env: NodeJS.ProcessEnv, cwd: string): HostTarget | undefined {
  if (hostsDisabled(env)) return undefined;
  const command = argv[0] ?? '';
  if (argv.some((a) => a === '--help' || a === '-h' || a === '--version')) return undefined;
  if (RENDER_COMMANDS.has(command)) return surelyChromium(argv, env) ? { kind: 'render' } : undefined;
  if (command !== 'run' && command !== 'cookbook' && command !== 'flows') return undefined;
  if (command === 'cookbook' && (argv[1] === 'list' || flagPresent(argv, 'print'))) return undefined;
  if (command === 'flows' && !FLOWS_RUNNING.has(argv[1] ?? '')) return undefined;
  if (flagPresent(argv, 'ephemeral') || flagPresent(argv, 'connect') || flagPresent(argv, 'cdp')) return undefined;
  if (!surelyChromium(argv, env)) return undefined;
  return { kind: 'session', profileDir: profileDirFor(argv, env, cwd) };
}

/** The profile a call uses: `--profile DIR`, or the session's own (runScript resolves it the
 * same way). */
export function profileDirFor(argv: string[], env: NodeJS.ProcessEnv, cwd: string): string {
  const profile = flagValue(argv, 'profile');
  if (profile) return givenProfileDir(cwd, profile);
  const key = resolveSessionKey({ session: flagValue(argv, 'session'), cwd, env });
  return sessionPaths(key.slug, env).profileDir;
}
