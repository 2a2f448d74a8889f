// The body of `gstack probe`, loaded only when that command runs.
import type { EngineChoice } from '../../driver/catalog.gen.js';
import { probeAside, type ProbeResult } from '../../driver/engines/aside-probe.js';
import { decideEngine, type EngineDecision } from '../../driver/engines/select.js';
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

async function probeReport(engineFlag: EngineChoice, env = process.env): Promise<ProbeReport> {
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
  // The same rule a call applies (decideEngine), given the probe's outcome.
  const decision = decideEngine(engineFlag, env, probe) as EngineDecision;
  const engine: ProbeReport['engine'] = decision.engine === 'chromium' && !chromium ? null : decision.engine;
  const why = engine === null && decision.engine !== null ? `${decision.why}, and no Chromium was found; a call would exit 3` : decision.engine === null ? `${decision.why}; a call would exit 3` : decision.why;
  const ok = engine !== null;
  return { ok, exitCode: ok ? 0 : 3, probe, engine, why, chromium, chromiumError };
}

export async function runProbeCommand(args: { engine?: EngineChoice; json?: boolean }, io: Pick<CliIo, 'out' | 'env'>): Promise<number> {
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
