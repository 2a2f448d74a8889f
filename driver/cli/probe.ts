// The body of `gstack probe`, loaded only when that command runs.
import { EXIT, type EngineChoice, type EngineName } from '../catalog.gen.js';
import { probeAside, type ProbeResult } from '../engines/aside-probe.js';
import { decideEngine, type EngineDecision } from '../engines/select.js';
import { findChromium, type ChromiumFound } from '../browser/chromium-find.js';
import type { CliIo } from './process-io.js';
import { resolveSessionKey, sessionPaths, type SessionKey } from '../sessions/key.js';
import { sessionHostPid } from '../hosts/control.js';
import { jsonText } from '../runtime/output.js';

interface ProbeReport {
  ok: boolean;
  exitCode: typeof EXIT.OK | typeof EXIT.NO_ENGINE;
  probe: ProbeResult;
  /** The engine a `gstack run` with the same --engine and environment would use, if any. */
  engine: EngineName | null;
  why: string;
  chromium: ChromiumFound | null;
  chromiumError?: string;
  /** The session a call with the same --session, environment and cwd would use, and its host. */
  session: SessionKey & { profile: string; hostPid: number | null };
}

async function probeReport(engineFlag: EngineChoice, session: string | undefined, env: NodeJS.ProcessEnv, cwd: string): Promise<ProbeReport> {
  const key = resolveSessionKey({ session, env, cwd });
  const profile = sessionPaths(key.slug, env).profileDir;
  const [probe, chromiumOrError, hostPid] = await Promise.all([
    probeAside({ env }),
    Promise.resolve().then(() => {
      try {
        return findChromium(env);
      } catch (e) {
        return e as Error;
      }
    }),
    sessionHostPid(profile),
  ]);
  const chromium = chromiumOrError instanceof Error ? null : chromiumOrError;
  const chromiumError = chromiumOrError instanceof Error ? chromiumOrError.message : undefined;
  // The same rule a call applies (decideEngine), given the probe's outcome.
  const decision = decideEngine(engineFlag, env, probe) as EngineDecision;
  const engine: ProbeReport['engine'] = decision.engine === 'chromium' && !chromium ? null : decision.engine;
  let why = engine === null && decision.engine !== null ? `${decision.why}, and no Chromium was found; a call would exit 3` : decision.engine === null ? `${decision.why}; a call would exit 3` : decision.why;
  // `gstack probe` always asks Aside (that is what it is for); say so where a call would not,
  // so PROBE= and ENGINE_REASON= do not read as a contradiction.
  if (engineFlag === 'auto' && engine === 'chromium' && /GSTACK_SKIP_ASIDE/.test(why)) why += ' (gstack probe asked Aside anyway: PROBE= is its answer)';
  const ok = engine !== null;
  return { ok, exitCode: ok ? EXIT.OK : EXIT.NO_ENGINE, probe, engine, why, chromium, chromiumError, session: { ...key, profile, hostPid: hostPid ?? null } };
}

export async function runProbeCommand(args: { engine?: EngineChoice; json?: boolean; session?: string }, io: Pick<CliIo, 'out' | 'env' | 'cwd'>): Promise<number> {
  const report = await probeReport(args.engine ?? 'auto', args.session, io.env, io.cwd);
  if (args.json) {
    io.out(jsonText(report) + '\n');
    return report.exitCode;
  }
  const out = [
    `PROBE=${report.probe.outcome}`,
    // No Aside at all is the usual case on a server or in CI, not a fault: PROBE=NEEDS_ASIDE
    // read as one to three trial agents (V9, V13, V15).
    `PROBE_REASON=${report.probe.reason}${report.probe.outcome === 'NEEDS_ASIDE' && report.engine === 'chromium' ? ' (Aside is optional: calls run on Chromium, ENGINE= below)' : ''}`,
    `ENGINE=${report.engine ?? 'none'}`,
    `ENGINE_REASON=${report.why}`,
    report.chromium ? `CHROMIUM=${report.chromium.path} (${report.chromium.source}, ${report.chromium.kind})` : `CHROMIUM=none (${report.chromiumError ?? 'not found'})`,
    `SESSION=${report.session.slug} key=${JSON.stringify(report.session.key)} source=${report.session.source} profile=${report.session.profile} host=${report.session.hostPid ? `pid:${report.session.hostPid}` : 'no'}`,
  ];
  io.out(out.join('\n') + '\n');
  return report.exitCode;
}
