// Engine selection (DESIGN section 3, step 2): the user's own Aside browser first, our
// Chromium profile everywhere else. Selection never launches a browser; it only decides.
import type { EngineName } from './types.js';
import { probeAside, type ProbeResult } from './aside-probe.js';

export type EngineChoice = 'auto' | EngineName;

export interface EngineSelection {
  engine: EngineName;
  /** The Aside probe, when one ran. */
  probe?: ProbeResult;
  /** The one stderr line to print when auto fell back to chromium. */
  fallbackNote?: string;
}

/** `--engine aside` asked for an Aside that is not usable: exit 3 (no engine). */
export class AsideUnavailableError extends Error {
  readonly exitCode = 3;
  constructor(readonly probe: ProbeResult) {
    super(
      `--engine aside: Aside is not usable (${probe.outcome}: ${probe.reason}). ` +
        (probe.outcome === 'NEEDS_ASIDE'
          ? 'Install the Aside app (macOS 15+) so that `aside` is on PATH, or run with --engine chromium (or auto).'
          : 'Open the Aside app and check with `gstack probe`, or run with --engine chromium (or auto).'),
    );
    this.name = 'AsideUnavailableError';
  }
}

export function skipAside(env: NodeJS.ProcessEnv): boolean {
  const v = env.GSTACK_SKIP_ASIDE;
  return v !== undefined && v !== '' && v !== '0' && v.toLowerCase() !== 'false';
}

export function fallbackLine(probe: ProbeResult): string {
  return `gstack: Aside not used (${probe.outcome}: ${probe.reason}); running on chromium.`;
}

export async function selectEngine(opts: {
  engine: EngineChoice;
  env?: NodeJS.ProcessEnv;
  /** Probe deadline override (default: 30 s or GSTACK_ASIDE_PROBE_TIMEOUT_MS). */
  probeTimeoutMs?: number;
}): Promise<EngineSelection> {
  const env = opts.env ?? process.env;
  if (opts.engine === 'chromium') return { engine: 'chromium' };

  if (opts.engine === 'aside') {
    // An explicit --engine aside beats GSTACK_SKIP_ASIDE: the user asked for it by name.
    const probe = await probeAside({ env, timeoutMs: opts.probeTimeoutMs });
    if (probe.outcome !== 'READY: aside') throw new AsideUnavailableError(probe);
    return { engine: 'aside', probe };
  }

  if (skipAside(env)) return { engine: 'chromium' };
  // Without `aside` on PATH the probe returns after a few stat calls: nothing is spawned.
  const probe = await probeAside({ env, timeoutMs: opts.probeTimeoutMs });
  if (probe.outcome === 'READY: aside') return { engine: 'aside', probe };
  return { engine: 'chromium', probe, fallbackNote: fallbackLine(probe) };
}
