// The Playwright fidelity suite as data (issue 24; docs/ARCHITECTURE.md, "Playwright fidelity"):
// the checks (the same calls, run in order on test/fixtures/site/fidelity.html through gstack and
// on plain Playwright), the refusals (members the policy tables refuse, called as a script
// would), and what they cover: the coverage figure against the catalog's tables and the subset
// a script may run on Aside (the catalog's "aside": "yes" Page members).
//
// Owns: the check bodies, the flow script that runs them, and the coverage arithmetic. Not:
// running them (test/playwright-fidelity.e2e.test.ts, test/aside-fidelity.e2e.test.ts) or the
// figure's enforcement (test/playwright-policy.test.ts).
import type { Catalog } from '../../driver/catalog.js';

export interface Check {
  name: string;
  /** The `Class.member`s this check calls (each must be in the policy tables). */
  covers: string[];
  /** The body of an async function of (pg, ctx, path, pwd, fs, url, Buffer, wsUrl); returns JSON
   * data. `wsUrl` is a loopback WebSocket server that echoes `echo:<message>`. */
  body: string;
}

/** Run in this order on one page, through gstack and on plain Playwright. */
export const CHECKS: Check[] = [
  {
    name: 'filterHasGridcell',
    covers: ['Page.getByRole', 'Locator.filter', 'Locator.innerText'],
    body: `return await pg.getByRole("row").filter({ has: pg.getByRole("gridcell", { name: "Banana", exact: true }) }).innerText();`,
  },
  { name: 'filterHasNot', covers: ['Page.locator', 'Locator.filter', 'Locator.count'], body: `return await pg.locator("li").filter({ hasNot: pg.getByRole("button") }).count();` },
  { name: 'locatorOptionHas', covers: ['Page.locator', 'Locator.allInnerTexts'], body: `return await pg.locator("li", { has: pg.getByRole("button", { name: "Buy" }) }).allInnerTexts();` },
  { name: 'locatorOptionHasNot', covers: ['Page.locator', 'Locator.count'], body: `return await pg.locator("li", { hasNot: pg.locator("span") }).count();` },
  { name: 'filterHasText', covers: ['Locator.filter', 'Locator.textContent'], body: `return await pg.locator("li").filter({ hasText: "Cherry" }).textContent();` },
  { name: 'filterHasTextRegExp', covers: ['Locator.filter', 'Locator.allTextContents'], body: `return await pg.locator("li").filter({ hasText: /an/ }).allTextContents();` },
  { name: 'filterHasNotText', covers: ['Locator.filter', 'Locator.count'], body: `return await pg.locator("li").filter({ hasNotText: "Buy" }).count();` },
  { name: 'filterVisible', covers: ['Locator.filter', 'Locator.visible', 'Locator.count'], body: `return [await pg.locator("li").filter({ visible: true }).count(), await pg.locator("li").visible().count()];` },
  { name: 'andOr', covers: ['Locator.and', 'Locator.or', 'Page.getByText'], body: `return [await pg.getByRole("button").and(pg.getByText("Buy")).count(), await pg.locator("#name").or(pg.locator("#nothing")).count()];` },
  { name: 'nthFirstLast', covers: ['Locator.nth', 'Locator.first', 'Locator.last', 'Locator.innerText'], body: `const li = pg.locator("li"); return [await li.nth(1).innerText(), await li.first().innerText(), await li.last().textContent()];` },
  { name: 'locatorChain', covers: ['Locator.locator', 'Locator.getByRole', 'Locator.getByText', 'Locator.within'], body: `const grid = pg.locator("#grid"); return [await grid.locator("td").count(), await grid.getByRole("gridcell", { name: "7" }).count(), await grid.getByText("Apple").count()];` },
  {
    name: 'frameLocator',
    covers: ['Page.frameLocator', 'FrameLocator.getByRole', 'FrameLocator.locator', 'Locator.innerText'],
    body: `const f = pg.frameLocator("#frame"); return [await f.getByRole("button").innerText(), await f.locator("p").innerText()];`,
  },
  {
    name: 'contentFrame',
    covers: ['Locator.contentFrame', 'FrameLocator.getByText', 'FrameLocator.owner', 'Locator.count', 'Page.frames', 'Frame.url', 'Frame.childFrames', 'Page.mainFrame', 'Frame.parentFrame', 'Frame.name'],
    body: `const fl = pg.locator("#frame").contentFrame(); return [await fl.getByText("frame text").count(), await fl.owner().count(), pg.frames().length, pg.mainFrame().childFrames()[0].url(), pg.mainFrame().childFrames()[0].parentFrame() === pg.mainFrame(), pg.mainFrame().name()];`,
  },
  {
    name: 'elementHandleContentFrame',
    covers: ['Page.$', 'ElementHandle.contentFrame', 'Frame.textContent', 'Frame.frameElement', 'ElementHandle.getAttribute', 'Frame.page'],
    body: `const fr = await (await pg.$("#frame")).contentFrame(); return [await fr.textContent("p"), await (await fr.frameElement()).getAttribute("title"), fr.page() === pg];`,
  },
  {
    name: 'frameByUrl',
    covers: ['Page.frame', 'Frame.isDetached'],
    body: `const fr = pg.frame({ url: /srcdoc/ }); return [!!fr, fr && fr.isDetached()];`,
  },
  { name: 'handleAsEvaluateArg', covers: ['Page.$', 'Page.evaluate'], body: `const h = await pg.$("#grid"); return await pg.evaluate((el) => el.rows.length, h);` },
  {
    name: 'nestedHandles',
    covers: ['Page.$', 'Page.$$', 'Page.evaluate'],
    body: `const a = await pg.$("#name"); const list = await pg.$$("h1, #grid"); return await pg.evaluate(({ a, list, n }) => a.id + ":" + list.map((x) => x.tagName).join(",") + ":" + n, { a, list: [...list], n: 2 });`,
  },
  {
    name: 'evaluateHandleAndProperties',
    covers: ['Page.evaluateHandle', 'JSHandle.jsonValue', 'JSHandle.getProperty', 'JSHandle.getProperties', 'JSHandle.evaluate', 'JSHandle.dispose', 'JSHandle.asElement'],
    body: `const h = await pg.evaluateHandle(() => ({ a: 1, b: [2, 3] })); const props = await h.getProperties(); const out = [await h.jsonValue(), await (await h.getProperty("a")).jsonValue(), [...props.keys()], await props.get("b").evaluate((b) => b.length), h.asElement()]; await h.dispose(); return out;`,
  },
  {
    name: 'handleInEvaluateHandle',
    covers: ['Locator.elementHandle', 'Page.evaluateHandle', 'JSHandle.evaluate', 'ElementHandle.evaluate'],
    body: `const el = await pg.locator("h1").elementHandle(); const pair = await pg.evaluateHandle(([x, y]) => ({ x, y }), [el, 5]); return [await pair.evaluate((p) => p.x.textContent + p.y), await el.evaluate((e, suffix) => e.tagName + suffix, "!")];`,
  },
  { name: 'evalAndEvalAll', covers: ['Page.$eval', 'Page.$$eval', 'Locator.evaluateAll', 'Locator.evaluate'], body: `return [await pg.$eval("h1", (e) => e.title), await pg.$$eval("li", (els) => els.length), await pg.locator("td").evaluateAll((els, n) => els.length * n, 2), await pg.locator("h1").evaluate((e) => e.textContent)];` },
  { name: 'dragTo', covers: ['Locator.dragTo', 'Page.locator', 'Locator.textContent'], body: `await pg.locator("#src").dragTo(pg.locator("#dst")); return await pg.locator("#dropped").textContent();` },
  {
    name: 'waitForResponse',
    covers: ['Page.waitForResponse', 'Page.click', 'Response.status', 'Response.url', 'Response.json', 'Response.ok', 'Response.request', 'Request.method', 'Request.resourceType', 'Response.headers', 'Response.frame'],
    body: `const p = pg.waitForResponse("**/api/me"); await pg.click("#load"); const r = await p; const j = await r.json(); return [r.status(), r.ok(), "/" + r.url().split("/").slice(3).join("/"), typeof j, r.request().method(), r.request().resourceType(), r.headers()["content-type"], r.frame() === pg.mainFrame()];`,
  },
  {
    name: 'waitForResponsePredicate',
    covers: ['Page.waitForResponse', 'Page.evaluate', 'Response.text', 'Response.statusText', 'Request.url', 'Request.headers', 'Request.postData', 'Response.allHeaders'],
    body: `const [r] = await Promise.all([pg.waitForResponse((res) => res.url().includes("/status")), pg.evaluate(() => fetch("/status?code=201", { method: "POST", body: "x=1" }))]); return [r.status(), await r.text(), r.statusText(), r.request().url().slice(r.request().url().indexOf("?")), r.request().postData(), typeof r.request().headers(), typeof (await r.allHeaders())];`,
  },
  {
    name: 'routeFulfill',
    covers: ['Page.route', 'Route.fulfill', 'Route.request', 'Page.unroute', 'Page.waitForResponse', 'Page.textContent'],
    body: `let seen = ""; await pg.route("**/api/me", (route) => { seen = "/" + route.request().url().split("/").slice(3).join("/"); return route.fulfill({ json: { mocked: true } }); }); const p = pg.waitForResponse("**/api/me"); await pg.click("#load"); const body = await (await p).json(); await pg.unroute("**/api/me"); await pg.waitForFunction(() => document.getElementById("api").textContent.includes("mocked")); return [body, seen, await pg.textContent("#api")];`,
  },
  {
    name: 'routeContinueAndFetch',
    covers: ['Page.route', 'Route.fetch', 'Route.fulfill', 'Route.continue', 'Route.fallback', 'APIResponse.status', 'Page.unrouteAll'],
    body: `await pg.route("**/status*", async (route) => { const res = await route.fetch(); return route.fulfill({ response: res, body: "patched " + res.status() }); }); await pg.route("**/api/me", (route) => route.fallback()); await pg.route("**/api/me", (route) => route.continue()); const out = await pg.evaluate(async () => [await (await fetch("/status?code=203")).text(), (await fetch("/api/me")).status]); await pg.unrouteAll(); return out;`,
  },
  {
    name: 'toPassPolling',
    covers: ['Page.click', 'Locator.textContent', 'Page.waitForTimeout'],
    body: `await pg.click("#later"); let text = ""; for (let i = 0; i < 60 && text !== "ready"; i++) { text = await pg.locator("#late").textContent(); if (text !== "ready") await pg.waitForTimeout(50); } return text;`,
  },
  { name: 'describe', covers: ['Locator.describe', 'Locator.description', 'Locator.toString'], body: `const l = pg.getByRole("button", { name: "Load" }).describe("load button"); return [l.description(), typeof l.toString()];` },
  { name: 'ariaSnapshot', covers: ['Locator.ariaSnapshot'], body: `return await pg.locator("#fruits").ariaSnapshot();` },
  {
    name: 'getByRefAndHideHighlight',
    covers: ['Page.ariaSnapshot', 'Page.getByRef', 'Locator.innerText', 'Locator.highlight', 'Page.hideHighlight'],
    body: `const snap = await pg.ariaSnapshot({ mode: "ai" }); const ref = /button "Load"[^\\n]*?\\[ref=(e\\d+)\\]/.exec(snap)?.[1]; if (!ref) throw new Error("no ref for the Load button in: " + snap.slice(0, 400)); const text = await pg.getByRef(ref).innerText(); await pg.locator("h1").highlight(); await pg.hideHighlight(); return text;`,
  },
  {
    name: 'setInputFilesFromPwd',
    covers: ['Page.setInputFiles', 'Locator.setInputFiles', 'Page.evaluate'],
    body: `await fs.writeFile(path.join(pwd, "a.txt"), "hello"); await pg.setInputFiles("#upload", path.join(pwd, "a.txt")); const one = await pg.evaluate(() => [...document.getElementById("upload").files].map((f) => f.name + ":" + f.size)); let mixed = "accepted"; try { await pg.locator("#upload").setInputFiles([{ name: "b.txt", mimeType: "text/plain", buffer: Buffer.from("abc") }, path.join(pwd, "a.txt")]); } catch { mixed = "refused"; } await pg.locator("#upload").setInputFiles([{ name: "b.txt", mimeType: "text/plain", buffer: Buffer.from("abc") }, { name: "c.txt", mimeType: "text/plain", buffer: Buffer.from("") }]); const two = await pg.evaluate(() => [...document.getElementById("upload").files].map((f) => f.name + ":" + f.size)); return [one, mixed, two];`,
  },
  {
    name: 'fileChooser',
    covers: ['Page.waitForEvent', 'FileChooser.setFiles', 'FileChooser.isMultiple', 'FileChooser.element', 'FileChooser.page', 'ElementHandle.getAttribute'],
    body: `const [fc] = await Promise.all([pg.waitForEvent("filechooser"), pg.click("#upload")]); await fc.setFiles({ name: "c.txt", mimeType: "text/plain", buffer: Buffer.from("abcd") }); return [fc.isMultiple(), await fc.element().getAttribute("id"), fc.page() === pg, await pg.evaluate(() => document.getElementById("upload").files[0].name)];`,
  },
  {
    name: 'keyboard',
    covers: ['Page.keyboard', 'Locator.click', 'Keyboard.type', 'Keyboard.press', 'Keyboard.down', 'Keyboard.up', 'Keyboard.insertText', 'Page.inputValue', 'Locator.clear'],
    body: `await pg.locator("#name").clear(); await pg.locator("#name").click(); await pg.keyboard.type("Hi"); await pg.keyboard.press("Shift+A"); await pg.keyboard.down("b"); await pg.keyboard.up("b"); await pg.keyboard.insertText("!"); return [await pg.inputValue("#name"), await pg.evaluate(() => keyLog.join(","))];`,
  },
  {
    name: 'mouse',
    covers: ['Page.mouse', 'Locator.boundingBox', 'Mouse.move', 'Mouse.down', 'Mouse.up', 'Mouse.click', 'Mouse.dblclick', 'Mouse.wheel'],
    body: `const b = await pg.locator("#mouse").boundingBox(); await pg.mouse.move(b.x + 5, b.y + 5); await pg.mouse.down(); await pg.mouse.up(); await pg.mouse.click(b.x + 6, b.y + 6); await pg.mouse.dblclick(b.x + 7, b.y + 7); await pg.mouse.wheel(0, 10); return await pg.evaluate(() => mouseLog.join(","));`,
  },
  {
    name: 'forms',
    covers: ['Page.fill', 'Page.check', 'Page.selectOption', 'Page.isChecked', 'Page.uncheck', 'Locator.setChecked', 'Locator.selectOption', 'Locator.inputValue', 'Page.getByLabel', 'Page.getByPlaceholder', 'Locator.pressSequentially', 'Locator.press', 'Locator.fill'],
    body: `await pg.fill("#name", "x"); await pg.check("#agree"); await pg.selectOption("#color", "green"); const a = [await pg.inputValue("#name"), await pg.isChecked("#agree"), await pg.getByLabel("Color").inputValue()]; await pg.uncheck("#agree"); await pg.getByLabel("Agree").setChecked(true); await pg.getByPlaceholder("Your name").fill(""); await pg.getByPlaceholder("Your name").pressSequentially("ab"); await pg.getByPlaceholder("Your name").press("Backspace"); await pg.getByRole("combobox", { name: "Color" }).selectOption({ label: "red" }); return [a, await pg.isChecked("#agree"), await pg.inputValue("#name"), await pg.inputValue("#color")];`,
  },
  {
    name: 'getBy',
    covers: ['Page.getByAltText', 'Page.getByTestId', 'Page.getByTitle', 'Page.getByText', 'Locator.getAttribute', 'Locator.isVisible', 'Locator.isHidden', 'Locator.isEnabled', 'Locator.isEditable', 'Locator.isDisabled', 'Page.isVisible'],
    body: `return [await pg.getByAltText("Logo").getAttribute("width"), await pg.getByTestId("status").textContent(), await pg.getByTitle("Heading").innerText(), await pg.getByText("Durian").isVisible(), await pg.getByText("Durian").isHidden(), await pg.locator("#name").isEnabled(), await pg.locator("#name").isEditable(), await pg.locator("#name").isDisabled(), await pg.isVisible("h1")];`,
  },
  {
    name: 'allAndHandles',
    covers: ['Locator.all', 'Locator.elementHandles', 'ElementHandle.textContent', 'ElementHandle.isVisible', 'ElementHandle.boundingBox', 'ElementHandle.ownerFrame', 'Locator.page'],
    body: `const all = await pg.locator("li").all(); const hs = await pg.locator("li").elementHandles(); return [all.length, await hs[0].textContent(), await hs[3].isVisible(), (await hs[0].boundingBox()) !== null, (await hs[0].ownerFrame()) === pg.mainFrame(), all[0].page() === pg];`,
  },
  {
    name: 'elementHandleActions',
    covers: ['Page.$', 'ElementHandle.fill', 'ElementHandle.inputValue', 'ElementHandle.isEditable', 'ElementHandle.press', 'ElementHandle.$', 'ElementHandle.$$', 'ElementHandle.$eval', 'ElementHandle.$$eval', 'ElementHandle.waitForElementState'],
    body: `const eh = await pg.$("#name"); await eh.fill("abc"); await eh.press("End"); await eh.waitForElementState("visible"); const ul = await pg.$("#fruits"); return [await eh.inputValue(), await eh.isEditable(), !!(await ul.$("li")), (await ul.$$("button")).length, await ul.$eval("span", (s) => s.textContent), await ul.$$eval("li", (l) => l.length)];`,
  },
  { name: 'waitForFunctionWithHandleArg', covers: ['Page.waitForFunction', 'Page.$', 'JSHandle.jsonValue'], body: `const h = await pg.$("#late"); const r = await pg.waitForFunction((el) => el.textContent === "ready" && el.id, h); return await r.jsonValue();` },
  { name: 'waitForSelector', covers: ['Page.waitForSelector', 'Page.locator', 'Locator.click', 'ElementHandle.innerText', 'Locator.waitFor'], body: `await pg.locator("#later").click(); const e = await pg.waitForSelector("#late"); await pg.locator("#late").waitFor({ state: "visible" }); return await e.innerText();` },
  {
    name: 'consoleEvent',
    covers: ['Page.waitForEvent', 'ConsoleMessage.type', 'ConsoleMessage.text', 'ConsoleMessage.args', 'ConsoleMessage.page', 'ConsoleMessage.location', 'JSHandle.jsonValue'],
    body: `const [m] = await Promise.all([pg.waitForEvent("console"), pg.evaluate(() => console.log("hello", 41))]); return [m.type(), m.text(), await m.args()[1].jsonValue(), m.page() === pg, typeof m.location().url];`,
  },
  {
    name: 'onOffListeners',
    covers: ['Page.on', 'Page.off', 'Page.once', 'Page.evaluate'],
    body: `const seen = []; const h = (m) => seen.push(m.text()); pg.on("console", h); await pg.evaluate(() => console.log("one")); pg.off("console", h); await pg.evaluate(() => console.log("two")); let once = ""; pg.once("console", (m) => (once = m.text())); await pg.evaluate(() => console.log("three")); await pg.waitForTimeout(50); return [seen, once];`,
  },
  {
    name: 'dialog',
    covers: ['Page.once', 'Dialog.accept', 'Dialog.message', 'Dialog.type', 'Dialog.defaultValue', 'Dialog.page'],
    body: `let info; pg.once("dialog", (d) => { info = [d.type(), d.message(), d.defaultValue(), d.page() === pg]; return d.accept("typed"); }); const answer = await pg.evaluate(() => prompt("q?", "def")); return [answer, info];`,
  },
  { name: 'exposeFunction', covers: ['Page.exposeFunction', 'Page.evaluate'], body: `await pg.exposeFunction("twice", (x) => x * 2); return await pg.evaluate(() => window.twice(21));` },
  {
    name: 'screenshots',
    covers: ['Page.screenshot', 'Locator.screenshot', 'ElementHandle.screenshot'],
    body: `const a = await pg.locator("h1").screenshot(); await pg.screenshot({ path: path.join(pwd, "s.png") }); const b = await fs.readFile(path.join(pwd, "s.png")); const c = await (await pg.$("h1")).screenshot({ type: "jpeg" }); return [a.length > 100, b.subarray(1, 4).toString(), c[0] === 0xff];`,
  },
  {
    name: 'pdf',
    covers: ['Page.pdf'],
    body: `const buf = await pg.pdf(); await pg.pdf({ path: path.join(pwd, "p.pdf") }); return [buf.subarray(0, 5).toString(), (await fs.readFile(path.join(pwd, "p.pdf"))).subarray(0, 5).toString()];`,
  },
  {
    name: 'download',
    covers: ['Page.waitForEvent', 'Download.saveAs', 'Download.suggestedFilename', 'Download.url', 'Download.failure', 'Download.page'],
    body: `const [d] = await Promise.all([pg.waitForEvent("download"), pg.click("#dl")]); await d.saveAs(path.join(pwd, "dl.txt")); return [d.suggestedFilename(), d.url().slice(0, 10), await d.failure(), d.page() === pg, await fs.readFile(path.join(pwd, "dl.txt"), "utf8")];`,
  },
  {
    name: 'apiRequest',
    covers: ['BrowserContext.request', 'APIRequestContext.get', 'APIRequestContext.post', 'APIResponse.status', 'APIResponse.text', 'APIResponse.ok', 'APIResponse.headers', 'APIResponse.url', 'APIResponse.json', 'Page.request'],
    body: `const o = pg.url().split("/").slice(0, 3).join("/"); const r = await ctx.request.get(o + "/status?code=202"); const p = await pg.request.post(o + "/api/me"); return [r.status(), await r.text(), r.ok(), r.headers()["content-type"], "/" + r.url().split("/").slice(3).join("/"), typeof (await p.json())];`,
  },
  {
    name: 'cdpSession',
    covers: ['BrowserContext.newCDPSession', 'CDPSession.send', 'CDPSession.detach', 'CDPSession.on', 'CDPSession.off'],
    body: `const s = await ctx.newCDPSession(pg); const h = () => {}; s.on("Runtime.consoleAPICalled", h); const r = await s.send("Runtime.evaluate", { expression: "1 + 1", returnByValue: true }); s.off("Runtime.consoleAPICalled", h); await s.detach(); return r.result.value;`,
  },
  {
    name: 'tracing',
    covers: ['BrowserContext.tracing', 'Tracing.start', 'Tracing.stop', 'Tracing.group', 'Tracing.groupEnd'],
    body: `await ctx.tracing.start({ name: "fid", screenshots: false, snapshots: true }); await ctx.tracing.group("step"); await pg.title(); await ctx.tracing.groupEnd(); await ctx.tracing.stop({ path: path.join(pwd, "t.zip") }); return (await fs.readFile(path.join(pwd, "t.zip"))).subarray(0, 2).toString();`,
  },
  {
    name: 'coverage',
    covers: ['Page.coverage', 'Coverage.startJSCoverage', 'Coverage.stopJSCoverage', 'Coverage.startCSSCoverage', 'Coverage.stopCSSCoverage'],
    body: `await pg.coverage.startJSCoverage(); await pg.coverage.startCSSCoverage(); await pg.evaluate(() => 1); const js = await pg.coverage.stopJSCoverage(); const css = await pg.coverage.stopCSSCoverage(); return [Array.isArray(js), Array.isArray(css)];`,
  },
  {
    name: 'contextReads',
    covers: ['Browser.version', 'Browser.isConnected', 'Browser.contexts', 'BrowserContext.pages', 'BrowserContext.cookies', 'BrowserContext.storageState', 'BrowserContext.browser', 'Page.context', 'BrowserContext.addCookies', 'BrowserContext.clearCookies', 'Page.video', 'Page.opener', 'Page.isClosed', 'Page.viewportSize', 'Page.workers'],
    body: `const o = pg.url().split("/").slice(0, 3).join("/"); await ctx.addCookies([{ name: "fid", value: "1", url: o }]); const names = (await ctx.cookies(o)).map((c) => c.name).filter((n) => n === "fid"); const st = await ctx.storageState(); await ctx.clearCookies({ name: "fid" }); const b = ctx.browser(); return [ctx.pages().includes(pg), names, Object.keys(st).sort(), b !== null && typeof b.version(), b && b.isConnected(), b && b.contexts().includes(ctx), pg.context() === ctx, pg.video(), await pg.opener(), pg.isClosed(), pg.viewportSize(), pg.workers().length];`,
  },
  { name: 'touchscreenNeedsHasTouch', covers: ['Page.touchscreen', 'Touchscreen.tap'], body: `await pg.touchscreen.tap(5, 5); return "tapped";` },
  {
    name: 'emulateAndViewport',
    covers: ['Page.emulateMedia', 'Page.setViewportSize', 'Page.evaluate'],
    body: `await pg.emulateMedia({ colorScheme: "dark" }); const dark = await pg.evaluate(() => matchMedia("(prefers-color-scheme: dark)").matches); await pg.setViewportSize({ width: 800, height: 600 }); const w = await pg.evaluate(() => innerWidth); await pg.setViewportSize({ width: 1280, height: 720 }); await pg.emulateMedia({ colorScheme: null }); return [dark, w];`,
  },
  {
    name: 'pageReads',
    covers: ['Page.title', 'Page.url', 'Page.content', 'Page.innerHTML', 'Page.getAttribute', 'Locator.innerHTML', 'Page.textContent', 'Page.innerText'],
    body: `return [await pg.title(), "/" + pg.url().split("/").slice(3).join("/"), (await pg.content()).includes("<h1"), (await pg.innerHTML("h1")), await pg.getAttribute("h1", "title"), await pg.locator("#fruits li").first().innerHTML(), await pg.textContent("h1"), await pg.innerText("h1")];`,
  },
  {
    name: 'actions',
    covers: ['Locator.hover', 'Locator.dblclick', 'Locator.focus', 'Locator.blur', 'Locator.dispatchEvent', 'Locator.scrollIntoViewIfNeeded', 'Locator.selectText', 'Page.focus', 'Page.hover', 'Page.dispatchEvent', 'Page.press', 'Page.type'],
    body: `await pg.locator("#mouse").hover(); await pg.locator("#mouse").dblclick(); await pg.locator("#name").focus(); await pg.locator("#name").blur(); await pg.locator("#mouse").dispatchEvent("click"); await pg.locator("#dst").scrollIntoViewIfNeeded(); await pg.locator("#name").selectText(); await pg.focus("#name"); await pg.hover("h1"); await pg.dispatchEvent("#mouse", "click"); await pg.press("#name", "End"); await pg.type("#name", "z"); return [await pg.evaluate(() => mouseLog.slice(-4).join(",")), await pg.inputValue("#name")];`,
  },
  {
    name: 'frameMirrorsPage',
    covers: ['Page.mainFrame', 'Frame.fill', 'Frame.click', 'Frame.check', 'Frame.uncheck', 'Frame.setChecked', 'Frame.selectOption', 'Frame.focus', 'Frame.hover', 'Frame.press', 'Frame.type', 'Frame.dblclick', 'Frame.dispatchEvent', 'Frame.title', 'Frame.url', 'Frame.inputValue', 'Frame.isChecked', 'Frame.isVisible', 'Frame.isHidden', 'Frame.isEnabled', 'Frame.isDisabled', 'Frame.isEditable', 'Frame.getAttribute', 'Frame.innerHTML', 'Frame.innerText', 'Frame.textContent', 'Frame.content', 'Frame.evaluate', 'Frame.evaluateHandle', 'Frame.$', 'Frame.$$', 'Frame.$eval', 'Frame.$$eval', 'Frame.locator', 'Frame.getByRole', 'Frame.getByText', 'Frame.getByLabel', 'Frame.getByPlaceholder', 'Frame.getByTestId', 'Frame.getByTitle', 'Frame.getByAltText', 'Frame.frameLocator', 'Frame.waitForSelector', 'Frame.waitForFunction', 'Frame.waitForLoadState', 'Frame.waitForTimeout', 'Frame.setInputFiles', 'Frame.dragAndDrop', 'Frame.addScriptTag', 'Frame.addStyleTag'],
    body: `const f = pg.mainFrame(); await f.fill("#name", "fr"); await f.click("#agree"); await f.check("#agree"); await f.uncheck("#agree"); await f.setChecked("#agree", true); await f.selectOption("#color", "green"); await f.focus("#name"); await f.hover("h1"); await f.press("#name", "End"); await f.type("#name", "y"); await f.dblclick("#mouse"); await f.dispatchEvent("#mouse", "click"); await f.setInputFiles("#upload", { name: "f.txt", mimeType: "text/plain", buffer: Buffer.from("f") }); await f.dragAndDrop("#src", "#dst"); await f.addScriptTag({ content: "window.__ftag = 1" }); await f.addStyleTag({ content: "h1 { margin: 1px }" }); return [await f.title(), f.url().endsWith("fidelity.html"), await f.inputValue("#name"), await f.isChecked("#agree"), await f.isVisible("h1"), await f.isHidden("#nothing"), await f.isEnabled("#name"), await f.isDisabled("#name"), await f.isEditable("#name"), await f.getAttribute("h1", "title"), await f.innerHTML("h1"), await f.innerText("h1"), await f.textContent("h1"), (await f.content()).includes("<h1"), await f.evaluate(() => window.__ftag + 1), await (await f.evaluateHandle(() => 2)).jsonValue(), !!(await f.$("h1")), (await f.$$("li")).length, await f.$eval("h1", (e) => e.title), await f.$$eval("li", (l) => l.length), await f.locator("li").count(), await f.getByRole("button", { name: "Load" }).count(), await f.getByText("Apple").count(), await f.getByLabel("Color").count(), await f.getByPlaceholder("Your name").count(), await f.getByTestId("status").count(), await f.getByTitle("Heading").count(), await f.getByAltText("Logo").count(), await f.frameLocator("#frame").locator("p").count(), !!(await f.waitForSelector("h1")), await (await f.waitForFunction(() => 3)).jsonValue(), await f.waitForLoadState(), await f.waitForTimeout(1), await f.evaluate(() => document.getElementById("upload").files[0].name)];`,
  },
  {
    name: 'elementHandleMirrors',
    covers: ['ElementHandle.check', 'ElementHandle.isChecked', 'ElementHandle.uncheck', 'ElementHandle.setChecked', 'ElementHandle.click', 'ElementHandle.dblclick', 'ElementHandle.hover', 'ElementHandle.focus', 'ElementHandle.scrollIntoViewIfNeeded', 'ElementHandle.dispatchEvent', 'ElementHandle.selectOption', 'ElementHandle.selectText', 'ElementHandle.type', 'ElementHandle.isDisabled', 'ElementHandle.isEnabled', 'ElementHandle.isHidden', 'ElementHandle.innerHTML', 'ElementHandle.asElement', 'ElementHandle.setInputFiles', 'ElementHandle.jsonValue', 'ElementHandle.getProperty', 'ElementHandle.evaluateHandle', 'ElementHandle.dispose'],
    body: `const eh = await pg.$("#agree"); await eh.check(); const c1 = await eh.isChecked(); await eh.uncheck(); await eh.setChecked(true); await eh.click(); await eh.dblclick(); await eh.hover(); await eh.focus(); await eh.scrollIntoViewIfNeeded(); await eh.dispatchEvent("click"); const sel = await pg.$("#color"); await sel.selectOption("red"); const name = await pg.$("#name"); await name.selectText(); await name.type("q"); const up = await pg.$("#upload"); await up.setInputFiles({ name: "e.txt", mimeType: "text/plain", buffer: Buffer.from("ee") }); const out = [c1, await eh.isChecked(), await eh.isDisabled(), await eh.isEnabled(), await eh.isHidden(), await (await pg.$("h1")).innerHTML(), await sel.inputValue(), await name.inputValue(), eh.asElement() === eh, await up.evaluate((u) => u.files[0].name), typeof (await eh.jsonValue()), await (await eh.getProperty("id")).jsonValue(), await (await eh.evaluateHandle((e) => e.tagName)).jsonValue()]; await eh.dispose(); return out;`,
  },
  {
    name: 'requestResponseDetails',
    covers: ['Request.postDataJSON', 'Request.postDataBuffer', 'Request.isNavigationRequest', 'Request.frame', 'Request.timing', 'Request.redirectedFrom', 'Request.redirectedTo', 'Request.failure', 'Request.response', 'Request.serviceWorker', 'Request.allHeaders', 'Request.headerValue', 'Request.headersArray', 'Request.sizes', 'Response.body', 'Response.finished', 'Response.headerValue', 'Response.headerValues', 'Response.headersArray', 'Response.httpVersion', 'Response.fromServiceWorker', 'Response.securityDetails', 'Response.serverAddr'],
    body: `const [resp] = await Promise.all([pg.waitForResponse("**/status*"), pg.evaluate(() => fetch("/status?code=200", { method: "POST", body: JSON.stringify({ a: 1 }), headers: { "content-type": "application/json" } }))]); const req = resp.request(); return [req.postDataJSON(), req.postDataBuffer().toString(), req.isNavigationRequest(), req.frame() === pg.mainFrame(), typeof req.timing().startTime, req.redirectedFrom(), req.redirectedTo(), req.failure(), (await req.response()) === resp, req.serviceWorker(), (await req.allHeaders())["content-type"], await req.headerValue("content-type"), Array.isArray(await req.headersArray()), typeof (await req.sizes()).requestBodySize, (await resp.body()).toString(), await resp.finished(), await resp.headerValue("content-type"), await resp.headerValues("content-type"), Array.isArray(await resp.headersArray()), typeof (await resp.httpVersion()), resp.fromServiceWorker(), await resp.securityDetails(), typeof (await resp.serverAddr()).port];`,
  },
  {
    name: 'apiRequestMore',
    covers: ['APIRequestContext.fetch', 'APIRequestContext.head', 'APIRequestContext.put', 'APIRequestContext.patch', 'APIRequestContext.delete', 'APIRequestContext.storageState', 'APIRequestContext.cookies', 'APIResponse.body', 'APIResponse.headersArray', 'APIResponse.statusText', 'APIResponse.dispose', 'APIResponse.securityDetails', 'APIResponse.serverAddr'],
    body: `const o = pg.url().split("/").slice(0, 3).join("/"); const rq = ctx.request; const r = await rq.fetch(o + "/status?code=200", { method: "GET" }); const out = [(await r.body()).toString(), r.headersArray().length > 0, r.statusText(), await r.securityDetails(), typeof (await r.serverAddr()), (await rq.head(o + "/status?code=204")).status(), (await rq.put(o + "/status?code=201")).status(), (await rq.patch(o + "/status?code=202")).status(), (await rq.delete(o + "/status?code=200")).status(), Object.keys(await rq.storageState()).sort(), Array.isArray(await rq.cookies(o))]; await r.dispose(); return out;`,
  },
  {
    name: 'contextSettings',
    covers: ['BrowserContext.setDefaultTimeout', 'BrowserContext.setDefaultNavigationTimeout', 'Page.setDefaultTimeout', 'Page.setDefaultNavigationTimeout', 'BrowserContext.setExtraHTTPHeaders', 'Page.setExtraHTTPHeaders', 'BrowserContext.grantPermissions', 'BrowserContext.clearPermissions', 'BrowserContext.setGeolocation', 'BrowserContext.setOffline', 'BrowserContext.serviceWorkers', 'BrowserContext.backgroundPages', 'BrowserContext.isClosed', 'BrowserContext.waitForEvent', 'BrowserContext.newPage', 'Page.close', 'Page.bringToFront'],
    body: `const o = pg.url().split("/").slice(0, 3).join("/"); ctx.setDefaultTimeout(30000); ctx.setDefaultNavigationTimeout(30000); pg.setDefaultTimeout(30000); pg.setDefaultNavigationTimeout(30000); await ctx.setExtraHTTPHeaders({ "x-fid": "1" }); await pg.setExtraHTTPHeaders({ "x-fid": "2" }); await ctx.grantPermissions(["geolocation"], { origin: o }); await ctx.setGeolocation({ latitude: 1, longitude: 2 }); await ctx.clearPermissions(); await ctx.setOffline(true); const off = await pg.evaluate(() => navigator.onLine); await ctx.setOffline(false); const [np] = await Promise.all([ctx.waitForEvent("page"), ctx.newPage()]); const n = ctx.pages().length; await np.close(); await pg.bringToFront(); await ctx.setExtraHTTPHeaders({}); await pg.setExtraHTTPHeaders({}); return [off, await pg.evaluate(() => navigator.onLine), n - ctx.pages().length, np.isClosed(), ctx.serviceWorkers().length, ctx.backgroundPages().length, ctx.isClosed()];`,
  },
  {
    name: 'bindingsAndHandlers',
    covers: ['Page.exposeBinding', 'BrowserContext.exposeFunction', 'BrowserContext.exposeBinding', 'Page.addLocatorHandler', 'Page.removeLocatorHandler', 'BrowserContext.route', 'BrowserContext.unroute', 'Page.dragAndDrop'],
    body: `await pg.exposeBinding("who", (src, x) => [src.page === pg, src.frame === pg.mainFrame(), src.context === ctx, x]); await ctx.exposeFunction("ctxTwice", (x) => x * 2); await ctx.exposeBinding("ctxWho", (src) => src.page === pg); const loc = pg.locator("#nothing-ever"); await pg.addLocatorHandler(loc, async (l) => {}); await pg.removeLocatorHandler(loc); await ctx.route("**/api/me", (r) => r.fulfill({ json: { ctx: true } })); const api = await pg.evaluate(async () => (await fetch("/api/me")).json()); await ctx.unroute("**/api/me"); await pg.dragAndDrop("#src", "#dst"); return [await pg.evaluate(() => window.who(5)), api, await pg.textContent("#dropped")];`,
  },
  {
    name: 'pageCollections',
    covers: ['Page.consoleMessages', 'Page.pageErrors', 'Page.requests', 'Page.clearConsoleMessages', 'Page.clearPageErrors', 'Page.requestGC', 'Page.ariaSnapshot', 'Page.dblclick', 'Page.setChecked', 'Page.isDisabled', 'Page.isEditable', 'Page.isEnabled', 'Page.isHidden'],
    body: `await pg.evaluate(() => console.log("collected")); await pg.dblclick("#mouse"); await pg.setChecked("#agree", false); const out = [(await pg.consoleMessages()).some((m) => m.text() === "collected"), Array.isArray(await pg.pageErrors()), (await pg.requests()).length > 0, await pg.isDisabled("#name"), await pg.isEditable("#name"), await pg.isEnabled("#name"), await pg.isHidden("#nothing"), typeof (await pg.ariaSnapshot())]; await pg.clearConsoleMessages(); await pg.clearPageErrors(); await pg.requestGC(); return [...out, (await pg.consoleMessages()).length];`,
  },
  {
    name: 'locatorMore',
    covers: ['Locator.check', 'Locator.isChecked', 'Locator.uncheck', 'Locator.type', 'Locator.frameLocator', 'FrameLocator.first', 'FrameLocator.last', 'FrameLocator.nth', 'FrameLocator.frameLocator', 'FrameLocator.getByAltText', 'FrameLocator.getByLabel', 'FrameLocator.getByPlaceholder', 'FrameLocator.getByTestId', 'FrameLocator.getByTitle', 'Locator.getByAltText', 'Locator.getByLabel', 'Locator.getByPlaceholder', 'Locator.getByTestId', 'Locator.getByTitle', 'Locator.evaluateHandle', 'Locator.normalize', 'Locator.highlight', 'Locator.hideHighlight', 'Disposable.dispose', 'JSHandle.evaluateHandle'],
    body: `const l = pg.locator("#agree"); await l.check(); const a = await l.isChecked(); await l.uncheck(); await pg.locator("#name").fill(""); await pg.locator("#name").type("t"); const fl = pg.locator("body").frameLocator("#frame"); const body = pg.locator("body"); const counts = [await fl.first().locator("p").count(), await fl.last().locator("p").count(), await fl.nth(0).locator("button").count(), await fl.frameLocator("iframe").locator("p").count(), await fl.getByAltText("x").count(), await fl.getByLabel("x").count(), await fl.getByPlaceholder("x").count(), await fl.getByTestId("x").count(), await fl.getByTitle("x").count(), await body.getByAltText("Logo").count(), await body.getByLabel("Color").count(), await body.getByPlaceholder("Your name").count(), await body.getByTestId("status").count(), await body.getByTitle("Heading").count()]; const h = await pg.locator("h1").evaluateHandle((e) => ({ t: e.textContent })); const n = await pg.getByRole("button", { name: "Load" }).normalize(); const hl = await pg.locator("h1").highlight(); await hl.dispose(); await pg.locator("h1").hideHighlight(); return [a, await l.isChecked(), await pg.inputValue("#name"), counts, await (await h.evaluateHandle((o) => o.t)).jsonValue(), await n.count()];`,
  },
  {
    name: 'listeners',
    covers: ['Page.addListener', 'Page.prependListener', 'Page.removeListener', 'BrowserContext.on', 'BrowserContext.once', 'BrowserContext.off', 'BrowserContext.addListener', 'BrowserContext.removeListener', 'BrowserContext.prependListener', 'CDPSession.addListener', 'CDPSession.once', 'CDPSession.prependListener', 'CDPSession.removeListener', 'Page.waitForRequest', 'Request.existingResponse'],
    body: `const seen = []; const h = (r) => seen.push("page:" + r.url().split("?")[1]); const c = (r) => seen.push("ctx:" + r.url().split("?")[1]); pg.addListener("request", h); pg.prependListener("request", h); ctx.on("request", c); ctx.addListener("request", c); ctx.prependListener("request", c); let once = ""; ctx.once("request", (r) => (once = r.url().split("?")[1])); const [req] = await Promise.all([pg.waitForRequest("**/status?code=200&l=1"), pg.evaluate(() => fetch("/status?code=200&l=1"))]); pg.removeListener("request", h); ctx.off("request", c); ctx.removeListener("request", c); await pg.evaluate(() => fetch("/status?code=200&l=2")); const s = await ctx.newCDPSession(pg); const g = () => {}; s.addListener("Runtime.consoleAPICalled", g); s.prependListener("Runtime.consoleAPICalled", g); s.once("Runtime.consoleAPICalled", g); s.removeListener("Runtime.consoleAPICalled", g); await s.detach(); return [seen.sort(), once, req.url().split("?")[1], req.existingResponse() === null || typeof req.existingResponse()];`,
  },
  {
    name: 'routeAbortDialogDismiss',
    covers: ['Route.abort', 'Dialog.dismiss', 'Page.route', 'Page.unroute', 'Page.routeWebSocket', 'BrowserContext.unrouteAll', 'BrowserContext.route'],
    body: `await pg.route("**/abort-me", (r) => r.abort()); const aborted = await pg.evaluate(() => fetch("/abort-me").then(() => "ok", () => "failed")); await pg.unroute("**/abort-me"); pg.once("dialog", (d) => d.dismiss()); const confirmed = await pg.evaluate(() => confirm("sure?")); await pg.routeWebSocket("ws://127.0.0.1:1/none", () => {}); await ctx.route("**/never", (r) => r.abort()); await ctx.unrouteAll(); await pg.unrouteAll(); return [aborted, confirmed];`,
  },
  {
    name: 'downloadMore',
    covers: ['Download.path', 'Download.delete', 'Download.cancel', 'ConsoleMessage.timestamp', 'ConsoleMessage.worker'],
    body: `const [d] = await Promise.all([pg.waitForEvent("download"), pg.click("#dl")]); const p = typeof (await d.path()); await d.cancel(); await d.delete(); const [m] = await Promise.all([pg.waitForEvent("console"), pg.evaluate(() => console.log("ts"))]); return [p, typeof m.timestamp(), m.worker()];`,
  },
  {
    name: 'webStorage',
    covers: ['Page.localStorage', 'Page.sessionStorage', 'WebStorage.setItem', 'WebStorage.getItem', 'WebStorage.items', 'WebStorage.removeItem', 'WebStorage.clear'],
    body: `await pg.localStorage.setItem("k", "v"); await pg.sessionStorage.setItem("s", "w"); const a = [await pg.localStorage.getItem("k"), (await pg.localStorage.items()).length, await pg.sessionStorage.getItem("s")]; await pg.localStorage.removeItem("k"); await pg.sessionStorage.clear(); return [a, await pg.localStorage.getItem("k"), await pg.evaluate(() => sessionStorage.length)];`,
  },
  {
    name: 'webErrorAndWorker',
    covers: ['BrowserContext.waitForEvent', 'WebError.error', 'WebError.page', 'WebError.location', 'Page.waitForEvent', 'Worker.evaluate', 'Worker.evaluateHandle', 'Worker.url'],
    body: `const [we] = await Promise.all([ctx.waitForEvent("weberror"), pg.evaluate(() => { setTimeout(() => { throw new Error("boom-fid"); }); })]); const [w] = await Promise.all([pg.waitForEvent("worker"), pg.evaluate(() => { window.__w = new Worker(URL.createObjectURL(new Blob(["self.x = 41"], { type: "text/javascript" }))); })]); return [we.error().message, we.page() === pg, typeof we.location(), await w.evaluate(() => self.x + 1), await (await w.evaluateHandle(() => self.x)).jsonValue(), w.url().slice(0, 5)];`,
  },
  {
    name: 'traceChunks',
    covers: ['Tracing.start', 'Tracing.startChunk', 'Tracing.stopChunk', 'Tracing.stop'],
    body: `await ctx.tracing.start({ snapshots: true }); await ctx.tracing.startChunk({ name: "chunk1", title: "one" }); await pg.title(); await ctx.tracing.stopChunk({ path: path.join(pwd, "c.zip") }); await ctx.tracing.stop(); return (await fs.readFile(path.join(pwd, "c.zip"))).subarray(0, 2).toString();`,
  },
  {
    name: 'handlesMore',
    covers: ['ElementHandle.getProperties', 'ElementHandle.waitForSelector', 'JSHandle.getProperties'],
    body: `const ul = await pg.$("#fruits"); const li = await ul.waitForSelector("li"); const props = await (await pg.$("h1")).getProperties(); return [await li.textContent(), props.size >= 0];`,
  },
  {
    name: 'tapsNeedHasTouch',
    covers: ['Page.tap', 'Locator.tap', 'Frame.tap', 'ElementHandle.tap'],
    body: `const r = []; for (const f of [() => pg.tap("h1"), () => pg.locator("h1").tap(), () => pg.mainFrame().tap("h1"), async () => (await pg.$("h1")).tap()]) { try { await f(); r.push("ok"); } catch { r.push("threw"); } } return r;`,
  },
  {
    // Before any clock is installed: a chapter's overlay goes away on a page timer.
    name: 'screencastOverlays',
    covers: ['Page.screencast', 'Screencast.showActions', 'Screencast.hideActions', 'Screencast.showChapter', 'Screencast.showOverlay', 'Screencast.hideOverlays', 'Screencast.showOverlays', 'Disposable.dispose'],
    body: `const d = await pg.screencast.showActions({ position: "top" }); await pg.screencast.hideActions(); await pg.screencast.showChapter("Step 1", { description: "fidelity", duration: 1 }); const o = await pg.screencast.showOverlay("<b>note</b>", { duration: 1 }); await pg.screencast.hideOverlays(); await pg.screencast.showOverlays(); await o.dispose(); await d.dispose(); return [typeof o.dispose, await pg.title()];`,
  },
  {
    name: 'contextMore',
    covers: ['BrowserContext.addInitScript', 'BrowserContext.setHTTPCredentials', 'BrowserContext.clock', 'Clock.setFixedTime', 'BrowserContext.setStorageState'],
    body: `await ctx.addInitScript(() => { window.__ctxInit = 1; }); await ctx.setHTTPCredentials(null); await ctx.clock.setFixedTime(new Date("2023-05-06T00:00:00Z")); const st = await ctx.storageState(); await ctx.setStorageState(st); return [await pg.evaluate(() => new Date().getUTCFullYear()), Array.isArray(st.cookies)];`,
  },
  {
    name: 'clock',
    covers: ['Page.clock', 'Clock.setFixedTime', 'Page.evaluate'],
    body: `await pg.clock.setFixedTime(new Date("2024-02-03T10:00:00Z")); return await pg.evaluate(() => new Date().toISOString());`,
  },
  {
    name: 'clockInstallRunFor',
    covers: ['Clock.install', 'Clock.runFor', 'Clock.pauseAt', 'Clock.resume', 'Clock.fastForward', 'Clock.setSystemTime', 'Page.reload'],
    body: `await pg.clock.install({ time: new Date("2024-01-01T00:00:00Z") }); await pg.reload(); await pg.clock.pauseAt(new Date("2024-01-02T00:00:00Z")); const paused = await pg.evaluate(() => new Date().toISOString()); await pg.clock.runFor(1000); await pg.clock.fastForward("00:01"); await pg.clock.setSystemTime(new Date("2025-01-01T00:00:00Z")); const later = await pg.evaluate(() => new Date().getUTCFullYear()); await pg.clock.resume(); return [paused, later];`,
  },
  {
    name: 'initScriptAndNavigation',
    covers: ['Frame.goto', 'Frame.waitForURL', 'Frame.setContent', 'Page.addInitScript', 'Page.goto', 'Page.waitForURL', 'Page.waitForLoadState', 'Page.goBack', 'Page.goForward', 'Response.status', 'Page.setContent', 'Page.addScriptTag', 'Page.addStyleTag'],
    body: `await pg.addInitScript(() => { window.__init = "yes"; }); const r = await pg.goto(url + "#x"); await pg.waitForURL(/#x$/); await pg.waitForLoadState("domcontentloaded"); const init = await pg.evaluate(() => window.__init); await pg.goto(url + "?second"); await pg.goBack(); const back = pg.url().slice(pg.url().indexOf("#")); await pg.goForward(); await pg.addScriptTag({ content: "window.__tag = 7" }); await pg.addStyleTag({ content: "h1 { color: rgb(1, 2, 3) }" }); const tag = await pg.evaluate(() => [window.__tag, getComputedStyle(document.querySelector("h1")).color]); const f = pg.mainFrame(); await f.goto(url + "#frame"); await f.waitForURL(/#frame$/); await f.setContent("<p id=q>frame set</p>"); const fq = await f.textContent("#q"); await pg.setContent("<p id=p>set</p>"); return [r === null ? null : r.status(), init, back, pg.url().slice(pg.url().indexOf("?")), tag, fq, await pg.textContent("#p")];`,
  },
  // From here on the page is fidelity.html again (the check before replaced its content).
  {
    name: 'gotoAndWaitForURL',
    covers: ['Page.goto', 'Page.waitForURL', 'Page.url', 'Response.status'],
    body: `const r = await pg.goto(url + "?aside=1"); await pg.waitForURL(/aside=1$/); return [r.status(), "/" + pg.url().split("/").slice(3).join("/")];`,
  },
  {
    // WebMCP is an experimental browser feature: whether the Chromium has it on decides the
    // answers, which must be the same both ways. The fixture page registers no tool.
    name: 'webmcp',
    covers: ['Page.webmcp', 'Frame.webmcp', 'WebMCP.tools', 'WebMCP.callTool', 'Page.mainFrame'],
    body: `const r = []; for (const f of [() => pg.webmcp.tools(), () => pg.mainFrame().webmcp.callTool("add", { a: 1, b: 2 })]) { try { r.push(await f()); } catch (e) { r.push(/WebMCP is not enabled/.test(e.message) ? "not enabled" : /No WebMCP tool named "add"/.test(e.message) ? "no such tool" : "threw"); } } return r;`,
  },
  {
    name: 'dropAndLocatorWaitForFunction',
    covers: ['Locator.drop', 'Locator.waitForFunction', 'Page.textContent', 'Locator.click'],
    body: `await pg.locator("#dst").drop({ data: { "text/plain": "dropdata" } }); const a = await pg.textContent("#dropped"); await fs.writeFile(path.join(pwd, "drop.txt"), "y"); await pg.locator("#dst").drop({ files: path.join(pwd, "drop.txt"), data: { "text/plain": "file" } }); const b = await pg.textContent("#dropped"); await pg.locator("#dst").drop({ files: [{ name: "d.txt", mimeType: "text/plain", buffer: Buffer.from("x") }], data: { "text/plain": "buffer" } }); await pg.locator("#later").click(); await pg.locator("#late").waitForFunction((el) => el.textContent === "ready"); return [a, b, await pg.textContent("#dropped"), await pg.textContent("#late")];`,
  },
  {
    name: 'webSocket',
    covers: ['Page.waitForEvent', 'WebSocket.url', 'WebSocket.isClosed', 'WebSocket.on', 'WebSocket.off', 'WebSocket.once', 'WebSocket.addListener', 'WebSocket.prependListener', 'WebSocket.removeListener', 'WebSocket.waitForEvent'],
    body: `const [ws] = await Promise.all([pg.waitForEvent("websocket"), pg.evaluate((u) => new Promise((res) => { window.__ws = new WebSocket(u); window.__ws.onopen = res; }), wsUrl)]); const seen = []; const on = (f) => seen.push("on:" + f.payload); const add = (f) => seen.push("add:" + f.payload); const pre = (f) => seen.push("pre:" + f.payload); let once = ""; ws.on("framereceived", on); ws.addListener("framereceived", add); ws.prependListener("framereceived", pre); ws.once("framereceived", (f) => (once = f.payload)); const [f1] = await Promise.all([ws.waitForEvent("framereceived"), pg.evaluate(() => window.__ws.send("one"))]); ws.off("framereceived", on); ws.removeListener("framereceived", add); ws.removeListener("framereceived", pre); const [f2] = await Promise.all([ws.waitForEvent("framereceived"), pg.evaluate(() => window.__ws.send("two"))]); const open = ws.isClosed(); await Promise.all([ws.waitForEvent("close"), pg.evaluate(() => window.__ws.close())]); return [ws.url() === wsUrl, f1.payload, f2.payload, seen.sort(), once, open, ws.isClosed()];`,
  },
  {
    name: 'routeWebSocketContext',
    covers: ['BrowserContext.routeWebSocket', 'WebSocketRoute.url', 'WebSocketRoute.protocols', 'WebSocketRoute.onMessage', 'WebSocketRoute.send', 'WebSocketRoute.onClose', 'WebSocketRoute.close', 'WebSocketRoute.[Symbol.asyncDispose]', 'BrowserContext.unrouteAll'],
    body: `const info = []; const routes = []; await ctx.routeWebSocket(/mock-ws/, (r) => { routes.push(r); info.push(r.url().split("/").pop() + ":" + r.protocols().join("+")); r.onMessage((m) => r.send("mocked:" + m)); r.onClose((code, reason) => { info.push("closed:" + code + ":" + reason); if (reason === "page") r.close({ code, reason: "ack" }); }); }); const open = (n) => pg.evaluate((n) => new Promise((res) => { const w = new WebSocket("ws://127.0.0.1:1/mock-ws-" + n, ["p1", "p2"]); window["__m" + n] = w; w.onmessage = (e) => res(e.data); w.onopen = () => w.send("m" + n); }), n); const got = [await open(1), await open(2), await open(3)]; const closed = (n) => pg.evaluate((n) => new Promise((res) => { const w = window["__m" + n]; if (w.readyState === 3) res("already"); w.onclose = (e) => res(e.code + ":" + e.reason); }), n); const c1 = closed(1); await pg.evaluate(() => window.__m1.close(3001, "page")); await c1; const c2 = closed(2); await routes[1].close({ code: 3002, reason: "route" }); await routes[2][Symbol.asyncDispose](); const c3 = await pg.evaluate(() => window.__m3.readyState); await ctx.unrouteAll(); return [got, info.sort(), await c2, c3];`,
  },
  {
    name: 'routeFromHAR',
    covers: ['Page.routeFromHAR', 'BrowserContext.routeFromHAR', 'Page.unrouteAll', 'BrowserContext.unrouteAll', 'Page.evaluate'],
    body: `const o = pg.url().split("/").slice(0, 3).join("/"); const entry = (p, text) => ({ startedDateTime: new Date(0).toISOString(), time: 1, request: { method: "GET", url: o + p, httpVersion: "HTTP/1.1", cookies: [], headers: [], queryString: [], headersSize: -1, bodySize: 0 }, response: { status: 200, statusText: "OK", httpVersion: "HTTP/1.1", cookies: [], headers: [{ name: "Content-Type", value: "text/plain" }, { name: "X-Har", value: "1" }], content: { size: text.length, mimeType: "text/plain", text }, redirectURL: "", headersSize: -1, bodySize: text.length }, cache: {}, timings: { send: 0, wait: 1, receive: 0 } }); await fs.writeFile(path.join(pwd, "site.har"), JSON.stringify({ log: { version: "1.2", creator: { name: "fidelity", version: "1" }, entries: [entry("/har/one", "from-page-har"), entry("/har/two", "from-context-har")] } })); await pg.routeFromHAR(path.join(pwd, "site.har"), { url: "**/har/one" }); await ctx.routeFromHAR(path.join(pwd, "site.har"), { url: "**/har/two", notFound: "fallback" }); const out = await pg.evaluate(async () => Promise.all(["/har/one", "/har/two"].map(async (p) => { const r = await fetch(p); return r.status + ":" + r.headers.get("x-har") + ":" + (await r.text()); }))); await pg.unrouteAll(); await ctx.unrouteAll(); const after = await pg.evaluate(async () => (await fetch("/har/one")).status); return [out, after];`,
  },
  {
    name: 'asyncDispose',
    covers: ['BrowserContext.newPage', 'Page.[Symbol.asyncDispose]', 'ElementHandle.[Symbol.asyncDispose]', 'JSHandle.[Symbol.asyncDispose]', 'APIResponse.[Symbol.asyncDispose]', 'Disposable.[Symbol.asyncDispose]', 'Page.isClosed', 'Locator.highlight'],
    body: `const gone = (p) => p.then(() => "alive", () => "disposed"); const np = await ctx.newPage(); await np[Symbol.asyncDispose](); const eh = await pg.$("h1"); await eh[Symbol.asyncDispose](); const jh = await pg.evaluateHandle(() => ({ a: 1 })); await jh[Symbol.asyncDispose](); const o = pg.url().split("/").slice(0, 3).join("/"); const r = await ctx.request.get(o + "/status?code=200"); await r[Symbol.asyncDispose](); const d = await pg.locator("h1").highlight(); await d[Symbol.asyncDispose](); return [np.isClosed(), await gone(eh.evaluate((e) => 1)), await gone(jh.jsonValue()), await gone(r.body())];`,
  },
  {
    name: 'browserListenersAndType',
    covers: ['BrowserContext.browser', 'Browser.on', 'Browser.off', 'Browser.once', 'Browser.addListener', 'Browser.prependListener', 'Browser.removeListener', 'Browser.browserType', 'BrowserType.name', 'BrowserType.executablePath'],
    body: `const b = ctx.browser(); if (!b) return "no browser"; const h = () => {}; b.on("disconnected", h); b.addListener("disconnected", h); b.prependListener("disconnected", h); b.once("disconnected", h); b.off("disconnected", h); b.removeListener("disconnected", h); b.removeListener("disconnected", h); const bt = b.browserType(); return [bt.name(), typeof bt.executablePath(), b.isConnected()];`,
  },
  {
    name: 'debuggerAndCredentials',
    covers: ['BrowserContext.debugger', 'BrowserContext.credentials', 'Debugger.pausedDetails', 'Debugger.on', 'Debugger.off', 'Debugger.once', 'Debugger.addListener', 'Debugger.prependListener', 'Debugger.removeListener'],
    body: `const dbg = ctx.debugger; const h = () => {}; dbg.on("pausedstatechanged", h); dbg.addListener("pausedstatechanged", h); dbg.prependListener("pausedstatechanged", h); dbg.once("pausedstatechanged", h); dbg.off("pausedstatechanged", h); dbg.removeListener("pausedstatechanged", h); dbg.removeListener("pausedstatechanged", h); return [dbg.pausedDetails(), typeof ctx.credentials, typeof ctx.credentials.get];`,
  },
  {
    name: 'apiRequestCookiesAndTiming',
    covers: ['BrowserContext.request', 'APIRequestContext.addCookies', 'APIRequestContext.clearCookies', 'APIRequestContext.cookies', 'APIRequestContext.tracing', 'APIRequestContext.get', 'APIResponse.timing'],
    body: `const o = pg.url().split("/").slice(0, 3).join("/"); const rq = ctx.request; await rq.addCookies([{ name: "rq", value: "1", url: o }]); const a = (await rq.cookies(o)).map((c) => c.name).filter((n) => n === "rq"); await rq.clearCookies({ name: "rq" }); const b = (await rq.cookies(o)).map((c) => c.name).filter((n) => n === "rq"); const r = await rq.get(o + "/status?code=200"); const t = r.timing(); return [a, b, typeof t.startTime, Object.keys(t).length > 3, typeof rq.tracing.start];`,
  },
  {
    name: 'workerEvents',
    covers: ['Page.waitForEvent', 'Worker.on', 'Worker.off', 'Worker.once', 'Worker.addListener', 'Worker.prependListener', 'Worker.removeListener', 'Worker.waitForEvent'],
    body: `const [w] = await Promise.all([pg.waitForEvent("worker"), pg.evaluate(() => { window.__w2 = new Worker(URL.createObjectURL(new Blob(["self.onmessage = (e) => console.log('worker got ' + e.data)"], { type: "text/javascript" }))); })]); const seen = []; const h = (m) => seen.push("on:" + m.text()); const a = (m) => seen.push("add:" + m.text()); const p = (m) => seen.push("pre:" + m.text()); let once = ""; w.on("console", h); w.addListener("console", a); w.prependListener("console", p); w.once("console", (m) => (once = m.text())); const [m] = await Promise.all([w.waitForEvent("console"), pg.evaluate(() => window.__w2.postMessage("x"))]); w.off("console", h); w.removeListener("console", a); w.removeListener("console", p); await Promise.all([w.waitForEvent("close"), pg.evaluate(() => window.__w2.terminate())]); return [m.text(), seen.sort(), once];`,
  },
  {
    name: 'waitForNavigation',
    covers: ['Page.waitForNavigation', 'Frame.waitForNavigation', 'Page.mainFrame', 'Response.status', 'Response.url', 'Page.url'],
    body: `const [r] = await Promise.all([pg.waitForNavigation(), pg.evaluate(() => { location.href = location.pathname + "?nav=1"; })]); const [r2] = await Promise.all([pg.mainFrame().waitForNavigation({ url: /nav=2/ }), pg.evaluate(() => { location.href = location.pathname + "?nav=2"; })]); return [r.status(), r.url().split("?")[1], r2.url().split("?")[1], pg.url().split("?")[1]];`,
  },
  // The Page members the catalog marks as verified on Aside, each in a check that uses nothing
  // else of the page (test/aside-fidelity.e2e.test.ts runs them on both engines).
  {
    name: 'fillAndGetByLabel',
    covers: ['Page.getByLabel', 'Locator.fill', 'Page.fill', 'Page.locator', 'Locator.inputValue', 'Page.evaluate'],
    body: `await pg.getByLabel("Name").fill("aside"); await pg.fill("#name", (await pg.locator("#name").inputValue()) + "!"); return [await pg.getByLabel("Name").inputValue(), await pg.evaluate(() => document.getElementById("name").value)];`,
  },
  {
    name: 'evaluateWithArgs',
    covers: ['Page.evaluate'],
    body: `return await pg.evaluate(([a, b]) => [a + b, document.title, location.pathname], [1, 2]);`,
  },
  {
    name: 'screenshotToPwd',
    covers: ['Page.screenshot'],
    body: `const buf = await pg.screenshot(); await pg.screenshot({ path: path.join(pwd, "aside.png") }); const file = await fs.readFile(path.join(pwd, "aside.png")); return [buf.subarray(1, 4).toString(), file.subarray(1, 4).toString(), buf.length > 1000];`,
  },
  {
    name: 'sendToTarget',
    covers: ['Page.evaluate'],
    body: `await pg._sendToTarget("Runtime.enable"); const r = await pg._sendToTarget("Runtime.evaluate", { expression: "document.title + ':' + document.querySelectorAll('li').length", returnByValue: true }); return [r.result.value, await pg.evaluate(() => document.title)];`,
  },
];

