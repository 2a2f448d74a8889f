// The body of `gstack probe`, loaded only when that command runs.
import { probeAside, type ProbeResult } from '../../driver/engines/aside-probe.js';
import { skipAside } from '../../driver/engines/select.js';
import { findChromium, type ChromiumFound } from '../../driver/chromium-find.js';
import type { CliIo } from '../cli-io.js';

interface ProbeReport {
  ok: boolean;
  exitCode: 0 | 3;
  probe: ProbeResult;
  /** The engine a `gstack run` with the same --engine and environment would use, if any. */
  engine: 'aside' | 'chromium' | null;
  why: string;
  chromium: ChromiumFound | null;
  chromiumError?: string;
}

async function probeReport(engineFlag: 'auto' | 'aside' | 'chromium', env = process.env): Promise<ProbeReport> {
  const [probe, chromiumOrError] = await Promise.all([
    probeAside({ env }),
    Promise.resolve().then(() => {
      try {
        return findChromium(env);
      } catch (e) {
        return e as Error;
      }
    }),
  ]);
  const chromium = chromiumOrError instanceof Error ? null : chromiumOrError;
  const chromiumError = chromiumOrError instanceof Error ? chromiumOrError.message : undefined;
  const asideReady = probe.outcome === 'READY: aside';

  let engine: ProbeReport['engine'];
  let why: string;
  if (engineFlag === 'aside') {
    engine = asideReady ? 'aside' : null;
    why = asideReady ? '--engine aside, and Aside answered' : `--engine aside, but Aside is not usable (${probe.outcome}); a call would exit 3`;
  } else if (engineFlag === 'auto' && asideReady && !skipAside(env)) {
    engine = 'aside';
    why = 'auto: Aside answered the readiness probe';
  } else {
    engine = chromium ? 'chromium' : null;
    const cause =
      engineFlag === 'chromium'
        ? '--engine chromium (a call never probes Aside)'
        : skipAside(env)
          ? 'auto: GSTACK_SKIP_ASIDE is set, so a call skips the Aside probe'
          : `auto: Aside not usable (${probe.outcome})`;
    why = chromium ? cause : `${cause}, and no Chromium was found; a call would exit 3`;
  }
  const ok = engine !== null;
  return { ok, exitCode: ok ? 0 : 3, probe, engine, why, chromium, chromiumError };
}

export async function runProbeCommand(args: { engine?: 'auto' | 'aside' | 'chromium'; json?: boolean }, io: Pick<CliIo, 'out' | 'env'>): Promise<number> {
  const report = await probeReport(args.engine ?? 'auto', io.env);
  if (args.json) {
    io.out(JSON.stringify(report) + '\n');
    return report.exitCode;
  }
  const out = [
    `PROBE=${report.probe.outcome}`,
    `PROBE_REASON=${report.probe.reason}`,
    `ENGINE=${report.engine ?? 'none'}`,
    `ENGINE_REASON=${report.why}`,
    report.chromium ? `CHROMIUM=${report.chromium.path} (${report.chromium.source}, ${report.chromium.kind})` : `CHROMIUM=none (${report.chromiumError ?? 'not found'})`,
  ];
  io.out(out.join('\n') + '\n');
  return report.exitCode;
}
