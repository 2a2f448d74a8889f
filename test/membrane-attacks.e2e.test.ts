// Attacks on the membrane (issue 22, items 10-12), each through `gstack run` on a real Chromium,
// each with the variants that got through before: a Playwright object reached through a
// property descriptor and used across calls; raw CDP given String objects, `toJSON` and getters
// so that its checks saw something else than what was sent; trace names and storage-state files
// outside pwd, and a file's bytes in the error that refused it.
// Run alone: npm run build && node --import tsx --test test/membrane-attacks.e2e.test.ts
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';
import { BIN, runCli } from './helpers/cli.js';

let site: FixtureServer;
let work: string;
let home: string;
let outside: string; // nothing may be written here, nothing read from here
const SESSION = 'membrane-attacker';
before(async () => {
  assert.ok(existsSync(BIN), `build first: npm run build (missing ${BIN})`);
  site = await startFixtureServer();
  work = realpathSync(mkdtempSync(join(tmpdir(), 'gstack-membrane-')));
  home = join(work, 'home');
  outside = realpathSync(mkdtempSync(join(tmpdir(), 'gstack-outside-')));
  writeFileSync(join(outside, 'secret.txt'), 'TOP-SECRET-BYTES-7f3a');
  // Another project's storage state: a cookie for the fixture site that must never load.
  writeFileSync(join(outside, 'state.json'), JSON.stringify({ cookies: [{ name: 'stolen', value: 'STOLEN-COOKIE-9c1e', domain: '127.0.0.1', path: '/', expires: -1, httpOnly: false, secure: false, sameSite: 'Lax' }], origins: [] }));
});
after(async () => {
  await runCli(['sessions', 'stop', '--session', SESSION], { cwd: work, env: { GSTACK_HOME: home, GSTACK_HOUSEKEEPING: '0' } });
  await site?.close();
});

const lit = (s: string) => JSON.stringify(s);
/** A call of the attacker's session, served by its session host (calls share its browser). */
const run = (script: string) => runCli(['run', script, '--session', SESSION], { cwd: work, env: { GSTACK_HOME: home, GSTACK_HOUSEKEEPING: '0' } });

/** Each attempt in its own try/catch: `<name> refused: <message>` or `<name> ALLOWED`. */
function attempts(entries: Record<string, string>): string {
  return Object.entries(entries)
    .map(([name, body]) => `try { await (async () => { ${body} })(); console.log(${lit(name)} + " ALLOWED"); } catch (e) { console.log(${lit(name)} + " refused: " + e.message); }`)
    .join('\n');
}