/** Members the tables refuse, called the way a script would: through gstack each must throw
 * exactly the catalog's refusal. */
export const REFUSALS: Array<{ member: string; body: string }> = [
  { member: 'Browser.newContext', body: `await ctx.browser().newContext();` },
  { member: 'Browser.close', body: `await ctx.browser().close();` },
  { member: 'Page.pause', body: `await pg.pause();` },
  // Its nodes carry field values uncut (issue 22's red-team pass): ariaSnapshot() cuts them.
  { member: 'Page.ariaSnapshotJSON', body: `await pg.ariaSnapshotJSON();` },
  { member: 'Locator.ariaSnapshotJSON', body: `await pg.locator("#fruits").ariaSnapshotJSON();` },
  { member: 'Page.cancelPickLocator', body: `await pg.cancelPickLocator();` },
  { member: 'Browser.newPage', body: `await ctx.browser().newPage();` },
  { member: 'Browser.newBrowserCDPSession', body: `await ctx.browser().newBrowserCDPSession();` },
  { member: 'Browser.startTracing', body: `await ctx.browser().startTracing(pg, { path: path.join(pwd, "t.json") });` },
  { member: 'Browser.stopTracing', body: `await ctx.browser().stopTracing();` },
  { member: 'Browser.bind', body: `await ctx.browser().bind("x");` },
  { member: 'Browser.unbind', body: `await ctx.browser().unbind();` },
  { member: 'Browser.removeAllListeners', body: `ctx.browser().removeAllListeners();` },
  { member: 'Tracing.stopHar', body: `await ctx.tracing.stopHar();` },
  { member: 'Screencast.stop', body: `await pg.screencast.stop();` },
  { member: 'Debugger.resume', body: `await ctx.debugger.resume();` },
  { member: 'Debugger.next', body: `await ctx.debugger.next();` },
  { member: 'Debugger.runTo', body: `await ctx.debugger.runTo({ url: "x", lineNumber: 1 });` },
  { member: 'Credentials.create', body: `await ctx.credentials.create("example.com");` },
  { member: 'Credentials.delete', body: `await ctx.credentials.delete("x");` },
  { member: 'Credentials.get', body: `await ctx.credentials.get();` },
  { member: 'Page.pickLocator', body: `await pg.pickLocator();` },
  { member: 'Page.removeAllListeners', body: `pg.removeAllListeners("console");` },
  { member: 'BrowserContext.close', body: `await ctx.close();` },
  { member: 'BrowserContext.removeAllListeners', body: `ctx.removeAllListeners();` },
  { member: 'APIRequestContext.dispose', body: `await ctx.request.dispose();` },
  { member: 'Tracing.startHar', body: `await ctx.tracing.startHar(path.join(pwd, "x.har"));` },
  { member: 'Screencast.start', body: `await pg.screencast.start({ path: path.join(pwd, "v.webm") });` },
  { member: 'Debugger.requestPause', body: `await ctx.debugger.requestPause();` },
  { member: 'Credentials.install', body: `await ctx.credentials.install();` },
  { member: 'BrowserContext.[Symbol.asyncDispose]', body: `await ctx[Symbol.asyncDispose]();` },
  { member: 'Browser.[Symbol.asyncDispose]', body: `await ctx.browser()[Symbol.asyncDispose]();` },
  { member: 'APIRequestContext.[Symbol.asyncDispose]', body: `await ctx.request[Symbol.asyncDispose]();` },
  { member: 'BrowserType.launch', body: `await ctx.browser().browserType().launch();` },
  { member: 'BrowserType.launchPersistentContext', body: `await ctx.browser().browserType().launchPersistentContext(path.join(pwd, "profile"));` },
  { member: 'BrowserType.launchServer', body: `await ctx.browser().browserType().launchServer();` },
  { member: 'BrowserType.connect', body: `await ctx.browser().browserType().connect("ws://127.0.0.1:1/");` },
  { member: 'BrowserType.connectOverCDP', body: `await ctx.browser().browserType().connectOverCDP("http://127.0.0.1:1/");` },
  {
    member: 'WebSocketRoute.connectToServer',
    body: `let err = new Error("the route handler never ran"); await pg.routeWebSocket(/refuse-ws/, (r) => { try { r.connectToServer(); err = new Error("connectToServer() was allowed"); } catch (e) { err = e; } r.close(); }); await pg.evaluate(() => new Promise((res) => { const w = new WebSocket("ws://127.0.0.1:1/refuse-ws"); w.onclose = res; w.onerror = res; })); await pg.unrouteAll(); throw err;`,
  },
  { member: 'Download.createReadStream', body: `const [d] = await Promise.all([pg.waitForEvent("download"), pg.click("#dl")]); await d.createReadStream();` },
];

