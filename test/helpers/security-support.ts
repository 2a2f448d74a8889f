// Support for test/security.e2e.test.ts: the concurrent attacker of the fs race (a separate process
// that swaps a directory for a symlink in a tight loop), the check that text is safe for a
// terminal, and file-mode listings.
import { spawn } from 'node:child_process';
import { existsSync, lstatSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Starts a process that, until stopped, renames `dir` aside, puts a symlink to `target` in its
 * place, holds it ~holdUs µs, then puts the directory back and holds that as long. 50 µs makes
 * a check-then-use race in the code under attack show up within a second on a loaded 2-core
 * machine (measured: every run of the old `fs` escaped). Whatever the code under attack makes
 * at `dir` while the directory is away (it may create one) is moved aside to `dir.made-N`, so
 * the swapping never stalls.
 */
export function startSwapper(dir: string, target: string, holdUs = 50): { stop(): Promise<void> } {
  // (`__name`: a TypeScript runner may wrap the function's inner helpers in calls to it.)
  const source = `const __name = (f) => f; (${swapLoop.toString()})(...process.argv.slice(1))`;
  const child = spawn(process.execPath, ['-e', source, dir, target, String(holdUs)], { stdio: ['ignore', 'ignore', 'inherit'] });
  return {
    stop: () =>
      new Promise<void>((resolve) => {
        const restore = () => resolve(putBack(dir));
        if (child.exitCode !== null || child.signalCode !== null) return restore();
        child.once('exit', restore);
        child.kill('SIGKILL');
      }),
  };
}

/** Runs in the swapper process (sent as source, so self-contained). */
function swapLoop(dir: string, target: string, holdUs: string): void {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const fs = require('node:fs') as typeof import('node:fs');
  const parked = dir + '.parked';
  const hold = Number(holdUs) * 1000;
  let made = 0;
  const spin = () => {
    const t = process.hrtime.bigint();
    while (Number(process.hrtime.bigint() - t) < hold);
  };
  const clear = () => {
    const st = fs.lstatSync(dir, { throwIfNoEntry: false });
    if (st?.isSymbolicLink()) fs.unlinkSync(dir);
    else if (st) fs.renameSync(dir, `${dir}.made-${made++}`);
  };
  for (;;) {
    try {
      if (fs.existsSync(parked)) {
        clear();
        fs.renameSync(parked, dir);
      }
      fs.renameSync(dir, parked);
      try {
        fs.symlinkSync(target, dir);
      } catch {
        /* the code under attack made a directory there first */
      }
      spin();
      clear();
      fs.renameSync(parked, dir);
      spin();
    } catch {
      /* raced with the code under attack: the next round starts clean */
    }
  }
}

/** After the swapper died: the directory back in place, whatever state it was killed in. */
function putBack(dir: string): void {
  if (!existsSync(dir + '.parked')) return;
  const st = lstatSync(dir, { throwIfNoEntry: false });
  if (st?.isSymbolicLink()) rmSync(dir);
  else if (st) renameSync(dir, `${dir}.made-last`);
  renameSync(dir + '.parked', dir);
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
