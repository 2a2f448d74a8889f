// Attacks on `pwd` confinement through the Playwright surface (issue 14, items 1 and 2): the
// scripts an attacker, or a careless agent, would write to write outside the call's artifact
// directory or to hand local files to a page. Each must fail with an actionable error, and
// nothing may appear outside pwd. Real CLI, real Chromium, real loopback server.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';
import { runCli, tempHome } from './helpers/cli.js';

let site: FixtureServer;
let home: string;
let outside: string; // a directory outside every pwd: nothing may be written here
let secret: string; // a local file no page may read
before(async () => {
  site = await startFixtureServer();
  home = tempHome();
  outside = mkdtempSync(join(tmpdir(), 'gstack-outside-'));
  secret = join(outside, 'secret.txt');
  writeFileSync(secret, 'TOP-SECRET-CONTENT');
});
after(async () => {
  await runCli(['sessions', 'stop', '--all'], { env: { GSTACK_HOME: home } });
  await site.close();
  await rm(outside, { recursive: true, force: true });
});

const lit = (s: string) => JSON.stringify(s);
const run = (script: string, extra: string[] = []) => runCli(['run', script, '--session', 'attacker', ...extra], { env: { GSTACK_HOME: home } });

/** Runs each attempt in its own try/catch and prints `<name> refused: <message>` or
 * `<name> ALLOWED`; the page content is then checked for leaked file text. */
function attempts(entries: Record<string, string>): string {
  return Object.entries(entries)
    .map(([name, body]) => `try { await (async () => { ${body} })(); console.log(${lit(name)} + " ALLOWED"); } catch (e) { console.log(${lit(name)} + " refused: " + e.message); }`)
    .join('\n');
}

test('writes outside pwd through every object reachable from a Page are refused', { timeout: 120_000 }, async () => {
  const p = (name: string) => lit(join(outside, name));
  const r = await run(`
    const pg = await openTab(${lit(site.url + 'form.html')});
    ${attempts({
      elementHandleShot: `await (await pg.$("body")).screenshot({ path: ${p('a.png')} })`,
      frameBackRefShot: `await pg.mainFrame().page().screenshot({ path: ${p('b.png')} })`,
      locatorShot: `await pg.locator("body").screenshot({ path: ${p('c.png')} })`,
      contextStorageState: `await pg.context().storageState({ path: ${p('cookies.json')} })`,
      requestStorageState: `await pg.context().request.storageState({ path: ${p('req.json')} })`,
      pagePdf: `await pg.pdf({ path: ${p('d.pdf')} })`,
      tracing: `await pg.context().tracing.start({ screenshots: false }); await pg.context().tracing.stop({ path: ${p('trace.zip')} })`,
      relativeEscape: `await pg.screenshot({ path: "../../escape.png" })`,
      cdpDownloads: `await pg._sendToTarget("Page.setDownloadBehavior", { behavior: "allow", downloadPath: ${lit(outside)} })`,
    })}
    await pg.screenshot({ path: "inside.png" });
    console.log("GSTACK_STEP_OK");`);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  for (const name of ['elementHandleShot', 'frameBackRefShot', 'locatorShot', 'contextStorageState', 'requestStorageState', 'pagePdf', 'tracing', 'relativeEscape', 'cdpDownloads']) {
    assert.match(r.stdout, new RegExp(`^${name} refused: .*(may only read and write inside pwd|refused)`, 'm'), `${name}\n${r.stdout}`);
  }
  assert.deepEqual(readdirSync(outside), ['secret.txt'], 'nothing was written outside pwd');
  assert.ok(!r.stdout.includes(' ALLOWED'), r.stdout);
});