/**
 * Members no flow script can reach, so no call can compare them with Playwright: each is
 * tested through the membrane on a stand-in instead (test/playwright-policy.test.ts), and
 * reaching them stays impossible (the reason is checked where it can be).
 */
export const UNREACHABLE: Record<string, string> = {
  'Video.delete': 'a Video exists only in a context launched with recordVideo, which a flow script never gets: pg.video() is null through gstack as on a plain persistent context (check contextReads)',
  'Video.path': 'as Video.delete',
  'Video.saveAs': 'as Video.delete',
};

/** Every `Class.member` the catalog's policy tables list. */
export function policyMembers(catalog: Catalog): string[] {
  return Object.entries(catalog.playwright.classes).flatMap(([cls, p]) => [...p.pass, ...Object.keys(p.confine ?? {}), ...Object.keys(p.refuse ?? {})].map((m) => `${cls}.${m}`));
}

/** The fidelity figure: every member against the checks and refusals that exercise it.
 * `missing`: members with a policy and no fidelity test; `unknown`: names the suite claims to
 * cover that the tables do not list. */
export function fidelityCoverage(catalog: Catalog): { all: string[]; covered: Set<string>; missing: string[]; unknown: string[] } {
  const all = policyMembers(catalog);
  const listed = new Set(all);
  // A Page member a body calls on `pg` counts even where `covers` forgets it.
  const used = CHECKS.flatMap((c) => pageMembersUsed(c.body).map((m) => `Page.${m}`)).filter((m) => listed.has(m));
  const covered = new Set([...CHECKS.flatMap((c) => c.covers), ...used, ...REFUSALS.map((r) => r.member)]);
  return { all, covered, missing: all.filter((m) => !covered.has(m)), unknown: [...covered].filter((m) => !listed.has(m)) };
}

