// `<sessionDir>/session.json`: which key a slug belongs to and when it was last used. Slugs are
// one-way (tail + hash), so this file is how `gstack sessions list` shows the real key.
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SessionPaths } from './key.js';
import { makePrivateDir, PRIVATE_FILE_MODE } from './owner-only.js';

export interface SessionRecord {
  key: string;
  /** ISO time of the last call that used this session. */
  lastUsed: string;
  profileDir: string;
  /** The engine of the last call: local profile, or a remote browser with a storageState file. */
  kind?: 'local' | 'remote';
}

function sessionRecordPath(paths: Pick<SessionPaths, 'sessionDir'>): string {
  return join(paths.sessionDir, 'session.json');
}

export async function readSessionRecord(paths: Pick<SessionPaths, 'sessionDir'>): Promise<SessionRecord | undefined> {
  try {
    const data = JSON.parse(await readFile(sessionRecordPath(paths), 'utf8')) as SessionRecord;
    return typeof data.key === 'string' ? data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Records `key` and now as the session's last use. Written via a temp file + rename so a
 * concurrent `sessions list` never reads half a file. Every call passes here before its
 * browser starts, so it also keeps the session's directories owner-only (driver/sessions/
 * owner-only.ts), from GSTACK_HOME down. Never throws: bookkeeping must not fail a call.
 */
export async function touchSession(
  paths: Pick<SessionPaths, 'sessionDir' | 'profileDir'> & Partial<Pick<SessionPaths, 'home' | 'artifactsDir'>>,
  key: string | { key: string },
  kind?: SessionRecord['kind'],
): Promise<void> {
  try {
    const record: SessionRecord = {
      key: typeof key === 'string' ? key : key.key,
      lastUsed: new Date().toISOString(),
      profileDir: paths.profileDir,
    };
    const prev = kind ? undefined : await readSessionRecord(paths);
    const k = kind ?? prev?.kind;
    if (k) record.kind = k;
    await makePrivateDir(paths.sessionDir, { top: paths.home });
    for (const d of [paths.profileDir, paths.artifactsDir]) if (d) await makePrivateDir(d, { top: paths.home, create: false });
    const file = sessionRecordPath(paths);
    const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
    await writeFile(tmp, JSON.stringify(record, null, 2) + '\n', { mode: PRIVATE_FILE_MODE });
    await rename(tmp, file);
  } catch {
    /* best effort */
  }
}
