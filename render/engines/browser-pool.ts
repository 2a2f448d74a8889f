// The render host's browsers (docs/ARCHITECTURE.md, "Hosts"): renders run page JavaScript
// only, never a user script in Node, so one per-user render host may keep a headless Chromium
// up between renders. Each render still gets a fresh incognito context (chromium-render.ts)
// and never reuses a page or context.
//
// Owns: one browser per browser environment (binary, TZ, LANG, proxies, fonts: see
// driver/browser/browser-env.ts), started on first use and closed when the host exits or the
// browser dies. A process without a pool (a render run in the `gstack` process) launches and
// closes a browser per render, as before.
import type { Browser } from 'playwright-core';
import { loadPlaywright } from '../../driver/browser/playwright-load.js';
import { chromiumArgs } from '../../driver/browser/chromium-find.js';
import { browserEnv, browserFingerprint } from '../../driver/browser/browser-env.js';

export interface BrowserLease {
  browser: Browser;
  /** The render is over: a pooled browser stays up, an unpooled one is closed. */
  release(): Promise<void>;
}

let installed: RenderBrowserPool | undefined;

/** Called once by the render host: from then on renders in this process share its browsers. */
export function installRenderBrowserPool(pool: RenderBrowserPool): void {
  installed = pool;
}

/** A browser for one render: the host's pooled one, or one of its own. */
export async function leaseRenderBrowser(executablePath: string, env: NodeJS.ProcessEnv): Promise<BrowserLease> {
  if (installed) return installed.lease(executablePath, env);
  const browser = await launch(executablePath, env);
  return { browser, release: () => browser.close().catch(() => undefined) };
}

/** WebRTC sends no UDP of its own in a render's browser (a full Chromium reads the first
 * spelling, the headless shell the second): TURN and STUN would reach any address a page names,
 * past the routes that block its foreign requests, and carry what it read from the render root
 * (a TURN username). Its TCP goes to the render context's proxy, which leads nowhere
 * (chromium-render.ts). */
const RENDER_ARGS = ['--webrtc-ip-handling-policy=disable_non_proxied_udp', '--force-webrtc-ip-handling-policy=disable_non_proxied_udp'];

function launch(executablePath: string, env: NodeJS.ProcessEnv): Promise<Browser> {
  const { chromium } = loadPlaywright();
  return chromium.launch({ executablePath, args: [...chromiumArgs(), ...RENDER_ARGS], headless: true, env: browserEnv(env) });
}

export class RenderBrowserPool {
  private readonly browsers = new Map<string, Promise<Browser>>();

  async lease(executablePath: string, env: NodeJS.ProcessEnv): Promise<BrowserLease> {
    const key = browserFingerprint(executablePath, false, env);
    let pending = this.browsers.get(key);
    if (!pending) {
      pending = launch(executablePath, env);
      this.browsers.set(key, pending);
      pending.then(
        (b) => b.on('disconnected', () => this.browsers.get(key) === pending && this.browsers.delete(key)),
        () => this.browsers.delete(key),
      );
    }
    const browser = await pending;
    return { browser, release: async () => undefined };
  }

  async closeAll(): Promise<void> {
    const all = [...this.browsers.values()];
    this.browsers.clear();
    await Promise.all(all.map((p) => p.then((b) => b.close(), () => undefined).catch(() => undefined)));
  }
}