/** The Page members a check's body calls on `pg` itself (`pg.goto(...)`, `pg.keyboard`). */
export function pageMembersUsed(body: string): string[] {
  return [...new Set([...body.matchAll(/\bpg\.([\w$]+)/g)].map((m) => m[1]))];
}

/** The Page members the catalog marks as verified on Aside ("aside": "yes" in pageMethods, and
 * the Page extras whose Aside support is "yes"). */
export function asideVerified(catalog: Catalog): string[] {
  return [
    ...catalog.pageMethods.filter((m) => m.aside === 'yes').map((m) => m.name),
    ...catalog.pageExtras.filter((m) => m.engines.aside === 'yes').map((m) => m.name),
  ].filter((n, i, a) => a.indexOf(n) === i);
}

/** The checks a script may run on Aside: every Page member it calls is verified there, and it
 * reaches no browser context (`ctx`), which an Aside call does not own. */
export function asideChecks(catalog: Catalog): Check[] {
  const verified = new Set(asideVerified(catalog));
  return CHECKS.filter((c) => !/\bctx\b/.test(c.body) && pageMembersUsed(c.body).every((m) => verified.has(m)));
}

const lit = (s: string) => JSON.stringify(s);

/**
 * The flow script that runs `checks` in order on one tab of `url`, printing `CHECK <name> <json>`
 * for each (`{ ok: value }` or `{ err: first line }`), then `refusals` the same way as
 * `REFUSAL <member> <json>`. `ctx` is the tab's context only when `withContext` (an Aside call
 * has none of its own); `wsUrl` is the echoing WebSocket server's address.
 */
