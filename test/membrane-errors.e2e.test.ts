// Errors Playwright raises through the membrane (issue 24, "Errors"): each of the common ones a
// script meets, raised for real on test/fixtures/site/fidelity.html through `gstack run`, reads
// as what happened and then what to do next, without Playwright's call log. The message a script
// catches is the one the `[error]` line would carry (driver/errors.ts `rewriteError`).
// Run alone: npm run build && node --import tsx --test test/membrane-errors.e2e.test.ts
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';
import { BIN, runCli, tempHome } from './helpers/cli.js';

let site: FixtureServer;
before(async () => {
  assert.ok(existsSync(BIN), `build first: npm run build (missing ${BIN})`);
  site = await startFixtureServer();
});
after(async () => {
  await site?.close();
});

/** Each case: the body that throws, and the next step its message must end with. */
const CASES: Record<string, { body: string; next: RegExp }> = {
  locatorTimeout: { body: `await pg.locator("#nowhere").click({ timeout: 500 });`, next: /snapshot\(pg.*ref|raise \{ timeout \}/ },
  locatorTextTimeout: { body: `await pg.getByRole("button", { name: "No such button" }).textContent({ timeout: 500 });`, next: /snapshot\(pg.*ref|raise \{ timeout \}/ },
  strictMode: { body: `await pg.locator("li").click({ timeout: 2000 });`, next: /To act on one, narrow it .* or act by its ref from snapshot\(pg, \{ interactive: true \}\)/ },
  detachedElement: {
    body: `const h = await pg.$("#src"); await pg.evaluate(() => document.getElementById("src").remove()); await h.click({ timeout: 1000 });`,
    next: /Take a new snapshot and use the new ref/,
  },
  navigationRefused: { body: `await pg.goto(closedUrl);`, next: /check that the server is running/ },
  navigationUnsafePort: { body: `await pg.goto("http://127.0.0.1:1/");`, next: /serve the site on another port/ },
  navigationNoHost: { body: `await pg.goto("http://no-such-host.invalid/");`, next: /check the URL for typos/ },
  navigationTimeout: { body: `await pg.goto(url.replace("fidelity.html", "slow?ms=3000"), { timeout: 300 });`, next: /check the URL, or wait for a specific element/ },
  closedPage: { body: `const p2 = await openTab(url); await p2.close(); await p2.title();`, next: /Do not use a page after closeTab\(\)/ },
  closedPageLocator: { body: `const p2 = await openTab(url); const l = p2.locator("h1"); await p2.close(); await l.click();`, next: /Do not use a page after closeTab\(\)/ },
  evaluateThrows: { body: `await pg.evaluate(() => { throw new Error("page-side boom"); });`, next: /pass script values as its argument/ },
  wrongElementKind: { body: `await pg.fill("h1", "x", { timeout: 2000 });`, next: /use the ref of a textbox, checkbox or combobox/ },
  innerFromOtherFrame: { body: `await pg.getByRole("row").filter({ has: pg.mainFrame().childFrames()[0].getByRole("button") }).count();`, next: /Build the inner locator from the same page or frame/ },
  frameLocatorInFilter: { body: `await pg.getByRole("row").filter({ has: pg.frameLocator("#frame").getByRole("button") }).count();`, next: /Build the whole locator inside the frame/ },
  waitForFunctionTimeout: { body: `await pg.waitForFunction(() => window.neverSet === true, undefined, { timeout: 300 });`, next: /pg\.evaluate it once|raise \{ timeout \}/ },
  waitForResponseTimeout: { body: `await pg.waitForResponse("**/never-requested", { timeout: 300 });`, next: /Start waiting before the action that sends it/ },
  badSelector: { body: `await pg.locator("#a[").click({ timeout: 500 });`, next: /\.\s*\S.*\.$/ },
  notASelect: { body: `await pg.locator("h1").selectOption("x", { timeout: 2000 });`, next: /use the ref of a textbox, checkbox or combobox/ },
  // Playwright takes options only: a bare path returns the bytes and writes no file (C42).
  screenshotBarePath: { body: `await pg.screenshot("/tmp/shot.png");`, next: /Write it with screenshot\(\{ path: path\.join\(pwd, "shot\.png"\) \}\)\.$/ },
  pdfBarePath: { body: `await pg.pdf("report.pdf");`, next: /Write it with pdf\(\{ path: path\.join\(pwd, "report\.pdf"\) \}\)\.$/ },
  locatorScreenshotBarePath: { body: `await pg.locator("h1").screenshot("h1.png");`, next: /Write it with screenshot\(\{ path: path\.join\(pwd, "h1\.png"\) \}\)\.$/ },
};

test('errors Playwright raises through the membrane end with what to do next', { timeout: 180_000 }, async () => {
  const url = site.url + 'fidelity.html';
  // A loopback port nothing listens on any more.
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const closedUrl = `http://127.0.0.1:${(probe.address() as AddressInfo).port}/`;
  await new Promise((resolve) => probe.close(resolve));
  const script = `
    const url = ${JSON.stringify(url)};
    const closedUrl = ${JSON.stringify(closedUrl)};
    for (const [name, fn] of [${Object.entries(CASES).map(([n, c]) => `[${JSON.stringify(n)}, async (pg) => { ${c.body} }]`).join(',\n')}]) {
      // A tab per case: a failed navigation leaves its tab on Chromium's error page.
      const pg = await openTab(url);
      try { await fn(pg); console.log("CASE " + name + " DID NOT THROW"); } catch (e) { console.log("CASE " + name + " " + JSON.stringify(String(e && e.message))); }
      await closeTab(pg);
    }
    console.log("GSTACK_STEP_OK");`;
  const r = await runCli(['run', script, '--ephemeral'], { env: { GSTACK_HOME: tempHome(), GSTACK_HOUSEKEEPING: '0' }, timeoutMs: 150_000 });
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const problems: string[] = [];
  for (const [name, c] of Object.entries(CASES)) {
    const line = r.lines.find((l) => l.startsWith(`CASE ${name} `));
    if (!line) {
      problems.push(`${name}: no output`);
      continue;
    }
    const rest = line.slice(`CASE ${name} `.length);
    if (rest === 'DID NOT THROW') {
      problems.push(`${name}: did not throw`);
      continue;
    }
    const message = JSON.parse(rest) as string;
    // What happened, then the next step: at least two sentences, the last one Playwright's
    // neither (no call log, no stack), and the expected step.
    const sentences = message.split(/(?<=[.!?])\s+(?=[A-Z(])/);
    if (sentences.length < 2) problems.push(`${name}: one sentence, no next step: ${message}`);
    if (/Call log|=== logs ===|\n\s+at /.test(message)) problems.push(`${name}: Playwright's call log or a stack: ${message}`);
    if (!c.next.test(message)) problems.push(`${name}: no next step matching ${c.next}: ${message}`);
  }
  assert.deepEqual(problems, [], 'errors without a next step');
});
