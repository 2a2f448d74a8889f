// Where the Chromium binary comes from, in a fixed order (README "Environment"):
// GSTACK_CHROMIUM, Playwright's own downloaded Chromium, then the system browser.
//
// Within Playwright's cache and within the system paths, a headless call prefers Chromium's
// headless shell (Playwright's own default for headless, Debian's `chromium-headless-shell`):
// the same engine without the browser UI layer, it answers CDP in ~55 ms where the full browser
// in headless mode takes ~250 ms, and a five-step flow runs in half the time. A headed call
// (a window) needs the full browser.
import { GstackError } from '../errors.js';
import { existsSync, accessSync, constants, readdirSync } from 'node:fs';
import { homedir, platform } from 'node:os';
import { join } from 'node:path';

export interface ChromiumFound {
  path: string;
  source: 'GSTACK_CHROMIUM' | 'playwright' | 'system';
  /** 'headless-shell' cannot open a window; 'unknown' is a GSTACK_CHROMIUM we take on trust. */
  kind: 'headless-shell' | 'browser' | 'unknown';
}

export interface FindOptions {
  /** A headed call needs a window: headless shells are skipped. */
  headed?: boolean;
}

/** The command that installs a Chromium on this OS, quoted verbatim in exit-3 errors. */
export const INSTALL_HINT =
  platform() === 'darwin'
    ? 'npx playwright install chromium   (or install Google Chrome)'
    : 'sudo apt-get install -y chromium   (Debian/Ubuntu; or: npx playwright install chromium; or set GSTACK_CHROMIUM=/path/to/chrome)';

/** No browser to run a script with (exit NO_ENGINE); the message quotes the install command. */
export class NoChromiumError extends GstackError {
  constructor(detail: string) {
    super(`No Chromium found (${detail}). Install one with: ${INSTALL_HINT}`, 'NO_ENGINE');
  }
}

