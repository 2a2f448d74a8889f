// The Chromium render engine: a headless Chromium that is not the persistent profile (a render
// needs no logins and must not touch the user's state) — the render host's pooled browser or
// one launched for this render (browser-pool.ts) — with a fresh context per render, that
// opens the page on the loopback server, waits, and runs the steps in order.
import type { BrowserContext, JSHandle, Page } from 'playwright-core';
import { evalLimit, evalValueSize } from '../api/eval-limits.js';
import { findChromium, NoChromiumError } from '../../driver/browser/chromium-find.js';
import { leaseRenderBrowser, type BrowserLease } from './browser-pool.js';
import { renderMessage, stepLabel } from '../api/messages.js';
import { toPlaywrightPdfOptions } from '../api/pdf-options.js';
import { trace } from '../../driver/trace.js';
import {
  describePageError,
  EngineFailure,
  type EngineRenderOutput,
  type PreparedRender,
  type StepOutput,
} from './engine-contract.js';

const WAIT_POLL_MS = 100;

/** A proxy that leads nowhere: a privileged port, which no other user can listen on. */
const NO_PROXY_SERVER = 'socks5://127.0.0.1:1';

export async function renderOnChromium(job: PreparedRender): Promise<EngineRenderOutput> {
  let executablePath: string;
  try {
    executablePath = findChromium(job.env).path;
  } catch (err) {
    if (err instanceof NoChromiumError) throw new EngineFailure(err.message, 'start', 'NO_ENGINE');
    throw err;
  }
  if (job.signal.aborted) throw new EngineFailure('the render deadline passed before Chromium started', 'start');

  let lease: BrowserLease;
  try {
    lease = await leaseRenderBrowser(executablePath, job.env);
  } catch (err) {
    throw new EngineFailure(
      `Chromium at ${executablePath} did not start: ${firstLine(err)}. Check that it runs (\`${executablePath} --version\`) or point GSTACK_CHROMIUM at another Chrome/Chromium.`,
      'start',
    );
  }
  trace('render: chromium ready');
  const browser = lease.browser;
  // Each render has a fresh context of its own; closing it ends the render's page at once
  // (the deadline, or an interrupted caller). A pooled browser outlives the render.
  let context: BrowserContext | undefined;
  const stop = () => void (context ? context.close() : lease.release()).catch(() => {});
  job.signal.addEventListener('abort', stop, { once: true });

  const pageErrors: string[] = [];
  const blockedRequests: string[] = [];
  try {
    context = await browser.newContext({
      viewport: job.viewport,
      deviceScaleFactor: job.deviceScaleFactor,
      acceptDownloads: false,
      serviceWorkers: 'block',
      // Offline: everything but the render server goes to a proxy on a privileged loopback port
      // where nothing listens. The routes below block and list foreign requests; this also
      // holds what no route sees: WebRTC's TCP to a TURN server (its UDP is off, browser-pool.ts).
      ...(job.allowNetwork ? {} : { proxy: { server: NO_PROXY_SERVER, bypass: new URL(job.origin).host } }),
    });
    // The routes and the page are set up concurrently (each is a browser round trip); both are
    // in place before the first navigation.
    const setup: Array<Promise<unknown>> = [];
    if (!job.allowNetwork) {
      const foreign = (u: URL) => !u.href.startsWith(job.origin + '/');
      const block = (url: string) => {
        blockedRequests.push(url);
        job.onBlockedRequest?.(url);
      };
      setup.push(
        context!.route(foreign, (route) => {
          block(route.request().url());
          return route.abort('blockedbyclient');
        }),
        // Without connectToServer() a routed WebSocket never reaches the network.
        context!.routeWebSocket(foreign, (ws) => {
          block(ws.url());
          ws.close();
        }),
      );
    }
    const [page] = await Promise.all([context.newPage(), ...setup]);
    page.on('pageerror', (err) => pageErrors.push(describePageError(err)));
    if (job.media) await page.emulateMedia({ media: job.media });

    trace('render: context and page ready');
    await openAndWait(page, job);
    trace('render: page loaded and waits satisfied');

    const outputs: StepOutput[] = [];
    for (let i = 0; i < job.steps.length; i++) {
      outputs.push(await runStep(page, job, i));
    }
    trace('render: steps done');
    return { outputs, pageErrors, blockedRequests };
  } catch (err) {
    if (err instanceof EngineFailure) throw err;
    if (job.signal.aborted) throw new EngineFailure(renderMessage('deadlinePassed', {}), 'page');
    throw new EngineFailure(firstLine(err), 'page');
  } finally {
    job.signal.removeEventListener('abort', stop);
    await context?.close().catch(() => {});
    await lease.release();
    trace('render: context closed');
  }
}

