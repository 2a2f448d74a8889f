// Housekeeping that runs by itself at the end of a call, at most once a day: idle sessions and
// old per-call artifact dirs would otherwise pile up under GSTACK_HOME forever.
//
// Cheap on the common path (one stat of a timestamp file), and never throws: it must not turn
// a finished call into a failed one. The timestamp is written before the sweep so concurrent
// calls do not all sweep at once.
import { chmod, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gstackHome } from '../sessions/key.js';
import { gcSessions, parseDuration } from './manage.js';
import { makePrivateDir, PRIVATE_FILE_MODE } from '../sessions/owner-only.js';

export const HOUSEKEEPING_STAMP = '.last-housekeeping';
const DAY_MS = 86400e3;
/** Automatic sweeps are gentler than `gc --older-than 7d`: a whole session (its logins) goes
 * after 30 idle days, a call's artifacts after 7. Override with GSTACK_GC_OLDER_THAN. */
const AUTO_SESSION_IDLE = '30d';
const AUTO_ARTIFACT_AGE = '7d';

export interface HousekeepReport {
  ran: boolean;
  removedSessions?: number;
  prunedArtifacts?: number;
}

/** GSTACK_HOUSEKEEPING=0 turns the automatic sweep off. */
export async function maybeHousekeep(opts: { env?: NodeJS.ProcessEnv; now?: number } = {}): Promise<HousekeepReport> {
  try {
    const env = opts.env ?? process.env;
    if (env.GSTACK_HOUSEKEEPING === '0') return { ran: false };
    const home = gstackHome(env);
    // Every call ends here (ephemeral ones too): GSTACK_HOME stays owner-only.
    await makePrivateDir(home, { create: false });
    const stamp = join(home, HOUSEKEEPING_STAMP);
    const now = opts.now ?? Date.now();
    const last = (await stat(stamp).catch(() => undefined))?.mtimeMs;
    if (last !== undefined && now - last < DAY_MS) return { ran: false };
    await makePrivateDir(home);
    await writeFile(stamp, new Date(now).toISOString() + '\n', { mode: PRIVATE_FILE_MODE });
    await chmod(stamp, PRIVATE_FILE_MODE); // an older stamp may be 0644
    const olderThanMs = parseDuration(env.GSTACK_GC_OLDER_THAN || AUTO_SESSION_IDLE);
    const r = await gcSessions({
      home,
      olderThanMs,
      artifactsOlderThanMs: Math.min(olderThanMs, parseDuration(AUTO_ARTIFACT_AGE)),
      now,
    });
    return { ran: true, removedSessions: r.removed.length, prunedArtifacts: r.prunedArtifacts.length };
  } catch {
    return { ran: false };
  }
}
