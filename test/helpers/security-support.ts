// Support for test/security.test.ts: the concurrent attacker of the fs race (a separate process
// that swaps a directory for a symlink in a tight loop), the check that text is safe for a
// terminal, and file-mode listings.
import { spawn } from 'node:child_process';
import { existsSync, lstatSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Starts a process that, until stopped, renames `dir` aside, puts a symlink to `target` in its
 * place, holds it ~holdUs µs, then puts the directory back and holds that as long. 50 µs makes
 * a check-then-use race in the code under attack show up within a second on a loaded 2-core
 * machine (measured: every run of the old `fs` escaped).
 */
export function startSwapper(dir: string, target: string, holdUs = 50): { stop(): Promise<void> } {
  const child = spawn(
    process.execPath,
    [
      '-e',
      `const fs = require('fs'); const [dir, target, holdUs] = process.argv.slice(1);
       const hold = Number(holdUs) * 1000;
       const spin = () => { const t = process.hrtime.bigint(); while (Number(process.hrtime.bigint() - t) < hold); };
       for (;;) {
         try { fs.renameSync(dir, dir + '.parked'); fs.symlinkSync(target, dir); spin(); fs.unlinkSync(dir); fs.renameSync(dir + '.parked', dir); spin(); } catch {}
       }`,
      dir,
      target,
      String(holdUs),
    ],
    { stdio: 'ignore' },
  );
  // Once the swapper is dead, the directory goes back in place whatever state it was killed in.
  // (The code under attack may have made a new `dir` while it was missing: kept aside.)
  const restore = () => {
    if (!existsSync(dir + '.parked')) return;
    const st = lstatSync(dir, { throwIfNoEntry: false });
    if (st?.isDirectory()) renameSync(dir, `${dir}.made-${Date.now()}`);
    else rmSync(dir, { force: true });
    renameSync(dir + '.parked', dir);
  };
  return {
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve(restore());
        child.once('exit', () => resolve(restore()));
        child.kill('SIGKILL');
      }),
  };
}

/** Code points that must never reach a terminal from page text: C0 controls but tab and
 * newline (CR included), DEL, C1 (8-bit CSI/OSC...), bidi overrides and isolates. */
// eslint-disable-next-line no-control-regex
export const TERMINAL_UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

export function unsafeFor(text: string): string | undefined {
  const m = TERMINAL_UNSAFE.exec(text);
  if (!m) return undefined;
  const at = m.index;
  return `U+${m[0].codePointAt(0)!.toString(16).padStart(4, '0').toUpperCase()} at ${at}: ${JSON.stringify(text.slice(Math.max(0, at - 40), at + 40))}`;
}

/** Files under `dir`, recursively. */
export function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (p: string) => {
    for (const e of readdirSync(p, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(p, e.name));
      else out.push(join(p, e.name));
    }
  };
  walk(dir);
  return out;
}

/** Every entry under `dir` (dir included) whose mode is not 0700 (directories) or 0600 (files);
 * symlinks are skipped (their mode means nothing). */
export function looseModes(dir: string): string[] {
  const out: string[] = [];
  const walk = (p: string) => {
    const st = lstatSync(p);
    if (st.isSymbolicLink()) return;
    const mode = st.mode & 0o777;
    const want = st.isDirectory() ? 0o700 : 0o600;
    // Sockets and FIFOs (Chromium's) are not files a reader can copy; only their dir matters.
    if ((st.isDirectory() || st.isFile()) && mode !== want) out.push(`${mode.toString(8)} ${p}`);
    if (st.isDirectory()) for (const e of readdirSync(p)) walk(join(p, e));
  };
  walk(dir);
  return out;
}
