// A consistent in-memory copy of an SQLite database that another process (a running browser)
// may be writing, read with sql.js. This file owns the copy and opening it; what the database
// holds is the caller's business (browser-cookies.ts).
//
// The copy lives in memory only (cookie values are secrets: no copy on disk). sql.js opens a
// byte image and cannot see the database's side files, so:
// - rollback journal (Chromium's default, TRUNCATE mode): a "hot" journal (non-empty, valid
//   magic) means a write is in progress and the main file may be half-written: wait and read
//   again; the main file must not change while it is read (size and mtime before = after);
// - write-ahead log: committed frames of the -wal file (salts and checksums valid, as SQLite's
//   own recovery checks them) are applied to the image, which is then marked as a rollback
//   database, so the copy holds every committed write the browser made.
import { readFile, stat, open } from 'node:fs/promises';

export type SnapshotFailure = 'unreadable' | 'busy' | 'not-sqlite';

export class SnapshotError extends Error {
  constructor(
    readonly kind: SnapshotFailure,
    message: string,
    /** The errno code of a failed read (EACCES, EBUSY, ENOENT...). */
    readonly errno?: string,
  ) {
    super(message);
  }
}

const SQLITE_MAGIC = Buffer.from('SQLite format 3\0', 'latin1');
const JOURNAL_MAGIC = Buffer.from([0xd9, 0xd5, 0x05, 0xf9, 0x20, 0xa1, 0x63, 0xd7]);

async function journalIsHot(file: string): Promise<boolean> {
  let fh;
  try {
    fh = await open(`${file}-journal`, 'r');
  } catch {
    return false;
  }
  try {
    const head = Buffer.alloc(8);
    const { bytesRead } = await fh.read(head, 0, 8, 0);
    return bytesRead === 8 && head.equals(JOURNAL_MAGIC);
  } finally {
    await fh.close();
  }
}

async function readOptional(file: string): Promise<Buffer | undefined> {
  try {
    return await readFile(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

async function fingerprint(file: string): Promise<string> {
  const parts = [];
  for (const f of [file, `${file}-wal`]) {
    const st = await stat(f).catch(() => undefined);
    parts.push(st ? `${st.size}:${st.mtimeMs}` : '-');
  }
  return parts.join('|');
}

/**
 * Reads `file` (and its -wal) into one consistent database image. Retries while a write is in
 * progress; throws SnapshotError: 'unreadable' (the OS refused: errno set), 'busy' (a write
 * was in progress on every try), 'not-sqlite'.
 */
export async function snapshotSqlite(file: string, opts: { attempts?: number; delayMs?: number } = {}): Promise<Uint8Array> {
  const attempts = opts.attempts ?? 12;
  const delayMs = opts.delayMs ?? 100;
  for (let i = 0; i < attempts; i++) {
    if (i > 0) await new Promise((r) => setTimeout(r, delayMs));
    let main: Buffer;
    let wal: Buffer | undefined;
    try {
      if (await journalIsHot(file)) continue;
      const before = await fingerprint(file);
      main = await readFile(file);
      wal = await readOptional(`${file}-wal`);
      if ((await fingerprint(file)) !== before || (await journalIsHot(file))) continue;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? 'EIO';
      throw new SnapshotError('unreadable', `cannot read ${file} (${code})`, code);
    }
    if (main.length < 100 || !main.subarray(0, 16).equals(SQLITE_MAGIC)) throw new SnapshotError('not-sqlite', `${file} is not an SQLite database`);
    const image = wal && wal.length > 32 ? applyWal(main, wal) : Buffer.from(main);
    // Bytes 18-19: file format write/read version, 2 = WAL. The image has no side files, so it
    // is opened as a rollback-journal database.
    if (image[18] === 2) image[18] = 1;
    if (image[19] === 2) image[19] = 1;
    return image;
  }
  throw new SnapshotError('busy', `${file} was being written on every read`);
}

/** SQLite's WAL checksum over `data` (a multiple of 8 bytes), continuing from `s`. */
function walChecksum(data: Buffer, bigEndian: boolean, s: [number, number]): [number, number] {
  let [s0, s1] = s;
  for (let i = 0; i < data.length; i += 8) {
    const x0 = bigEndian ? data.readUInt32BE(i) : data.readUInt32LE(i);
    const x1 = bigEndian ? data.readUInt32BE(i + 4) : data.readUInt32LE(i + 4);
    s0 = (s0 + x0 + s1) >>> 0;
    s1 = (s1 + x1 + s0) >>> 0;
  }
  return [s0, s1];
}

/**
 * The database image with every committed transaction of the WAL applied, the way SQLite's
 * recovery reads a WAL: frames count while their salts match the header and their checksum
 * chain holds; a transaction counts once its commit frame (non-zero database size) is valid.
 */
export function applyWal(main: Buffer, wal: Buffer): Buffer {
  const magic = wal.readUInt32BE(0);
  if (magic !== 0x377f0682 && magic !== 0x377f0683) return Buffer.from(main);
  const bigEndian = (magic & 1) === 1;
  const pageSize = wal.readUInt32BE(8);
  if (pageSize < 512 || pageSize > 65536 || (pageSize & (pageSize - 1)) !== 0) return Buffer.from(main);
  const salt1 = wal.readUInt32BE(16);
  const salt2 = wal.readUInt32BE(20);
  let sum = walChecksum(wal.subarray(0, 24), bigEndian, [0, 0]);
  if (sum[0] !== wal.readUInt32BE(24) || sum[1] !== wal.readUInt32BE(28)) return Buffer.from(main);

  let image = Buffer.from(main);
  const pending = new Map<number, Buffer>();
  const frameSize = 24 + pageSize;
  for (let off = 32; off + frameSize <= wal.length; off += frameSize) {
    const header = wal.subarray(off, off + 24);
    const page = wal.subarray(off + 24, off + frameSize);
    if (header.readUInt32BE(8) !== salt1 || header.readUInt32BE(12) !== salt2) break;
    sum = walChecksum(page, bigEndian, walChecksum(header.subarray(0, 8), bigEndian, sum));
    if (sum[0] !== header.readUInt32BE(16) || sum[1] !== header.readUInt32BE(20)) break;
    pending.set(header.readUInt32BE(0), page);
    const dbPages = header.readUInt32BE(4);
    if (dbPages === 0) continue;
    const next = Buffer.alloc(dbPages * pageSize);
    image.copy(next, 0, 0, Math.min(image.length, next.length));
    for (const [pgno, data] of pending) if (pgno <= dbPages) data.copy(next, (pgno - 1) * pageSize);
    image = next;
    pending.clear();
  }
  return image;
}

type SqlJs = Awaited<ReturnType<typeof import('sql.js').default>>;
let sqlJs: Promise<SqlJs> | undefined;

/** sql.js (SQLite compiled to WebAssembly), loaded once and only when a database is read. */
export function loadSqlJs(): Promise<SqlJs> {
  sqlJs ??= import('sql.js').then((m) => m.default());
  return sqlJs;
}
