// Engine selection: the user's own Aside browser first, our Chromium profile everywhere else.
// The rule is written once, in decideEngine; every command that picks an engine uses it
// (a call through selectEngine, the client's routing to a host, `gstack probe`, renders).
// Selection never launches a browser; it only decides.
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { GstackError } from '../errors.js';
import type { EngineName } from './types.js';
import { probeAside, type ProbeResult } from './aside-probe.js';

export type { EngineChoice } from '../catalog.gen.js';
import type { EngineChoice } from '../catalog.gen.js';

export interface EngineSelection {
  engine: EngineName;
  /** The Aside probe, when one ran. */
  probe?: ProbeResult;
  /** The one stderr line to print when auto fell back to chromium. */
  fallbackNote?: string;
}

/** `--engine aside` asked for an Aside that is not usable: exit 3 (no engine). */
export class AsideUnavailableError extends GstackError {
  constructor(readonly probe: ProbeResult) {
    super(
      `--engine aside: Aside is not usable (${probe.outcome}: ${probe.reason}). ` +
        (probe.outcome === 'NEEDS_ASIDE'
          ? 'Install the Aside app (macOS 15+) so that `aside` is on PATH, or run with --engine chromium (or auto).'
          : 'Open the Aside app and check with `gstack probe`, or run with --engine chromium (or auto).'),
      'NO_ENGINE',
    );
  }
}

export function skipAside(env: NodeJS.ProcessEnv): boolean {
  const v = env.GSTACK_SKIP_ASIDE;
  return v !== undefined && v !== '' && v !== '0' && v.toLowerCase() !== 'false';
}

export function fallbackLine(probe: ProbeResult): string {
  return `gstack: Aside not used (${probe.outcome}: ${probe.reason}); running on chromium.`;
}

/**
 * The fallback note a call prints on stderr, if any. An Aside that is installed but not ready
 * is worth saying every call (the user can open it); no `aside` command at all (NEEDS_ASIDE: any
 * Linux box, a Mac without the app) is said once per GSTACK_HOME, then only by `gstack probe`:
 * agents read stderr, and the same line on every call is noise they must learn to skip.
 */
export function fallbackNoteToPrint(sel: EngineSelection, home: string): string | undefined {
  if (!sel.fallbackNote) return undefined;
  if (sel.probe?.outcome !== 'NEEDS_ASIDE') return sel.fallbackNote;
  try {
    mkdirSync(home, { recursive: true, mode: 0o700 });
    // 'wx': created by this call, or it was said before.
    closeSync(openSync(join(home, NEEDS_ASIDE_NOTED), 'wx', 0o600));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return undefined;
  }
  return `${sel.fallbackNote} (Said once; \`gstack probe\` says it again.)`;
}

/** Marks, under GSTACK_HOME, that the NEEDS_ASIDE note was printed. */
export const NEEDS_ASIDE_NOTED = '.needs-aside-noted';

/** What the rule decides, and why in one line (`gstack probe` prints it). `engine: null`:
 * `--engine aside` without a usable Aside. */
export type EngineDecision = (EngineSelection & { why: string }) | { engine: null; probe: ProbeResult; why: string };

/**
 * The engine rule. Without a probe result it decides what needs none (`--engine chromium`;
 * auto with GSTACK_SKIP_ASIDE) and says 'probe' otherwise; with one it always decides.
 * `--engine aside` beats GSTACK_SKIP_ASIDE: the user asked for it.
 */
export function decideEngine(choice: EngineChoice, env: NodeJS.ProcessEnv, probe?: ProbeResult): EngineDecision | 'probe' {
  if (choice === 'chromium') return { engine: 'chromium', why: '--engine chromium (a call never probes Aside)' };
  if (choice === 'auto' && skipAside(env)) return { engine: 'chromium', why: 'auto: GSTACK_SKIP_ASIDE is set, so a call skips the Aside probe' };
  if (!probe) return 'probe';
  const ready = probe.outcome === 'READY: aside';
  if (choice === 'aside') {
    return ready
      ? { engine: 'aside', probe, why: '--engine aside, and Aside answered' }
      : { engine: null, probe, why: `--engine aside, but Aside is not usable (${probe.outcome})` };
  }
  return ready
    ? { engine: 'aside', probe, why: 'auto: Aside answered the readiness probe' }
    : { engine: 'chromium', probe, fallbackNote: fallbackLine(probe), why: `auto: Aside not usable (${probe.outcome})` };
}

/** The engine of a call: decideEngine, probing Aside when the rule needs it. Throws
 * AsideUnavailableError (exit NO_ENGINE) for `--engine aside` without a usable Aside. */
export async function selectEngine(opts: {
  engine: EngineChoice;
  env?: NodeJS.ProcessEnv;
  /** Probe deadline override (default: 30 s or GSTACK_ASIDE_PROBE_TIMEOUT_MS). */
  probeTimeoutMs?: number;
}): Promise<EngineSelection> {
  const env = opts.env ?? process.env;
  let decision = decideEngine(opts.engine, env);
  // Without an `aside` command the probe's answer is known without spawning anything.
  if (decision === 'probe') decision = decideEngine(opts.engine, env, await probeAside({ env, timeoutMs: opts.probeTimeoutMs })) as EngineDecision;
  if (decision.engine === null) throw new AsideUnavailableError(decision.probe);
  const { why: _why, ...selection } = decision;
  return selection;
}
