// Where one call runs (docs/ARCHITECTURE.md, "One call"): its session key, its profile, its
// engine and the host that runs it, decided once from the call's flags, environment and
// directory.
//
// Owns the one rule. The client decides with it whether to hand the call to a session host
// (driver/hosts/route.ts) and sends the result along; the host runs the call on it as it is, and
// runScript (driver/runner/run-script.ts) uses it, or decides with it when a library caller gave none. So the
// two sides cannot disagree about a call. Never launches or probes anything: an engine that
// needs Aside's probe says 'probe' and runScript probes. Built-ins only (the client loads it).
import { givenProfileDir, profileProblem, resolveSessionKey, sessionPaths, type SessionKey } from '../sessions/key.js';
import { decideEngine, type EngineDecision } from '../engines/select.js';
import { probeWithoutSpawning } from '../engines/aside-probe.js';
import type { EngineChoice } from '../catalog.gen.js';
import type { HostTarget } from './address.js';

/** The flags that decide where a call runs (every script-running command shares them). */
export interface TargetFlags {
  engine: EngineChoice;
  session?: string;
  profile?: string;
  ephemeral: boolean;
  connect?: string;
  cdp?: string;
}

export interface CallTarget {
  key: SessionKey;
  /** The call's Chromium profile: `--profile DIR` or the session's own. null: a remote browser
   * (`--connect`/`--cdp`, whose state is a file under the session dir) or `--ephemeral` (a
   * throwaway profile made when the call starts). */
  profileDir: string | null;
  remote: boolean;
  ephemeral: boolean;
  /** The engine rule's decision (engines/select.ts), or 'probe' when only Aside's readiness
   * probe can decide. */
  engine: EngineDecision | 'probe';
  /** The session host that runs the call; absent: the calling process runs it. */
  host?: Extract<HostTarget, { kind: 'session' }>;
}

/** `GSTACK_NO_HOST=1` (or the older `GSTACK_NO_WARM=1`): every call runs in its own process. */
export function hostsDisabled(env: NodeJS.ProcessEnv): boolean {
  const on = (v: string | undefined) => v !== undefined && v !== '' && v !== '0' && v.toLowerCase() !== 'false';
  return on(env.GSTACK_NO_HOST) || on(env.GSTACK_NO_WARM);
}

/**
 * The target of a call. A call goes to its session's host when it runs on the local Chromium
 * profile and the engine is Chromium without asking Aside (`--engine chromium`, or auto with
 * GSTACK_SKIP_ASIDE or no `aside` command): a call that may go to the user's Aside browser runs
 * in the calling process, where `aside repl` is the whole cost. `--ephemeral`, `--connect` and
 * `--cdp` never use a host, nor does anything with hosts disabled (`hosts: false`, or
 * GSTACK_NO_HOST).
 */
export function resolveCallTarget(flags: TargetFlags, env: NodeJS.ProcessEnv, cwd: string, opts: { hosts: boolean }): CallTarget {
  const key = resolveSessionKey({ session: flags.session, cwd, env });
  const remote = !!(flags.connect || flags.cdp);
  const ephemeral = !remote && flags.ephemeral;
  const profileDir = remote || ephemeral ? null : flags.profile ? givenProfileDir(cwd, flags.profile) : sessionPaths(key.slug, env).profileDir;
  // A remote browser is Chromium by definition (runScript refuses `--engine aside` with one).
  const engine: CallTarget['engine'] = remote
    ? { engine: 'chromium', why: 'a remote browser (--connect/--cdp) is Chromium' }
    : decideEngine(flags.engine, env, probeWithoutSpawning(env));
  const target: CallTarget = { key, profileDir, remote, ephemeral, engine };
  // A --profile that cannot be one runs in this process, which says why (exit 2), rather than
  // starting a host that cannot launch its browser.
  const usable = !flags.profile || profileDir === null || profileProblem(profileDir, env) === undefined;
  if (opts.hosts && usable && !hostsDisabled(env) && profileDir !== null && engine !== 'probe' && engine.engine === 'chromium') {
    target.host = { kind: 'session', profileDir };
  }
  return target;
}
