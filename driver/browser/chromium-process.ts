// Starts Chromium ourselves, before Playwright is even loaded, so the browser's start-up
// overlaps the ~250 ms it takes to load Playwright (docs/ARCHITECTURE.md, "One call"). Playwright then
// attaches with connectOverCDP.
//
// Isolation: Chromium speaks CDP over a private pipe (--remote-debugging-pipe), never a TCP
// debugging port that any local process could discover (/json) and attach to. Playwright needs
// a ws:// URL, so a one-connection WebSocket relay listens on 127.0.0.1 under a random 128-bit
// path: nothing is discoverable, a wrong path is refused, and a second client is refused.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Readable, Writable } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { chromiumArgs } from './chromium-find.js';

export interface LaunchOptions {
  executablePath: string;
  profileDir: string;
  headed?: boolean;
  /** Deadline for the browser to answer on its pipe. */
  startTimeoutMs?: number;
  /** The browser's environment (browser/browser-env.ts): the call's, never the whole of it. */
  env: Record<string, string>;
  /** Start the browser in a process group of its own (a call run in the `gstack` process: a
   * harness that kills that process's group must not SIGKILL the browser, which then shuts
   * down in order when its pipe closes). A session host keeps its browser in its own group
   * instead, so that ending the host's group ends its browser too. */
  ownGroup: boolean;
}

export interface ChromiumProcess {
  pid: number | undefined;
  /** ws:// endpoint for chromium.connectOverCDP (one connection only). */
  wsEndpoint: Promise<string>;
  /** Resolves when the browser process has exited. */
  exited: Promise<void>;
  /** How it exited (its code, or the signal that ended it), once it has. */
  exitStatus(): BrowserExit | undefined;
  /** Asks the browser to shut down cleanly (profile flushed), waits up to `graceMs`, then kills. */
  close(graceMs?: number): Promise<void>;
  /** SIGKILL, for timeouts and signals. */
  kill(): void;
}

export class ChromiumStartError extends Error {}

export interface BrowserExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** Flags Playwright itself passes for automation, plus our quiet-network set. */
function launchArgs(opts: LaunchOptions): string[] {
  const args = [
    ...chromiumArgs(),
    '--disable-field-trial-config',
    '--disable-background-timer-throttling',
    '--disable-backgrounding-occluded-windows',
    '--disable-back-forward-cache',
    '--disable-component-extensions-with-background-pages',
    '--disable-dev-shm-usage',
    '--allow-pre-commit-input',
    '--disable-hang-monitor',
    '--disable-ipc-flooding-protection',
    '--disable-popup-blocking',
    '--disable-prompt-on-repost',
    '--disable-renderer-backgrounding',
    '--force-color-profile=srgb',
    // A session's pages of one site share a renderer process rather than each starting one
    // (~200 ms of CPU apiece on 2 cores); sites still get processes of their own (site
    // isolation holds), and a session host keeps the last call's process for the next call on
    // the same site (driver/hosts/session-browser.ts). Not for the render host's browser
    // (render/engines/browser-pool.ts), whose renders of one loopback origin may run at once.
    '--renderer-process-limit=1',
    '--no-service-autorun',
    '--export-tagged-pdf',
    '--disable-search-engine-choice-screen',
    '--enable-unsafe-swiftshader',
    '--window-size=1280,800',
    `--user-data-dir=${opts.profileDir}`,
    '--remote-debugging-pipe',
  ];
  if (!opts.headed) args.push('--headless', '--hide-scrollbars', '--mute-audio');
  args.push('about:blank');
  return args;
}

/** CDP ids far above anything Playwright will use, for our own start-up probe and close; their
 * replies are not relayed to Playwright. */
const PROBE_ID = 1_999_999_999;
const CLOSE_ID = 2_000_000_000;

