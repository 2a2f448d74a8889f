// Where the Chromium binary comes from. Order is fixed by DESIGN section 3:
// GSTACK_CHROMIUM, Playwright's own downloaded Chromium, then the system browser.
import { existsSync, accessSync, constants, readdirSync } from 'node:fs';
import { homedir, platform } from 'node:os';
import { join } from 'node:path';

export interface ChromiumFound {
  path: string;
  source: 'GSTACK_CHROMIUM' | 'playwright' | 'system';
}

/** The command that installs a Chromium on this OS, quoted verbatim in exit-3 errors. */
export const INSTALL_HINT =
  platform() === 'darwin'
    ? 'npx playwright install chromium   (or install Google Chrome)'
    : 'sudo apt-get install -y chromium   (Debian/Ubuntu; or: npx playwright install chromium; or set GSTACK_CHROMIUM=/path/to/chrome)';

export class NoChromiumError extends Error {
  constructor(detail: string) {
    super(`No Chromium found (${detail}). Install one with: ${INSTALL_HINT}`);
    this.name = 'NoChromiumError';
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

/** Playwright keeps downloaded browsers under ms-playwright/chromium-<rev>/. We look on disk
 * instead of importing playwright, so discovery stays cheap on the hot path. */
function playwrightChromium(): string | undefined {
  const roots = [
    process.env.PLAYWRIGHT_BROWSERS_PATH,
    platform() === 'darwin' ? join(homedir(), 'Library', 'Caches', 'ms-playwright') : join(homedir(), '.cache', 'ms-playwright'),
  ].filter((r): r is string => !!r && r !== '0' && existsSync(r));
  const tails =
    platform() === 'darwin'
      ? [
          'chrome-mac/Chromium.app/Contents/MacOS/Chromium',
          'chrome-mac-arm64/Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing',
          'chrome-mac-x64/Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing',
        ]
      : ['chrome-linux64/chrome', 'chrome-linux/chrome'];
  for (const root of roots) {
    let dirs: string[] = [];
    try {
      dirs = readdirSync(root).filter((d) => /^chromium-\d+$/.test(d));
    } catch {
      continue;
    }
    dirs.sort((a, b) => Number(b.split('-')[1]) - Number(a.split('-')[1]));
    for (const d of dirs) {
      for (const t of tails) {
        const p = join(root, d, t);
        if (isExecutable(p)) return p;
      }
    }
  }
  return undefined;
}

const SYSTEM_CANDIDATES =
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

export function findChromium(env: NodeJS.ProcessEnv = process.env): ChromiumFound {
  const fromEnv = env.GSTACK_CHROMIUM;
  if (fromEnv) {
    if (isExecutable(fromEnv)) return { path: fromEnv, source: 'GSTACK_CHROMIUM' };
    throw new NoChromiumError(`GSTACK_CHROMIUM=${fromEnv} is not an executable file`);
  }
  const pw = playwrightChromium();
  if (pw) return { path: pw, source: 'playwright' };
  for (const p of SYSTEM_CANDIDATES) if (isExecutable(p)) return { path: p, source: 'system' };
  throw new NoChromiumError('looked at GSTACK_CHROMIUM, Playwright\'s browser cache and the system paths');
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
