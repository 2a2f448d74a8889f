// The Aside render script: one whole render as a flow script for `aside repl`, which runs it as
// the body of an async function in a fresh sandbox of the user's Aside browser.
// engines/aside-render.ts reads this file as text and puts one line before it,
// `const job = {...};` (JSON): the page URLs, the waits, the steps (each with the file it writes
// under pwd; a PDF step with its resolved Page.printToPDF parameters), the lines to print, and
// RENDER_MESSAGES (api/messages.ts), so a failure reads the same as on Chromium. Nothing else
// comes from outside.
//
// Only what Aside offers is used, and a test checks it against driver/catalog.json: the globals
// openTab, closeTab, sleep, pwd, fs, path, Buffer and console; on the Page goto, evaluate and
// _sendToTarget (raw CDP); pg.on and pg.route only after testing that the Page has them.
// PDFs go through Page.printToPDF (so header/footer templates, tagged PDF and the outline work as
// on Chromium), sized screenshots through Emulation.setDeviceMetricsOverride and
// Page.captureScreenshot.
const pageErrors = [];
const blocked = [];
const describe = (e) => (e && e.name && e.name !== 'Error' ? e.name : 'Error') + ': ' + (e && e.message !== undefined ? e.message : String(e));
const firstLine = (e) => String(e && e.message).split('\n')[0];
// The same rule as fillMessage in api/messages.ts: each {slot} becomes its value, in one pass.
const say = (name, values) => job.messages[name].replace(/\{(\w+)\}/g, (whole, key) => (key in values ? String(values[key]) : whole));
const pg = await openTab('about:blank');
console.log(job.lines.started);
console.log(job.lines.asideDir + pwd);
const cdp = (method, params) => pg._sendToTarget(method, params || {});
const fail = (msg) => { throw new Error(msg); };
const label = (i) => say('stepLabel', { n: i + 1, kind: job.steps[i].kind });
const settle = () => pg.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))');
try {
  const listens = typeof pg.on === 'function';
  if (listens) pg.on('pageerror', (e) => pageErrors.push(describe(e)));
  // Offline: intercept (and list) foreign requests when this Page can; otherwise load the
  // page under the server's offline Content-Security-Policy, which blocks them in the browser.
  let target = job.url;
  if (!job.allowNetwork) {
    let routed = false;
    if (typeof pg.route === 'function') {
      try {
        await pg.route((u) => !String(u).startsWith(job.origin + '/'), (route) => {
          blocked.push(route.request().url());
          return route.abort('blockedbyclient');
        });
        routed = true;
      } catch (e) {
        routed = false;
      }
    }
    if (!routed) target = job.offlineUrl;
  }
  await cdp('Emulation.setDeviceMetricsOverride', { width: job.viewport.width, height: job.viewport.height, deviceScaleFactor: job.dsf, mobile: false });
  if (job.media) await cdp('Emulation.setEmulatedMedia', { media: job.media });

  const deadline = Date.now() + job.waitTimeoutMs;
  let response;
  try {
    response = await pg.goto(target, { waitUntil: 'load', timeout: job.waitTimeoutMs });
  } catch (e) {
    fail(say('loadTimeout', { ms: job.waitTimeoutMs, cause: firstLine(e) }));
  }
  if (response && typeof response.ok === 'function' && !response.ok()) fail(say('pageStatus', { status: response.status() }));
  if (!listens) {
    // Without page events, collect what the page throws from here on.
    await pg.evaluate("window.__gstackRenderErrors = []; addEventListener('error', (e) => __gstackRenderErrors.push((e.error && e.error.name || 'Error') + ': ' + (e.error ? e.error.message : e.message))); addEventListener('unhandledrejection', (e) => __gstackRenderErrors.push((e.reason && e.reason.name || 'Error') + ': ' + (e.reason && e.reason.message !== undefined ? e.reason.message : String(e.reason)))); true");
  }

  if (job.waitSelector !== null) {
    for (;;) {
      let found = false;
      try {
        found = await pg.evaluate('!!document.querySelector(' + JSON.stringify(job.waitSelector) + ')');
      } catch (e) {
        fail(say('waitSelectorInvalid', { selector: job.waitSelector, cause: firstLine(e) }));
      }
      if (found) break;
      if (Date.now() + 100 > deadline) fail(say('waitSelectorTimeout', { selector: job.waitSelector, ms: job.waitTimeoutMs }));
      await sleep(100);
    }
  }
  if (job.waitExpression !== null) {
    let lastError = '';
    for (;;) {
      let ok = false;
      let settled = true;
      try {
        // A promise the page never settles gets what is left of --wait-timeout (at least 2 s, so
        // an answer that is only late is still read), not --timeout.
        const notSettled = {};
        const evaluated = pg.evaluate(job.waitExpression);
        evaluated.catch(() => undefined);
        const value = await Promise.race([evaluated, sleep(Math.max(2000, deadline - Date.now())).then(() => notSettled)]);
        settled = value !== notSettled;
        ok = settled && value;
        if (settled) lastError = '';
      } catch (e) {
        const msg = firstLine(e);
        if (/SyntaxError/.test(msg)) fail(say('waitExprInvalid', { cause: msg }));
        lastError = msg;
      }
      if (!settled) fail(say('waitExprTimeout', { ms: job.waitTimeoutMs, lastError: say('lastError', { cause: lastError || 'its promise had not settled' }) }));
      if (ok) break;
      if (Date.now() + 100 > deadline) fail(say('waitExprTimeout', { ms: job.waitTimeoutMs, lastError: lastError ? say('lastError', { cause: lastError }) : '' }));
      await sleep(100);
    }
  }

  for (let i = 0; i < job.steps.length; i++) {
    const step = job.steps[i];
    const file = path.join(pwd, step.file);
    if (step.kind === 'pdf') {
      let res;
      try {
        res = await cdp('Page.printToPDF', step.params);
      } catch (e) {
        fail(say('stepFailed', { label: label(i), cause: firstLine(e) }));
      }
      await fs.writeFile(file, Buffer.from(res.data, 'base64'));
    } else if (step.kind === 'screenshot') {
      const width = step.width !== null ? step.width : job.viewport.width;
      const height = step.height !== null ? step.height : job.viewport.height;
      await cdp('Emulation.setDeviceMetricsOverride', { width, height, deviceScaleFactor: job.dsf, mobile: false });
      if (step.omitBackground) await cdp('Emulation.setDefaultBackgroundColorOverride', { color: { r: 0, g: 0, b: 0, a: 0 } });
      try {
        await settle();
        let clip;
        if (step.selector !== null) {
          const box = await pg.evaluate('(() => { const el = document.querySelector(' + JSON.stringify(step.selector) + '); if (!el) return null; const b = el.getBoundingClientRect(); return { x: b.left + scrollX, y: b.top + scrollY, width: b.width, height: b.height }; })()');
          if (!box) fail(say('selectorNoMatch', { label: label(i), selector: step.selector }));
          clip = { x: box.x, y: box.y, width: Math.max(1, box.width), height: Math.max(1, box.height), scale: 1 };
        } else if (!step.viewportOnly) {
          const m = await cdp('Page.getLayoutMetrics');
          const size = m.cssContentSize || m.contentSize;
          clip = { x: 0, y: 0, width: Math.max(width, Math.ceil(size.width)), height: Math.max(height, Math.ceil(size.height)), scale: 1 };
        }
        const params = { format: step.format, fromSurface: true, captureBeyondViewport: !!clip };
        if (clip) params.clip = clip;
        if (step.format === 'jpeg' && step.quality !== null) params.quality = step.quality;
        const shot = await cdp('Page.captureScreenshot', params);
        await fs.writeFile(file, Buffer.from(shot.data, 'base64'));
      } finally {
        await cdp('Emulation.setDeviceMetricsOverride', { width: job.viewport.width, height: job.viewport.height, deviceScaleFactor: job.dsf, mobile: false });
        if (step.omitBackground) await cdp('Emulation.setDefaultBackgroundColorOverride', {});
      }
    } else {
      let value;
      try {
        value = await pg.evaluate(step.expression);
      } catch (e) {
        fail(say('evalThrew', { label: label(i), cause: firstLine(e) }));
      }
      await fs.writeFile(file, JSON.stringify({ value }));
    }
  }
  if (!listens) {
    const late = await pg.evaluate('window.__gstackRenderErrors || []').catch(() => []);
    pageErrors.push(...late);
  }
  await fs.writeFile(path.join(pwd, job.metaFile), JSON.stringify({ pageErrors, blocked }));
} finally {
  await closeTab(pg);
}
console.log('GSTACK_STEP_OK');