export function fidelityScript(url: string, checks: Check[], refusals: typeof REFUSALS = [], withContext = true, wsUrl = ''): string {
  const list = (items: Array<[string, string]>) => items.map(([n, b]) => `[${lit(n)}, async () => { ${b} }]`).join(',\n');
  return `
    const url = ${lit(url)};
    const wsUrl = ${lit(wsUrl)};
    const pg = await openTab(url);
    const ctx = ${withContext ? 'pg.context()' : 'undefined'};
    const run = async (label, list) => {
      for (const [name, fn] of list) {
        let out;
        try { out = { ok: await fn() }; } catch (e) { out = { err: String(e && e.message).split("\\n")[0] }; }
        console.log(label + " " + name + " " + JSON.stringify(out));
      }
    };
    await run("CHECK", [${list(checks.map((c) => [c.name, c.body]))}]);
    ${refusals.length ? `await pg.goto(url);\n    await run("REFUSAL", [${list(refusals.map((r) => [r.member, r.body]))}]);` : ''}
    console.log("GSTACK_STEP_OK");`;
}

export type Outcome = { ok: unknown } | { err: string };

/** The `CHECK`/`REFUSAL` lines of a run's output, by name. */
export function outcomes(lines: string[]): { checks: Map<string, Outcome>; refusals: Map<string, Outcome> } {
  const checks = new Map<string, Outcome>();
  const refusals = new Map<string, Outcome>();
  for (const line of lines) {
    const m = /^(CHECK|REFUSAL) (\S+) (.*)$/.exec(line);
    if (m) (m[1] === 'CHECK' ? checks : refusals).set(m[2], JSON.parse(m[3]) as Outcome);
  }
  return { checks, refusals };
}