async function openAndWait(page: Page, job: PreparedRender): Promise<void> {
  const deadline = Date.now() + job.waitTimeoutMs;
  let response;
  try {
    response = await page.goto(job.url, { waitUntil: 'load', timeout: job.waitTimeoutMs });
  } catch (err) {
    throw new EngineFailure(renderMessage('loadTimeout', { ms: job.waitTimeoutMs, cause: firstLine(err) }), 'page');
  }
  if (response && !response.ok()) {
    throw new EngineFailure(renderMessage('pageStatus', { status: response.status() }), 'page');
  }

  if (job.waitSelector !== undefined) {
    try {
      await page.waitForSelector(job.waitSelector, { state: 'attached', timeout: Math.max(1, deadline - Date.now()) });
    } catch (err) {
      const msg = firstLine(err);
      const invalid = /not a valid selector|Unexpected token|malformed/i.test(msg);
      throw new EngineFailure(
        invalid
          ? renderMessage('waitSelectorInvalid', { selector: job.waitSelector, cause: msg })
          : renderMessage('waitSelectorTimeout', { selector: job.waitSelector, ms: job.waitTimeoutMs }),
        'page',
      );
    }
  }

  if (job.waitExpression !== undefined) {
    const NOT_SETTLED = Symbol('not settled');
    const EVALUATION_MIN_MS = 2000;
    let lastError = '';
    for (;;) {
      try {
        // A promise the page never settles would hold the render to --timeout: each evaluation
        // gets what is left of --wait-timeout.
        const evaluated = page.evaluate(job.waitExpression);
        evaluated.catch(() => undefined);
        let timer: NodeJS.Timeout | undefined;
        // (At least EVALUATION_MIN_MS: an expression that answers at once, but late on a loaded
        // machine, is read as it always was.)
        const outOfTime = new Promise<typeof NOT_SETTLED>((r) => (timer = setTimeout(() => r(NOT_SETTLED), Math.max(EVALUATION_MIN_MS, deadline - Date.now()))));
        const value = await Promise.race([evaluated, outOfTime]).finally(() => clearTimeout(timer));
        if (value === NOT_SETTLED) {
          const cause = lastError || 'its promise had not settled';
          throw new EngineFailure(renderMessage('waitExprTimeout', { ms: job.waitTimeoutMs, lastError: renderMessage('lastError', { cause }) }), 'page');
        }
        if (value) break;
        lastError = '';
      } catch (err) {
        if (err instanceof EngineFailure) throw err;
        const msg = firstLine(err);
        if (/SyntaxError/.test(msg)) {
          throw new EngineFailure(renderMessage('waitExprInvalid', { cause: msg }), 'page');
        }
        lastError = msg; // a throw counts as "not yet"
      }
      if (Date.now() + WAIT_POLL_MS > deadline) {
        const last = lastError ? renderMessage('lastError', { cause: lastError }) : '';
        throw new EngineFailure(renderMessage('waitExprTimeout', { ms: job.waitTimeoutMs, lastError: last }), 'page');
      }
      await page.waitForTimeout(WAIT_POLL_MS);
    }
  }
}

async function runStep(page: Page, job: PreparedRender, i: number): Promise<StepOutput> {
  const step = job.steps[i];
  const label = stepLabel(i, step.kind);
  switch (step.kind) {
    case 'pdf': {
      const params = job.pdfParams[i]!;
      try {
        return { kind: 'pdf', data: await page.pdf(toPlaywrightPdfOptions(params)) };
      } catch (err) {
        throw new EngineFailure(renderMessage('stepFailed', { label, cause: firstLine(err) }), 'page');
      }
    }
    case 'screenshot': {
      const before = page.viewportSize() ?? job.viewport;
      const sized = step.width !== undefined || step.height !== undefined;
      if (sized) await page.setViewportSize({ width: step.width ?? before.width, height: step.height ?? before.height });
      try {
        const opts = {
          type: step.format ?? 'png',
          quality: step.format === 'jpeg' ? step.quality : undefined,
          omitBackground: step.omitBackground,
          caret: 'hide',
        } as const;
        if (step.selector !== undefined) {
          const target = page.locator(step.selector).first();
          if ((await target.count()) === 0) {
            throw new EngineFailure(renderMessage('selectorNoMatch', { label, selector: step.selector }), 'page');
          }
          return { kind: 'screenshot', data: await target.screenshot(opts) };
        }
        return { kind: 'screenshot', data: await page.screenshot({ ...opts, fullPage: !step.viewportOnly }) };
      } catch (err) {
        if (err instanceof EngineFailure) throw err;
        throw new EngineFailure(renderMessage('stepFailed', { label, cause: firstLine(err) }), 'page');
      } finally {
        if (sized) await page.setViewportSize(before).catch(() => {});
      }
    }
    case 'eval': {
      let handle: JSHandle;
      try {
        handle = await page.evaluateHandle(step.expression);
      } catch (err) {
        throw new EngineFailure(renderMessage('evalThrew', { label, cause: firstLine(err) }), 'page');
      }
      try {
        // Measured in the page before it crosses over: the value is the page's to size, and a
        // huge one (or one dense with controls, which the text filter then works through)
        // would hold the render host every session shares (pass 20, C20).
        const measured = await handle.evaluate(evalValueSize);
        if (measured.size > evalLimit(measured)) throw new EngineFailure(renderMessage('evalTooBig', { label, size: measured.size, max: evalLimit(measured) }), 'page');
        return { kind: 'eval', value: await handle.evaluate((v) => v) };
      } catch (err) {
        if (err instanceof EngineFailure) throw err;
        throw new EngineFailure(renderMessage('evalThrew', { label, cause: firstLine(err) }), 'page');
      } finally {
        await handle.dispose().catch(() => undefined);
      }
    }
  }
}

function firstLine(err: unknown): string {
  const msg = err instanceof Error ? err.message : String(err);
  return msg
    .replace(/^page\.\w+: /, '')
    .split('\n')
    .find((l) => l.trim() !== '' && !/^=+/.test(l.trim()))
    ?.trim() ?? msg;
}