function isExecutable(p: string): boolean {
  try {
    accessSync(p, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Playwright keeps downloaded browsers under ms-playwright/chromium-<rev>/ and its headless
 * shell under ms-playwright/chromium_headless_shell-<rev>/. We look on disk instead of
 * importing playwright, so discovery stays cheap on the hot path. */
const PLAYWRIGHT_LAYOUTS: Array<{ dir: RegExp; kind: ChromiumFound['kind']; tails: string[] }> = [
  {
    dir: /^chromium_headless_shell-(\d+)$/,
    kind: 'headless-shell',
    tails:
      platform() === 'darwin'
        ? ['chrome-headless-shell-mac-arm64/chrome-headless-shell', 'chrome-headless-shell-mac-x64/chrome-headless-shell', 'chrome-mac/headless_shell']
        : ['chrome-headless-shell-linux64/chrome-headless-shell', 'chrome-linux/headless_shell'],
  },
  {
    dir: /^chromium-(\d+)$/,
    kind: 'browser',
    tails:
      platform() === 'darwin'
        ? [
            'chrome-mac/Chromium.app/Contents/MacOS/Chromium',
            'chrome-mac-arm64/Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing',
            'chrome-mac-x64/Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing',
          ]
        : ['chrome-linux64/chrome', 'chrome-linux/chrome'],
  },
];

function playwrightChromium(env: NodeJS.ProcessEnv, kinds: Array<ChromiumFound['kind']>): ChromiumFound | undefined {
  const roots = [
    env.PLAYWRIGHT_BROWSERS_PATH,
    platform() === 'darwin' ? join(homedir(), 'Library', 'Caches', 'ms-playwright') : join(homedir(), '.cache', 'ms-playwright'),
  ].filter((r): r is string => !!r && r !== '0' && existsSync(r));
  for (const layout of PLAYWRIGHT_LAYOUTS.filter((l) => kinds.includes(l.kind))) {
    for (const root of roots) {
      let dirs: string[] = [];
      try {
        dirs = readdirSync(root).filter((d) => layout.dir.test(d));
      } catch {
        continue;
      }
      const rev = (d: string) => Number(layout.dir.exec(d)![1]);
      dirs.sort((a, b) => rev(b) - rev(a));
      for (const d of dirs) {
        for (const t of layout.tails) {
          const p = join(root, d, t);
          if (isExecutable(p)) return { path: p, source: 'playwright', kind: layout.kind };
        }
      }
    }
  }
  return undefined;
}

const SYSTEM_SHELLS =
  platform() === 'darwin'
    ? []
    : ['/usr/lib/chromium/chromium-headless-shell', '/usr/bin/chromium-headless-shell', '/usr/bin/chrome-headless-shell'];

const SYSTEM_BROWSERS =
  platform() === 'darwin'
    ? [
        '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
        '/Applications/Chromium.app/Contents/MacOS/Chromium',
        join(homedir(), 'Applications/Google Chrome.app/Contents/MacOS/Google Chrome'),
      ]
    : [
        '/usr/bin/chromium',
        '/usr/bin/chromium-browser',
        '/usr/bin/google-chrome',
        '/usr/bin/google-chrome-stable',
        '/opt/google/chrome/chrome',
        '/snap/bin/chromium',
      ];

export function findChromium(env: NodeJS.ProcessEnv = process.env, opts: FindOptions = {}): ChromiumFound {
  const fromEnv = env.GSTACK_CHROMIUM;
  if (fromEnv) {
    if (isExecutable(fromEnv)) return { path: fromEnv, source: 'GSTACK_CHROMIUM', kind: 'unknown' };
    throw new NoChromiumError(`GSTACK_CHROMIUM=${fromEnv} is not an executable file`);
  }
  const kinds: Array<ChromiumFound['kind']> = opts.headed ? ['browser'] : ['headless-shell', 'browser'];
  const pw = playwrightChromium(env, kinds);
  if (pw) return pw;
  if (!opts.headed) for (const p of SYSTEM_SHELLS) if (isExecutable(p)) return { path: p, source: 'system', kind: 'headless-shell' };
  for (const p of SYSTEM_BROWSERS) if (isExecutable(p)) return { path: p, source: 'system', kind: 'browser' };
  throw new NoChromiumError(
    `looked at GSTACK_CHROMIUM, Playwright's browser cache and the system paths${opts.headed ? ' for a full browser: --headed needs a window, which a headless shell cannot open' : ''}`,
  );
}

const DISABLED_FEATURES = [
  'Translate', 'MediaRouter', 'OptimizationHints', 'AutofillServerCommunication', 'CertificateTransparencyComponentUpdater',
  'AvoidUnnecessaryBeforeUnloadCheckSync', 'DestroyProfileOnBrowserClose', 'HttpsUpgrades', 'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay', 'PaintHolding', 'ThirdPartyStoragePartitioning', 'AvoidCorsURLLoaderRestartOnRedirect',
  'NetworkTimeServiceQuerying', 'AimEnabled', 'PreconnectToSearch',
];

/** Flags that keep a closed network quiet and a headless call lean. --no-sandbox only as root,
 * where Chromium refuses to start without it. */
export function chromiumArgs(): string[] {
  const args = [
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--no-default-browser-check',
    '--disable-default-apps',
    '--disable-extensions',
    '--disable-breakpad',
    '--disable-crash-reporter',
    '--disable-domain-reliability',
    // One list (Chromium honours only the last --disable-features): our quiet-network set plus
    // what Playwright disables for automation (PaintHolding delays first paint, etc.), so a
    // browser we spawn ourselves behaves like one Playwright launched.
    `--disable-features=${DISABLED_FEATURES.join(',')}`,
    '--enable-features=CDPScreenshotNewSurface',
    '--metrics-recording-only',
    '--password-store=basic',
    '--use-mock-keychain',
    '--disable-quic',
    // No GPU process: headless rendering and screenshots use the software path anyway, and one
    // process fewer to start is measurably faster on a 2-core machine.
    '--disable-gpu',
  ];
  if (typeof process.getuid === 'function' && process.getuid() === 0) args.push('--no-sandbox');
  return args;
}