test('local files cannot be handed to a page: uploads, fulfilled routes, init scripts, file: URLs, raw CDP', { timeout: 120_000 }, async () => {
  const r = await run(`
    const pg = await openTab(${lit(site.url + 'form.html')});
    await pg.setContent('<input type=file id=f>');
    ${attempts({
      locatorUpload: `await pg.locator("#f").setInputFiles(${lit(secret)})`,
      pageUpload: `await pg.setInputFiles("#f", [${lit(secret)}])`,
      handleUpload: `await (await pg.$("#f")).setInputFiles(${lit(secret)})`,
      // The refusal happens inside the route handler: it aborts the request and reports it.
      routeFulfill: `let why = "not refused"; await pg.route("**/leak", async (route) => { try { await route.fulfill({ path: ${lit(secret)} }); } catch (e) { why = e.message; await route.abort(); } }); const t = await pg.evaluate(() => fetch("/leak").then((r) => r.text()).catch(() => "failed")); if (t.includes("TOP-SECRET")) throw new Error("NOT REFUSED: " + t); throw new Error(why);`,
      initScriptPath: `await pg.addInitScript({ path: ${lit(secret)} })`,
      scriptTagPath: `await pg.addScriptTag({ path: ${lit(secret)} })`,
      openTabFile: `await openTab(${lit('file://' + secret)})`,
      gotoFile: `await pg.goto(${lit('file://' + secret)})`,
      viewSource: `await pg.goto(${lit('view-source:file://' + secret)})`,
      cdpNavigate: `await pg._sendToTarget("Page.navigate", { url: ${lit('file://' + secret)} })`,
      cdpFileInput: `const doc = await pg._sendToTarget("DOM.getDocument", {}); const q = await pg._sendToTarget("DOM.querySelector", { nodeId: doc.root.nodeId, selector: "#f" }); await pg._sendToTarget("DOM.setFileInputFiles", { nodeId: q.nodeId, files: [${lit(secret)}] })`,
      cdpSession: `const s = await pg.context().newCDPSession(pg); await s.send("Page.navigate", { url: ${lit('file://' + secret)} })`,
    })}
    // A page that navigates itself to file: (renderer-initiated) is blocked by Chromium.
    await pg.evaluate((u) => { location.href = u; }, ${lit('file://' + secret)}).catch(() => {});
    await sleep(300);
    const content = await pg.content();
    console.log("LEAKED=" + content.includes("TOP-SECRET"));
    const files = await pg.evaluate(() => document.getElementById("f")?.files?.length ?? 0);
    console.log("FILES=" + files);
    console.log("GSTACK_STEP_OK");`);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  for (const name of ['locatorUpload', 'pageUpload', 'handleUpload', 'routeFulfill', 'initScriptPath', 'scriptTagPath', 'cdpFileInput']) {
    assert.match(r.stdout, new RegExp(`^${name} refused: .*may only read and write inside pwd`, 'm'), `${name}\n${r.stdout}`);
  }
  for (const name of ['openTabFile', 'gotoFile', 'viewSource', 'cdpNavigate', 'cdpSession']) {
    assert.match(r.stdout, new RegExp(`^${name} refused: Refused to open .*file: URLs are off.*--allow-file-urls`, 'm'), `${name}\n${r.stdout}`);
  }
  assert.match(r.stdout, /^LEAKED=false$/m);
  assert.match(r.stdout, /^FILES=0$/m);
  assert.ok(!r.stdout.includes('TOP-SECRET'), 'no local file text in the output');
});

test('files inside pwd still work for uploads and routes; --allow-file-urls lets a call open file: URLs', { timeout: 120_000 }, async () => {
  const r = await run(`
    await fs.writeFile("upload.txt", "mine");
    const pg = await openTab(${lit(site.url + 'form.html')});
    await pg.setContent('<input type=file id=f>');
    await pg.locator("#f").setInputFiles("upload.txt");
    console.log("FILES=" + await pg.evaluate(() => document.getElementById("f").files[0].name));
    const tab = await openTab(${lit('file://' + secret)});
    console.log("FILE_TEXT=" + (await tab.content()).includes("TOP-SECRET-CONTENT"));
    console.log("GSTACK_STEP_OK");`, ['--allow-file-urls']);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /^FILES=upload\.txt$/m);
  assert.match(r.stdout, /^FILE_TEXT=true$/m, 'allowed for this call only');
  const next = await run(`await openTab(${lit('file://' + secret)}); console.log("GSTACK_STEP_OK");`);
  assert.equal(next.code, 1, 'the next call without the flag refuses again');
  assert.match(next.lines.at(-1) ?? '', /file: URLs are off/);
  assert.ok(!existsSync(join(outside, 'upload.txt')));
});