export function startChromium(opts: LaunchOptions): ChromiumProcess {
  const ownGroup = opts.ownGroup && process.platform !== 'win32';
  const proc: ChildProcess = spawn(opts.executablePath, launchArgs(opts), {
    stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'],
    env: opts.env,
    detached: ownGroup,
  });
  const toBrowser = proc.stdio[3] as Writable;
  const fromBrowser = proc.stdio[4] as Readable;
  let stderrTail = '';
  proc.stderr?.setEncoding('utf8').on('data', (d: string) => {
    stderrTail = (stderrTail + d).slice(-4000);
  });
  const running = () => proc.exitCode === null && proc.signalCode === null;
  const exited = new Promise<void>((resolve) => {
    if (!running()) resolve();
    else proc.once('exit', () => resolve());
  });
  // Never let a stream error (EPIPE after the browser died) crash the CLI.
  toBrowser.on('error', () => undefined);
  fromBrowser.on('error', () => undefined);

  let client: WebSocket | undefined;
  // Messages are relayed as bytes (NUL-delimited on the pipe, text frames on the socket):
  // decoding and re-encoding every CDP message — screenshots are megabytes of base64 — would
  // cost the main thread tens of milliseconds per call.
  // A message's bytes so far (a screenshot arrives in dozens of 64 KiB chunks): kept as a list
  // and joined once its NUL arrives, so a large message is copied once, not once per chunk.
  let partial: Buffer[] = [];
  let firstMessage: () => void = () => undefined;
  const answered = new Promise<void>((r) => (firstMessage = r));
  const ownReply = (msg: Buffer) => {
    const head = msg.subarray(0, 24).toString('latin1');
    return head.startsWith(`{"id":${CLOSE_ID},`) || head.startsWith(`{"id":${PROBE_ID},`);
  };
  fromBrowser.on('data', (chunk: Buffer) => {
    let start = 0;
    let end: number;
    while ((end = chunk.indexOf(0, start)) >= 0) {
      const tail = chunk.subarray(start, end);
      const msg = partial.length ? Buffer.concat([...partial, tail]) : tail;
      partial = [];
      start = end + 1;
      firstMessage();
      if (!ownReply(msg)) client?.send(msg, { binary: false });
    }
    if (start < chunk.length) partial.push(start ? chunk.subarray(start) : chunk);
  });
  const NUL = Buffer.from([0]);
  const sendToBrowser = (msg: string | Buffer) => {
    if (toBrowser.destroyed) return;
    toBrowser.write(msg);
    toBrowser.write(NUL);
  };

  const kill = () => {
    if (!running()) return;
    try {
      if (ownGroup && proc.pid) process.kill(-proc.pid, 'SIGKILL'); // renderers, GPU, utilities too
      else proc.kill('SIGKILL');
    } catch {
      proc.kill('SIGKILL');
    }
  };

  const secret = randomBytes(16).toString('hex');
  const server = http.createServer((_req, res) => res.writeHead(404).end());
  const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false, maxPayload: 256 * 1024 * 1024 });
  server.on('upgrade', (req, socket, head) => {
    if (req.url !== `/${secret}` || client) {
      socket.destroy();
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      client = ws;
      ws.on('message', (data) => sendToBrowser(Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data)));
      ws.on('close', () => {
        client = undefined;
      });
    });
  });
  const closeRelay = () => {
    client?.terminate();
    wss.close();
    server.close();
    server.closeAllConnections?.();
  };
  void exited.then(closeRelay);

  const wsEndpoint = (async () => {
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    server.unref();
    const port = (server.address() as AddressInfo).port;
    // The browser is up once it answers a first CDP call on the pipe.
    sendToBrowser(JSON.stringify({ id: PROBE_ID, method: 'Browser.getVersion' }));
    const timeout = opts.startTimeoutMs ?? 30_000;
    let timer: NodeJS.Timeout | undefined;
    const failed = await Promise.race([
      answered.then(() => false),
      exited.then(() => true),
      new Promise<boolean>((r) => {
        timer = setTimeout(() => r(true), timeout);
      }),
    ]);
    clearTimeout(timer);
    if (failed) {
      kill();
      const why = stderrTail
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l && !/^\[\d+:\d+:/.test(l) && !/dbus|Fontconfig/i.test(l))
        .slice(-3)
        .join(' | ');
      const lockHint = /SingletonLock|profile.*in use|ProcessSingleton/i.test(stderrTail)
        ? ' The profile is in use by another Chromium: use another --session or --ephemeral.'
        : '';
      throw new ChromiumStartError(
        `Chromium did not start (${opts.executablePath}${proc.exitCode !== null ? `, exit code ${proc.exitCode}` : ''}${why ? `: ${why}` : ''}).${lockHint} Check the binary with \`gstack probe\`, or point GSTACK_CHROMIUM at a working Chrome/Chromium.`,
      );
    }
    return `ws://127.0.0.1:${port}/${secret}`;
  })();
  wsEndpoint.catch(() => undefined);

  return {
    pid: proc.pid,
    wsEndpoint,
    exited,
    exitStatus: () => (running() ? undefined : { code: proc.exitCode, signal: proc.signalCode }),
    kill,
    async close(graceMs = 5000) {
      if (!running()) return;
      sendToBrowser(JSON.stringify({ id: CLOSE_ID, method: 'Browser.close' }));
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([exited, new Promise<void>((r) => (timer = setTimeout(r, graceMs)))]);
      clearTimeout(timer);
      kill();
      await exited;
    },
  };
}