test('10. no trap of a proxy hands out a Playwright object: descriptors, keys, prototypes, across calls', { timeout: 120_000 }, async () => {
  const r = await run(`
    const pg = await openTab(${lit(site.url + 'form.html')});
    const probes = {
      pageDescriptor: Object.getOwnPropertyDescriptor(pg, "_mainFrame"),
      reflectDescriptor: Reflect.getOwnPropertyDescriptor(pg, "_mainFrame"),
      allDescriptors: Object.entries(Object.getOwnPropertyDescriptors(pg)).filter(([k]) => k.startsWith("_")).length,
      contextDescriptor: Object.getOwnPropertyDescriptor(pg.context(), "_browser"),
      locatorDescriptor: Object.getOwnPropertyDescriptor(pg.locator("body"), "_frame"),
      keyboardDescriptor: Object.getOwnPropertyDescriptor(pg.keyboard, "_page"),
      keyboardViaDescriptor: Object.getOwnPropertyDescriptor(Object.getOwnPropertyDescriptor(pg, "keyboard")?.value ?? {}, "_page"),
      prototype: Object.getPrototypeOf(pg),
      protoField: pg.__proto__,
      keys: Reflect.ownKeys(pg).filter((k) => typeof k !== "string" || k.startsWith("_")).length,
      inOperator: "_mainFrame" in pg,
      spread: Object.keys({ ...pg }).filter((k) => k.startsWith("_")).length,
    };
    for (const [k, v] of Object.entries(probes)) console.log("PROBE " + k + "=" + (v === undefined ? "undefined" : JSON.stringify(v)));
    ${attempts({
      redefine: `Object.defineProperty(pg, "goto", { value: () => 1 })`,
      reproto: `Object.setPrototypeOf(pg, {})`,
      freeze: `Object.freeze(pg)`,
      // The red-team's attack: a raw frame's page, a route that outlives the call, a screenshot outside pwd.
      rawRoute: `const f = Object.getOwnPropertyDescriptor(pg, "_mainFrame").value; await f.page().context().route("**/*", (r) => r.fulfill({ body: "<title>INJECTED BY PREVIOUS CALL</title>", contentType: "text/html" }))`,
      rawShot: `const f = Object.getOwnPropertyDescriptor(pg, "_mainFrame").value; await f.page().screenshot({ path: ${lit(join(outside, 'raw.png'))} })`,
    })}
    console.log("GSTACK_STEP_OK");`);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  for (const k of ['pageDescriptor', 'reflectDescriptor', 'contextDescriptor', 'locatorDescriptor', 'keyboardDescriptor', 'keyboardViaDescriptor']) {
    assert.match(r.stdout, new RegExp(`^PROBE ${k}=undefined$`, 'm'), `${k}\n${r.stdout}`);
  }
  for (const k of ['allDescriptors', 'keys', 'spread']) assert.match(r.stdout, new RegExp(`^PROBE ${k}=0$`, 'm'), k);
  assert.match(r.stdout, /^PROBE prototype=null$/m);
  assert.match(r.stdout, /^PROBE protoField=undefined$/m);
  assert.match(r.stdout, /^PROBE inOperator=false$/m);
  for (const k of ['redefine', 'reproto', 'freeze']) assert.match(r.stdout, new RegExp(`^${k} refused: .*read-only`, 'm'), k);
  assert.match(r.stdout, /^rawRoute refused: /m);
  assert.match(r.stdout, /^rawShot refused: /m);
  assert.ok(!r.stdout.includes(' ALLOWED'), r.stdout);
  assert.deepEqual(readdirSync(outside).sort(), ['secret.txt', 'state.json']);

  // The next call of the session sees the site, not a route left by the previous one.
  const next = await run(`const pg = await openTab(${lit(site.url + 'form.html')}); console.log("TITLE=" + await pg.title()); console.log("GSTACK_STEP_OK");`);
  assert.equal(next.code, 0, next.stdout + next.stderr);
  assert.doesNotMatch(next.stdout, /INJECTED/);
});

