// A virtual X display for tests that need a visible window (`gstack login`): Xvfb from
// Debian's packages, installed here when missing and possible (root + apt-get, as
// bin/setup.sh does), started on a display it picks itself (-displayfd), stopped by the test.
// xdotool (same origin) types into and closes windows the way a person would.
import { execFile, spawn, spawnSync } from 'node:child_process';

const has = (cmd: string) => spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;

/** Makes each command available, installing its Debian package when it is missing; returns
 * why not when that cannot be done (the caller skips with that reason). */
export function ensureTools(pkgs: Array<{ pkg: string; cmd: string }>): string | undefined {
  const missing = pkgs.filter((p) => !has(p.cmd));
  if (!missing.length) return undefined;
  const names = missing.map((p) => p.pkg);
  if (process.getuid?.() !== 0 || !has('apt-get')) return `${names.join(', ')} not installed and cannot be installed here (needs root and apt-get)`;
  spawnSync('apt-get', ['update', '-qq'], { stdio: 'ignore', timeout: 300_000 });
  const r = spawnSync('apt-get', ['install', '-y', '-qq', ...names], { stdio: 'ignore', timeout: 600_000, env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  const still = missing.filter((p) => !has(p.cmd));
  return still.length ? `could not install ${still.map((p) => p.pkg).join(', ')} (apt-get exit ${r.status})` : undefined;
}

export interface VirtualDisplay {
  /** ":N", for DISPLAY. */
  display: string;
  stop(): Promise<void>;
}

export async function startXvfb(): Promise<VirtualDisplay> {
  // fd 3: Xvfb writes the display number it chose once it accepts connections.
  const proc = spawn('Xvfb', ['-displayfd', '3', '-screen', '0', '1280x900x24', '-nolisten', 'tcp'], { stdio: ['ignore', 'ignore', 'pipe', 'pipe'] });
  let errText = '';
  proc.stderr!.setEncoding('utf8').on('data', (d: string) => (errText += d));
  const display = await new Promise<string>((resolve, reject) => {
    let buf = '';
    const timer = setTimeout(() => reject(new Error(`Xvfb did not start in 15 s: ${errText.slice(-300)}`)), 15_000);
    (proc.stdio[3] as NodeJS.ReadableStream).setEncoding('utf8');
    (proc.stdio[3] as NodeJS.ReadableStream).on('data', (d: string) => {
      buf += d;
      if (buf.includes('\n')) {
        clearTimeout(timer);
        resolve(':' + buf.trim());
      }
    });
    proc.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Xvfb exited (${code}): ${errText.slice(-300)}`));
    });
  });
  return {
    display,
    stop: () =>
      new Promise<void>((resolve) => {
        if (proc.exitCode !== null) return resolve();
        proc.once('exit', () => resolve());
        proc.kill('SIGTERM');
      }),
  };
}

/** Runs xdotool on `display`; its stdout. Asynchronous: the test's own loopback server must
 * keep answering the window's requests meanwhile. */
export function xdotool(display: string, args: string[], timeoutMs = 30_000): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('xdotool', args, { env: { ...process.env, DISPLAY: display }, encoding: 'utf8', timeout: timeoutMs }, (err, stdout, stderr) => {
      if (err) reject(new Error(`xdotool ${args.join(' ')} failed (${(err as NodeJS.ErrnoException).code ?? err.message}): ${stderr}`));
      else resolve(stdout);
    });
  });
}

/** The id of the first visible window whose title matches `name` (xdotool's regex), once there
 * is one. Polls: `search --sync` fails outright when a window it is looking at goes away, as
 * Chromium's short-lived start-up windows do. */
export async function waitForWindow(display: string, name: string, timeoutMs = 60_000): Promise<string> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const found = await xdotool(display, ['search', '--onlyvisible', '--name', name]).then(
      (out) => out.trim().split('\n')[0],
      () => '', // none yet (exit 1), or a window vanished mid-search
    );
    if (found) return found;
    if (Date.now() > until) throw new Error(`no window titled ${name} on ${display} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