test('11. raw CDP: String objects, toJSON and getters are made plain data before the allow-list and path checks', { timeout: 120_000 }, async () => {
  mkdirSync(join(work, 'unused'), { recursive: true });
  const secret = lit(join(outside, 'secret.txt'));
  const r = await run(`
    const pg = await openTab(${lit(site.url + 'form.html')});
    await pg.setContent('<input type="file" id="f"><div id="drop" style="width:100px;height:100px">drop</div>');
    const { root } = await pg._sendToTarget("DOM.getDocument", {});
    const { nodeId } = await pg._sendToTarget("DOM.querySelector", { nodeId: root.nodeId, selector: "#f" });
    const cdp = await pg.context().newCDPSession(pg);
    const chosen = () => pg.evaluate(() => [...document.getElementById("f").files].map((f) => f.name + ":" + f.size).join(","));
    ${attempts({
      stringMethod: `await pg._sendToTarget(new String("DOM.setFileInputFiles"), { nodeId, files: [${secret}] })`,
      toJSONParams: `await pg._sendToTarget("DOM.setFileInputFiles", { toJSON: () => ({ nodeId, files: [${secret}] }) })`,
      toJSONFiles: `await pg._sendToTarget("DOM.setFileInputFiles", { nodeId, files: { toJSON: () => [${secret}] } })`,
      getterFiles: `let n = 0; await pg._sendToTarget("DOM.setFileInputFiles", { nodeId, get files() { return n++ === 0 ? ["inside.txt"] : [${secret}]; } })`,
      sessionStringMethod: `await cdp.send(new String("DOM.setFileInputFiles"), { nodeId, files: [${secret}] })`,
      sessionToJSONParams: `await cdp.send("DOM.setFileInputFiles", { toJSON: () => ({ nodeId, files: [${secret}] }) })`,
      downloadsToJSONMethod: `await pg._sendToTarget({ toJSON: () => "Browser.setDownloadBehavior" }, { behavior: "allow", downloadPath: ${lit(outside)} })`,
      downloadsSession: `await cdp.send(new String("Browser.setDownloadBehavior"), { behavior: "allow", downloadPath: ${lit(outside)} })`,
      dragFiles: `await pg._sendToTarget("Input.dispatchDragEvent", { type: "dragEnter", x: 10, y: 50, data: { items: [], files: [${secret}], dragOperationsMask: 1 } })`,
      dragFilesToJSON: `await cdp.send("Input.dispatchDragEvent", { type: "dragEnter", x: 10, y: 50, data: { items: [], files: { toJSON: () => [${secret}] }, dragOperationsMask: 1 } })`,
      otherDomain: `await pg._sendToTarget("Extensions.loadUnpacked", { path: ${lit(outside)} })`,
      fileNavigateToJSON: `await pg._sendToTarget("Page.navigate", { url: { toJSON: () => "file://" + ${lit(join(outside, 'secret.txt'))} } })`,
    })}
    console.log("CHOSEN_AFTER_ATTACKS=" + await chosen());
    // The same method with a file under pwd works: the page gets a copy of it.
    await fs.writeFile(path.join(pwd, "inside.txt"), "hello");
    await pg._sendToTarget("DOM.setFileInputFiles", { nodeId, files: ["inside.txt"] });
    console.log("CHOSEN_INSIDE=" + await chosen());
    console.log("URL=" + pg.url());
    console.log("GSTACK_STEP_OK");`);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  for (const k of ['stringMethod', 'toJSONParams', 'toJSONFiles', 'sessionStringMethod', 'sessionToJSONParams', 'dragFiles', 'dragFilesToJSON']) {
    assert.match(r.stdout, new RegExp(`^${k} refused: .*may only read and write inside pwd`, 'm'), `${k}\n${r.stdout}`);
  }
  // The getter was read once: the file it named then (inside pwd) is what was sent.
  assert.match(r.stdout, /^getterFiles (ALLOWED|refused: .*inside\.txt)/m);
  for (const k of ['downloadsToJSONMethod', 'downloadsSession']) assert.match(r.stdout, new RegExp(`^${k} refused: Browser\\.setDownloadBehavior is not available in a flow script: .*saveAs`, 'm'), k);
  assert.match(r.stdout, /^otherDomain refused: The CDP domain Extensions is not available/m);
  assert.match(r.stdout, /^fileNavigateToJSON refused: Refused to open "file:/m);
  assert.match(r.stdout, /^CHOSEN_AFTER_ATTACKS=(inside\.txt:\d+)?$/m, 'no file from outside pwd reached the input');
  assert.match(r.stdout, /^CHOSEN_INSIDE=inside\.txt:5$/m);
  assert.match(r.stdout, /^URL=http:\/\/127\.0\.0\.1/m);
  assert.doesNotMatch(r.stdout, /TOP-SECRET-BYTES/);
  assert.deepEqual(readdirSync(outside).sort(), ['secret.txt', 'state.json']);
});

test('12. trace names and storage-state files stay in pwd, and a refused file is never quoted', { timeout: 120_000 }, async () => {
  const r = await run(`
    const pg = await openTab(${lit(site.url + 'form.html')});
    const ctx = pg.context();
    await fs.writeFile(path.join(pwd, "not-state.json"), "MARKER-NOT-JSON-41d2 {");
    await fs.writeFile(path.join(pwd, "wrong-shape.json"), JSON.stringify({ hello: "MARKER-WRONG-SHAPE-77ab" }));
    ${attempts({
      traceDotDot: `await ctx.tracing.start({ name: "../../../../../../../" + ${lit(outside.slice(1))} + "/trace-escape" })`,
      traceAbsolute: `await ctx.tracing.start({ name: ${lit(join(outside, 'abs'))} })`,
      traceFolder: `await ctx.tracing.start({ name: "a/b" })`,
      traceStringObject: `await ctx.tracing.start({ name: new String("../x") })`,
      traceChunk: `await ctx.tracing.start({}); try { await ctx.tracing.startChunk({ name: "../../chunk" }); } finally { await ctx.tracing.stop(); }`,
      stateOutside: `await ctx.setStorageState(${lit(join(outside, 'state.json'))})`,
      stateRelative: `await ctx.setStorageState("../../../../../../../../" + ${lit(join(outside, 'state.json').slice(1))})`,
      stateStringObject: `await ctx.setStorageState(new String(${lit(join(outside, 'state.json'))}))`,
      statePasswd: `await ctx.setStorageState("/etc/passwd")`,
      stateNotJson: `await ctx.setStorageState(path.join(pwd, "not-state.json"))`,
      stateWrongShape: `await ctx.setStorageState("wrong-shape.json")`,
      stateSaveOutside: `await ctx.storageState({ path: ${lit(join(outside, 'saved.json'))} })`,
    })}
    // The documented ways work: a plain trace name, a trace and a state written and read under pwd.
    await ctx.tracing.start({ name: "run1" });
    await pg.reload();
    await ctx.tracing.stop({ path: path.join(pwd, "trace.zip") });
    console.log("TRACE_BYTES=" + (await fs.stat(path.join(pwd, "trace.zip"))).size);
    await ctx.storageState({ path: "state.json" });
    await ctx.setStorageState("state.json");
    console.log("COOKIES=" + (await ctx.cookies()).map((c) => c.name).join(","));
    console.log("GSTACK_STEP_OK");`);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  for (const k of ['traceDotDot', 'traceAbsolute', 'traceFolder', 'traceStringObject', 'traceChunk']) {
    assert.match(r.stdout, new RegExp(`^${k} refused: tracing.start\\(\\{ name \\}\\) refused .*plain file name`, 'm'), `${k}\n${r.stdout}`);
  }
  for (const k of ['stateOutside', 'stateRelative', 'statePasswd', 'stateSaveOutside']) {
    assert.match(r.stdout, new RegExp(`^${k} refused: .*may only read and write inside pwd`, 'm'), `${k}\n${r.stdout}`);
  }
  assert.match(r.stdout, /^stateStringObject refused: /m);
  for (const k of ['stateNotJson', 'stateWrongShape']) assert.match(r.stdout, new RegExp(`^${k} refused: setStorageState\\(\\) refused .*not a Playwright storage-state JSON file`, 'm'), k);
  assert.ok(!r.stdout.includes(' ALLOWED'), r.stdout);
  // No byte of a refused file is printed: not the outside state's cookie, not /etc/passwd, not a file in pwd.
  assert.doesNotMatch(r.stdout + r.stderr, /STOLEN-COOKIE|root:|MARKER-NOT-JSON|MARKER-WRONG-SHAPE|SyntaxError/);
  assert.doesNotMatch(r.stdout, /^COOKIES=.*stolen/m);
  assert.match(r.stdout, /^TRACE_BYTES=[1-9]\d+$/m);
  assert.deepEqual(readdirSync(outside).sort(), ['secret.txt', 'state.json'], 'nothing was written outside pwd');
  assert.ok(!existsSync(join(outside, 'trace-escape.trace')));
});

test('13. drop({ files }) reads only files under pwd, and the page never gets a byte of one outside it', { timeout: 120_000 }, async () => {
  const r = await run(`
    const pg = await openTab(${lit(site.url + 'form.html')});
    await pg.setContent('<div id="zone" style="width:200px;height:60px">drop</div><p id="out"></p><script>zone.ondragover = (e) => e.preventDefault(); zone.ondrop = async (e) => { e.preventDefault(); out.textContent = (await Promise.all([...e.dataTransfer.files].map(async (f) => f.name + ":" + (await f.text())))).join(","); };</script>');
    ${attempts({
      dropAbsolute: `await pg.locator("#zone").drop({ files: ${lit(join(outside, 'secret.txt'))} })`,
      dropRelative: `await pg.locator("#zone").drop({ files: ["../../../../../../../../" + ${lit(join(outside, 'secret.txt').slice(1))}] })`,
      dropStringObject: `await pg.locator("#zone").drop({ files: new String(${lit(join(outside, 'secret.txt'))}) })`,
    })}
    console.log("OUT=" + await pg.textContent("#out"));
    await fs.writeFile(path.join(pwd, "mine.txt"), "MINE");
    await pg.locator("#zone").drop({ files: "mine.txt", data: { "text/plain": "t" } });
    console.log("OWN=" + await pg.textContent("#out"));
    console.log("GSTACK_STEP_OK");`);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  for (const k of ['dropAbsolute', 'dropRelative']) {
    assert.match(r.stdout, new RegExp(`^${k} refused: drop\\(\\{ files \\}\\) refused .*may only read and write inside pwd`, 'm'), `${k}\n${r.stdout}`);
  }
  assert.match(r.stdout, /^dropStringObject refused: drop\(\{ files \}\) refused/m);
  assert.ok(!r.stdout.includes(' ALLOWED'), r.stdout);
  assert.doesNotMatch(r.stdout + r.stderr, /TOP-SECRET-BYTES/);
  assert.match(r.stdout, /^OWN=mine\.txt:MINE$/m);
});
