// AUTO-GENERATED from driver/catalog.json via templates/script-api.d.ts.hbs by templates/gen.ts. Do not edit: edit the catalog and run `npm run gen`.
//
// Types of the gstack flow-script API, for script authors' editors. A flow script is the body of
// an async function; to type-check one, either reference this file (the globals below become
// visible), or wrap the script in a function whose parameter is typed GstackScriptGlobals:
//
//   // @ts-check
//   /** @param {import("./script-api").GstackScriptGlobals} g */
//   async function flow({ openTab, closeTab, snapshot, console, pwd, path }) { ...script... }
import type { Page as PlaywrightPage, Locator } from "playwright-core";

export type { Locator };

/** Options of `snapshot(pg, opts)`. */
export interface SnapshotOptions {
  /** Keep only elements you can act on. */
  interactive?: boolean;
  /** Drop unnamed wrapper elements. */
  compact?: boolean;
  /** Limit the nesting depth. */
  depth?: number;
  /** Snapshot only the element this selector matches. */
  selector?: string;
}

/** What `snapshot` returns. */
export interface SnapshotResult {
  /** One line per element; actionable ones carry `[ref=eN]`. */
  tree: string;
  /** What changed since the previous snapshot of this page in this script. */
  diff: string;
}

/** `init` of the script's `fetch`. */
export interface FetchInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
}

/** The headers of a `fetch` response (names are case-insensitive). */
export interface FetchHeaders {
  get(name: string): string | null;
  has(name: string): boolean;
  entries(): Array<[string, string]>;
}

/** What the script's `fetch` resolves to. */
export interface FetchResponse {
  readonly ok: boolean;
  readonly status: number;
  readonly statusText: string;
  readonly url: string;
  readonly headers: FetchHeaders;
  text(): Promise<string>;
  json(): Promise<any>;
  arrayBuffer(): Promise<ArrayBuffer>;
}

/** What `fs.writeFile` and `fs.appendFile` accept. */
export type FileData = string | ArrayBufferView | ArrayBuffer;

/** The promise-style `fs`, confined to `pwd`. */
export interface ConfinedFs {
  readFile(path: string): Promise<Uint8Array>;
  readFile(path: string, encoding: string): Promise<string>;
  writeFile(path: string, data: FileData, options?: string | { encoding?: string; flag?: "w" | "a" }): Promise<void>;
  appendFile(path: string, data: FileData, options?: string | { encoding?: string; flag?: "w" | "a" }): Promise<void>;
  mkdir(path: string, options?: { recursive?: boolean }): Promise<string | undefined>;
  readdir(path?: string): Promise<string[]>;
  stat(path: string): Promise<{ size: number; isFile(): boolean; isDirectory(): boolean; mtimeMs: number }>;
  rm(path: string, options?: { recursive?: boolean; force?: boolean }): Promise<void>;
  unlink(path: string): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  copyFile(from: string, to: string): Promise<void>;
  access(path: string): Promise<void>;
}

/** The script's `console`: every method prints one evidence line to stdout. */
export interface ScriptConsole {
  log(...values: unknown[]): void;
  info(...values: unknown[]): void;
  warn(...values: unknown[]): void;
  error(...values: unknown[]): void;
  debug(...values: unknown[]): void;
}

/** The Page members added to Playwright's (catalog "pageExtras"). */
export interface PageExtras {
  /** Playwright's `locator`, plus snapshot refs: `"e12"`, `"@e12"`, `"ref=e12"` and frame refs like `"f1e2"` resolve the element with that ref in the latest snapshot of this page. A ref whose element is gone fails at once with `Ref e12 is stale — the element (button "Save") no longer exists. Take a new snapshot.` */
  locator: (refOrSelector: string) => Locator;
  /** A raw Chrome DevTools Protocol call on this page's target, e.g. `Page.addScriptToEvaluateOnNewDocument` before `goto` (send `Page.enable` first: Chromium runs init scripts only for a session with the Page domain enabled), or `Emulation.setDeviceMetricsOverride`. */
  _sendToTarget: (method: string, params?: Record<string, unknown>) => Promise<any>;
}

/** A tab opened by the script: the Playwright Page members of catalog "pageMethods", each with
 * its known support on Aside (all work on Chromium), plus the extras. */
export interface Page extends PageExtras {
  /** Aside: verified (Aside CLI 1.26). */
  goto: PlaywrightPage["goto"];
  /** Aside: not verified: works on Chromium; check it on Aside before a script for both engines relies on it. */
  reload: PlaywrightPage["reload"];
  /** Aside: not verified: works on Chromium; check it on Aside before a script for both engines relies on it. */
  goBack: PlaywrightPage["goBack"];
  /** Aside: not verified: works on Chromium; check it on Aside before a script for both engines relies on it. */
  goForward: PlaywrightPage["goForward"];
  /** Aside: verified (Aside CLI 1.26). */
  url: PlaywrightPage["url"];
  /** Aside: not verified: works on Chromium; check it on Aside before a script for both engines relies on it. */
  title: PlaywrightPage["title"];
  /** Aside: not verified: works on Chromium; check it on Aside before a script for both engines relies on it. */
  content: PlaywrightPage["content"];
  /** Aside: not verified: works on Chromium; check it on Aside before a script for both engines relies on it. */
  setContent: PlaywrightPage["setContent"];
  /** Aside: not verified: works on Chromium; check it on Aside before a script for both engines relies on it. */
  click: PlaywrightPage["click"];
  /** Aside: not verified: works on Chromium; check it on Aside before a script for both engines relies on it. */
  dblclick: PlaywrightPage["dblclick"];
  /** Aside: verified (Aside CLI 1.26). */
  fill: PlaywrightPage["fill"];
  /** Aside: not verified: works on Chromium; check it on Aside before a script for both engines relies on it. */
  press: PlaywrightPage["press"];
  /** Aside: not verified: works on Chromium; check it on Aside before a script for both engines relies on it. */
  type: PlaywrightPage["type"];
  /** Aside: not verified: works on Chromium; check it on Aside before a script for both engines relies on it. */
  check: PlaywrightPage["check"];
  /** Aside: not verified: works on Chromium; check it on Aside before a script for both engines relies on it. */
  uncheck: PlaywrightPage["uncheck"];
  /** Aside: not verified: works on Chromium; check it on Aside before a script for both engines relies on it. */
  selectOption: PlaywrightPage["selectOption"];
  /** Aside: not verified: works on Chromium; check it on Aside before a script for both engines relies on it. */
  hover: PlaywrightPage["hover"];
  /** Aside: not verified: works on Chromium; check it on Aside before a script for both engines relies on it. */
  focus: PlaywrightPage["focus"];
  /** Aside: not verified: works on Chromium; check it on Aside before a script for both engines relies on it. */
  tap: PlaywrightPage["tap"];
  /** Aside: not verified: works on Chromium; check it on Aside before a script for both engines relies on it. */
  setInputFiles: PlaywrightPage["setInputFiles"];
  /** Aside: not verified: works on Chromium; check it on Aside before a script for both engines relies on it. */
  dragAndDrop: PlaywrightPage["dragAndDrop"];
  /** Aside: verified (Aside CLI 1.26). */
  getByRole: PlaywrightPage["getByRole"];
  /** Aside: verified (Aside CLI 1.26). */
  getByLabel: PlaywrightPage["getByLabel"];
  /** Aside: not verified: works on Chromium; check it on Aside before a script for both engines relies on it. */
  getByText: PlaywrightPage["getByText"];
  /** Aside: not verified: works on Chromium; check it on Aside before a script for both engines relies on it. */
  getByPlaceholder: PlaywrightPage["getByPlaceholder"];
  /** Aside: not verified: works on Chromium; check it on Aside before a script for both engines relies on it. */
  getByTestId: PlaywrightPage["getByTestId"];
  /** Aside: not verified: works on Chromium; check it on Aside before a script for both engines relies on it. */
  getByAltText: PlaywrightPage["getByAltText"];
  /** Aside: not verified: works on Chromium; check it on Aside before a script for both engines relies on it. */
  getByTitle: PlaywrightPage["getByTitle"];
  /** Aside: not verified: works on Chromium; check it on Aside before a script for both engines relies on it. */
  frameLocator: PlaywrightPage["frameLocator"];
  /** Aside: verified (Aside CLI 1.26). */
  evaluate: PlaywrightPage["evaluate"];
  /** Aside: not verified: works on Chromium; check it on Aside before a script for both engines relies on it. */
  evaluateHandle: PlaywrightPage["evaluateHandle"];
  /** Aside: verified (Aside CLI 1.26). */
  waitForSelector: PlaywrightPage["waitForSelector"];
  /** Aside: verified (Aside CLI 1.26). */
  waitForURL: PlaywrightPage["waitForURL"];
  /** Aside: not verified: works on Chromium; check it on Aside before a script for both engines relies on it. */
  waitForLoadState: PlaywrightPage["waitForLoadState"];
  /** Aside: not verified: works on Chromium; check it on Aside before a script for both engines relies on it. */
  waitForFunction: PlaywrightPage["waitForFunction"];
  /** Aside: not verified: works on Chromium; check it on Aside before a script for both engines relies on it. */
  waitForTimeout: PlaywrightPage["waitForTimeout"];
  /** Aside: not verified: works on Chromium; check it on Aside before a script for both engines relies on it. */
  waitForResponse: PlaywrightPage["waitForResponse"];
  /** Aside: not verified: works on Chromium; check it on Aside before a script for both engines relies on it. */
  waitForRequest: PlaywrightPage["waitForRequest"];
  /** Aside: not verified: works on Chromium; check it on Aside before a script for both engines relies on it. */
  waitForEvent: PlaywrightPage["waitForEvent"];
  /** Aside: verified (Aside CLI 1.26). */
  screenshot: PlaywrightPage["screenshot"];
  /** Aside: verified (Aside CLI 1.26). */
  pdf: PlaywrightPage["pdf"];
  /** Aside: not available. Aside has no setViewportSize: size the view through CDP, `await pg._sendToTarget("Emulation.setDeviceMetricsOverride", { width: 375, height: 812, deviceScaleFactor: 1, mobile: false })` (the responsive shape does), then load the page. Capture a view sized this way through CDP too, `const { data } = await pg._sendToTarget("Page.captureScreenshot", { format: "png" })` and `fs.writeFile(file, Buffer.from(data, "base64"))`: on Chromium `pg.screenshot` sizes the image by Playwright's own viewport (1280x720), not by the CDP size. */
  setViewportSize: PlaywrightPage["setViewportSize"];
  /** Aside: not verified: works on Chromium; check it on Aside before a script for both engines relies on it. */
  viewportSize: PlaywrightPage["viewportSize"];
  /** Aside: not verified: works on Chromium; check it on Aside before a script for both engines relies on it. */
  emulateMedia: PlaywrightPage["emulateMedia"];
  /** Aside: not verified: works on Chromium; check it on Aside before a script for both engines relies on it. */
  setExtraHTTPHeaders: PlaywrightPage["setExtraHTTPHeaders"];
  /** Aside: not verified: works on Chromium; check it on Aside before a script for both engines relies on it. */
  isVisible: PlaywrightPage["isVisible"];
  /** Aside: not verified: works on Chromium; check it on Aside before a script for both engines relies on it. */
  isHidden: PlaywrightPage["isHidden"];
  /** Aside: not verified: works on Chromium; check it on Aside before a script for both engines relies on it. */
  isEnabled: PlaywrightPage["isEnabled"];
  /** Aside: not verified: works on Chromium; check it on Aside before a script for both engines relies on it. */
  isChecked: PlaywrightPage["isChecked"];
  /** Aside: not verified: works on Chromium; check it on Aside before a script for both engines relies on it. */
  textContent: PlaywrightPage["textContent"];
  /** Aside: not verified: works on Chromium; check it on Aside before a script for both engines relies on it. */
  innerText: PlaywrightPage["innerText"];
  /** Aside: not verified: works on Chromium; check it on Aside before a script for both engines relies on it. */
  innerHTML: PlaywrightPage["innerHTML"];
  /** Aside: not verified: works on Chromium; check it on Aside before a script for both engines relies on it. */
  inputValue: PlaywrightPage["inputValue"];
  /** Aside: not verified: works on Chromium; check it on Aside before a script for both engines relies on it. */
  getAttribute: PlaywrightPage["getAttribute"];
  /** Aside: not available. Aside has no page events that fire or last through a call (`pg.on("console")` never fires there): collect what the page does in the page itself, with an init script installed before `goto` through `pg._sendToTarget("Page.addScriptToEvaluateOnNewDocument", …)` (the cookbook's evidence hook does). */
  on: PlaywrightPage["on"];
  /** Aside: not available. Aside has no page events that fire or last through a call (`pg.on("console")` never fires there): collect what the page does in the page itself, with an init script installed before `goto` through `pg._sendToTarget("Page.addScriptToEvaluateOnNewDocument", …)` (the cookbook's evidence hook does). */
  once: PlaywrightPage["once"];
  /** Aside: not available. Aside has no page events that fire or last through a call (`pg.on("console")` never fires there): collect what the page does in the page itself, with an init script installed before `goto` through `pg._sendToTarget("Page.addScriptToEvaluateOnNewDocument", …)` (the cookbook's evidence hook does). */
  off: PlaywrightPage["off"];
  /** Aside: not verified: works on Chromium; check it on Aside before a script for both engines relies on it. */
  keyboard: PlaywrightPage["keyboard"];
  /** Aside: not verified: works on Chromium; check it on Aside before a script for both engines relies on it. */
  mouse: PlaywrightPage["mouse"];
  /** Aside: not verified: works on Chromium; check it on Aside before a script for both engines relies on it. */
  frames: PlaywrightPage["frames"];
  /** Aside: not verified: works on Chromium; check it on Aside before a script for both engines relies on it. */
  mainFrame: PlaywrightPage["mainFrame"];
  /** Aside: not verified: works on Chromium; check it on Aside before a script for both engines relies on it. */
  bringToFront: PlaywrightPage["bringToFront"];
  /** Aside: not verified: works on Chromium; check it on Aside before a script for both engines relies on it. */
  close: PlaywrightPage["close"];
  /** Aside: not verified: works on Chromium; check it on Aside before a script for both engines relies on it. */
  isClosed: PlaywrightPage["isClosed"];
}

/** What differs from Playwright (catalog "playwright"): the members a flow script cannot call,
 * each with the message it throws, which names what to use instead. Every other public member
 * of Playwright's classes works as Playwright documents it, or with a restriction
 * (PlaywrightRestrictions). */
export interface PlaywrightRefusals {
  /** its nodes carry field values uncut: use pg.ariaSnapshot() or snapshot(pg), which cut secret values */
  "Page.ariaSnapshotJSON": never;
  /** pg.cancelPickLocator() belongs to pickLocator, which a flow script cannot use: take snapshot(pg, { interactive: true }) and use a ref. */
  "Page.cancelPickLocator": never;
  /** pg.pause() needs Playwright's inspector and a person at the browser, which a flow script has neither of: look at the page with snapshot(pg) or pg.screenshot({ path: path.join(pwd, "page.png") }). */
  "Page.pause": never;
  /** pg.pickLocator() waits for a person to click in the browser: take snapshot(pg, { interactive: true }) and use a ref, e.g. pg.locator("e12"). */
  "Page.pickLocator": never;
  /** removeAllListeners() is not available in a flow script (the runner listens too): remove your own listener with pg.off(event, handler). */
  "Page.removeAllListeners": never;
  /** its nodes carry field values uncut: use locator.ariaSnapshot() or snapshot(pg), which cut secret values */
  "Locator.ariaSnapshotJSON": never;
  /** The browser context is the session's and outlives the call: close your own tabs with closeTab(pg) instead. */
  "BrowserContext.[Symbol.asyncDispose]": never;
  /** The browser context is the session's and outlives the call: close your own tabs with closeTab(pg) instead. */
  "BrowserContext.close": never;
  /** removeAllListeners() is not available in a flow script (the runner listens too): remove your own listener with context.off(event, handler). */
  "BrowserContext.removeAllListeners": never;
  /** The browser is the session's and outlives the call: use the context you have, pg.context(), and open tabs with openTab(url). */
  "Browser.[Symbol.asyncDispose]": never;
  /** The browser is the session's and outlives the call: use the context you have, pg.context(), and open tabs with openTab(url). */
  "Browser.bind": never;
  /** The browser is the session's and outlives the call: use the context you have, pg.context(), and open tabs with openTab(url). */
  "Browser.close": never;
  /** The browser is the session's and outlives the call: use the context you have, pg.context(), and open tabs with openTab(url). */
  "Browser.newBrowserCDPSession": never;
  /** The browser is the session's and outlives the call: use the context you have, pg.context(), and open tabs with openTab(url). */
  "Browser.newContext": never;
  /** The browser is the session's and outlives the call: use the context you have, pg.context(), and open tabs with openTab(url). */
  "Browser.newPage": never;
  /** The browser is the session's and outlives the call: use the context you have, pg.context(), and open tabs with openTab(url). */
  "Browser.removeAllListeners": never;
  /** The browser is the session's and outlives the call: use the context you have, pg.context(), and open tabs with openTab(url). */
  "Browser.startTracing": never;
  /** The browser is the session's and outlives the call: use the context you have, pg.context(), and open tabs with openTab(url). */
  "Browser.stopTracing": never;
  /** The browser is the session's and outlives the call: use the context you have, pg.context(), and open tabs with openTab(url). */
  "Browser.unbind": never;
  /** A flow script cannot connect to another browser: run the whole call there with gstack run --connect ws://... (or --cdp URL). */
  "BrowserType.connect": never;
  /** A flow script cannot connect to another browser: run the whole call there with gstack run --cdp URL (or --connect ws://...). */
  "BrowserType.connectOverCDP": never;
  /** A flow script runs in the session's browser and cannot start another: open tabs with openTab(url), or run the call with --ephemeral for a throwaway profile. */
  "BrowserType.launch": never;
  /** A flow script runs in the session's browser and cannot start another: open tabs with openTab(url), or run the call with --ephemeral for a throwaway profile. */
  "BrowserType.launchPersistentContext": never;
  /** A flow script runs in the session's browser and cannot start another: open tabs with openTab(url), or run the call with --ephemeral for a throwaway profile. */
  "BrowserType.launchServer": never;
  /** download.createReadStream() hands out a Node stream, which a flow script cannot use: save it with download.saveAs(path.join(pwd, download.suggestedFilename())) and read it with fs.readFile. */
  "Download.createReadStream": never;
  /** The context's request client is the session's and serves fetch(): it cannot be disposed by a flow script. */
  "APIRequestContext.[Symbol.asyncDispose]": never;
  /** The context's request client is the session's and serves fetch(): it cannot be disposed by a flow script. */
  "APIRequestContext.dispose": never;
  /** tracing.startHar() writes the HAR by itself outside the call: record a trace with tracing.start() and tracing.stop({ path: path.join(pwd, "trace.zip") }), or collect responses with pg.on("response", ...). */
  "Tracing.startHar": never;
  /** tracing.stopHar() belongs to startHar, which a flow script cannot use: record a trace with tracing.start() and tracing.stop({ path: path.join(pwd, "trace.zip") }). */
  "Tracing.stopHar": never;
  /** routeWebSocket(...).connectToServer() is not available in a flow script: answer the page yourself with ws.send() in the route handler. */
  "WebSocketRoute.connectToServer": never;
  /** page.screencast.start() records to a path of its own choosing: take pg.screenshot({ path: path.join(pwd, "step-1.png") }) at each step instead. */
  "Screencast.start": never;
  /** page.screencast.stop() belongs to start(), which a flow script cannot use: take pg.screenshot({ path }) at each step instead. */
  "Screencast.stop": never;
  /** The page debugger pauses the session's browser beyond the call: look at the page with snapshot(pg) and pg.evaluate() instead. */
  "Debugger.next": never;
  /** The page debugger pauses the session's browser beyond the call: look at the page with snapshot(pg) and pg.evaluate() instead. */
  "Debugger.requestPause": never;
  /** The page debugger pauses the session's browser beyond the call: look at the page with snapshot(pg) and pg.evaluate() instead. */
  "Debugger.resume": never;
  /** The page debugger pauses the session's browser beyond the call: look at the page with snapshot(pg) and pg.evaluate() instead. */
  "Debugger.runTo": never;
  /** Virtual WebAuthn credentials stay in the session's browser after the call: not available in a flow script. Sign in once with gstack sessions import-cookies, or use the site's password form. */
  "Credentials.create": never;
  /** Virtual WebAuthn credentials stay in the session's browser after the call: not available in a flow script. Sign in once with gstack sessions import-cookies, or use the site's password form. */
  "Credentials.delete": never;
  /** Virtual WebAuthn credentials stay in the session's browser after the call: not available in a flow script. Sign in once with gstack sessions import-cookies, or use the site's password form. */
  "Credentials.get": never;
  /** Virtual WebAuthn credentials stay in the session's browser after the call: not available in a flow script. Sign in once with gstack sessions import-cookies, or use the site's password form. */
  "Credentials.install": never;
}

/** Playwright members that work with a restriction (catalog "playwright"): files under pwd only,
 * no file: URLs, secret values cut, raw CDP on an allow-list. */
export interface PlaywrightRestrictions {
  /** the values of password and other secret fields are cut, as in snapshots (a secret textarea's or rich-text box's text; other text is as the page has it) */
  "Page.innerText": never;
  /** the values of password and other secret fields are cut, as in snapshots (a secret textarea's or rich-text box's text; other text is as the page has it) */
  "Page.textContent": never;
  /** the values of password and other secret fields are cut, as in content() */
  "Page.innerHTML": never;
  /** the values of password and other secret fields are cut, as in snapshots */
  "Page.ariaSnapshot": never;
  /** `{ path }` is read from pwd only */
  "Page.addInitScript": never;
  /** `{ path }` is read from pwd only */
  "Page.addScriptTag": never;
  /** `{ path }` is read from pwd only */
  "Page.addStyleTag": never;
  /** the values of password and other secret fields are cut, as in snapshots */
  "Page.content": never;
  /** file: URLs are refused (unless --allow-file-urls) */
  "Page.goto": never;
  /** a `path` is written under pwd (relative paths land in pwd); Playwright never gets the script's path; a bare string (`pdf("a.pdf")`, which Playwright ignores, writing nothing) is refused, naming `{ path }` */
  "Page.pdf": never;
  /** the HAR is read from pwd only; `{ update: true }` is refused (it would write outside the call) */
  "Page.routeFromHAR": never;
  /** a `path` is written under pwd (relative paths land in pwd); Playwright never gets the script's path; a bare string (`screenshot("a.png")`, which Playwright ignores, writing nothing) is refused, naming `{ path }` */
  "Page.screenshot": never;
  /** file paths are read from pwd only (`{ name, mimeType, buffer }` payloads pass as they are) */
  "Page.setInputFiles": never;
  /** the values of password and other secret fields are cut, as in snapshots (a secret textarea's or rich-text box's text; other text is as the page has it) */
  "Frame.innerText": never;
  /** the values of password and other secret fields are cut, as in snapshots (a secret textarea's or rich-text box's text; other text is as the page has it) */
  "Frame.textContent": never;
  /** the values of password and other secret fields are cut, as in content() */
  "Frame.innerHTML": never;
  /** `{ path }` is read from pwd only */
  "Frame.addScriptTag": never;
  /** `{ path }` is read from pwd only */
  "Frame.addStyleTag": never;
  /** the values of password and other secret fields are cut, as in snapshots */
  "Frame.content": never;
  /** file: URLs are refused (unless --allow-file-urls) */
  "Frame.goto": never;
  /** file paths are read from pwd only */
  "Frame.setInputFiles": never;
  /** the values of password and other secret fields are cut, as in snapshots (a secret textarea's or rich-text box's text; other text is as the page has it) */
  "Locator.innerText": never;
  /** the values of password and other secret fields are cut, as in snapshots (a secret textarea's or rich-text box's text; other text is as the page has it) */
  "Locator.textContent": never;
  /** the values of password and other secret fields are cut, as in snapshots (a secret textarea's or rich-text box's text; other text is as the page has it) */
  "Locator.allInnerTexts": never;
  /** the values of password and other secret fields are cut, as in snapshots (a secret textarea's or rich-text box's text; other text is as the page has it) */
  "Locator.allTextContents": never;
  /** the values of password and other secret fields are cut, as in content() */
  "Locator.innerHTML": never;
  /** the values of password and other secret fields are cut, as in snapshots */
  "Locator.ariaSnapshot": never;
  /** file paths in `files` are read from pwd only (`{ name, mimeType, buffer }` payloads pass as they are) */
  "Locator.drop": never;
  /** a `path` is written under pwd (relative paths land in pwd); Playwright never gets the script's path; a bare string (`screenshot("a.png")`, which Playwright ignores, writing nothing) is refused, naming `{ path }` */
  "Locator.screenshot": never;
  /** file paths are read from pwd only */
  "Locator.setInputFiles": never;
  /** the values of password and other secret fields are cut, as in snapshots (a secret textarea's or rich-text box's text; other text is as the page has it) */
  "ElementHandle.innerText": never;
  /** the values of password and other secret fields are cut, as in snapshots (a secret textarea's or rich-text box's text; other text is as the page has it) */
  "ElementHandle.textContent": never;
  /** the values of password and other secret fields are cut, as in content() */
  "ElementHandle.innerHTML": never;
  /** a `path` is written under pwd (relative paths land in pwd); Playwright never gets the script's path; a bare string (`screenshot("a.png")`, which Playwright ignores, writing nothing) is refused, naming `{ path }` */
  "ElementHandle.screenshot": never;
  /** file paths are read from pwd only */
  "ElementHandle.setInputFiles": never;
  /** `{ path }` is read from pwd only */
  "BrowserContext.addInitScript": never;
  /** the HAR is read from pwd only; `{ update: true }` is refused */
  "BrowserContext.routeFromHAR": never;
  /** a path is read from pwd only, and a file that is not storage-state JSON is refused without quoting it */
  "BrowserContext.setStorageState": never;
  /** a `path` is written under pwd (relative paths land in pwd); Playwright never gets the script's path */
  "BrowserContext.storageState": never;
  /** `{ url }`: file: URLs are refused (unless --allow-file-urls) */
  "Route.continue": never;
  /** `{ url }`: file: URLs are refused (unless --allow-file-urls) */
  "Route.fallback": never;
  /** `{ url }`: file: URLs are refused (unless --allow-file-urls) */
  "Route.fetch": never;
  /** `{ path }` is read from pwd only */
  "Route.fulfill": never;
  /** a `path` is written under pwd (relative paths land in pwd); Playwright never gets the script's path */
  "Download.saveAs": never;
  /** file paths are read from pwd only */
  "FileChooser.setFiles": never;
  /** file: URLs are refused (unless --allow-file-urls) */
  "APIRequestContext.delete": never;
  /** file: URLs are refused (unless --allow-file-urls) */
  "APIRequestContext.fetch": never;
  /** file: URLs are refused (unless --allow-file-urls) */
  "APIRequestContext.get": never;
  /** file: URLs are refused (unless --allow-file-urls) */
  "APIRequestContext.head": never;
  /** file: URLs are refused (unless --allow-file-urls) */
  "APIRequestContext.patch": never;
  /** file: URLs are refused (unless --allow-file-urls) */
  "APIRequestContext.post": never;
  /** file: URLs are refused (unless --allow-file-urls) */
  "APIRequestContext.put": never;
  /** a `path` is written under pwd (relative paths land in pwd); Playwright never gets the script's path */
  "APIRequestContext.storageState": never;
  /** the method must be on the CDP allow-list (catalog `playwright.cdp`); the message is made plain data first; local paths in it are read from pwd only; file: URLs are refused */
  "CDPSession.send": never;
  /** `name` must be a plain file name (no folders), and `sources: true` is refused (it would copy files from outside pwd): the trace is kept in the call's private folder until `stop({ path })` writes it under pwd */
  "Tracing.start": never;
  /** `name` must be a plain file name (no folders) */
  "Tracing.startChunk": never;
  /** a `path` is written under pwd (relative paths land in pwd); Playwright never gets the script's path */
  "Tracing.stop": never;
  /** a `path` is written under pwd (relative paths land in pwd); Playwright never gets the script's path */
  "Tracing.stopChunk": never;
  /** a `path` is written under pwd (relative paths land in pwd); Playwright never gets the script's path */
  "Video.saveAs": never;
}

/** Every global a flow script sees (catalog "globals"). */
export interface GstackScriptGlobals {
  /** Opens a new tab in this call's browser, navigates it to `url` (default `about:blank`) and returns its Page. Open every tab you use; never reuse tabs you did not open. (Aside: yes, Chromium: yes) */
  openTab: (url?: string) => Promise<Page>;
  /** Closes a tab this script opened (never another). Tabs still open when the script ends are closed for you. (Aside: yes, Chromium: yes) */
  closeTab: (pg: Page) => Promise<void>;
  /** Accessibility snapshot of the page. Each `tree` line reads `- role "name" [attributes] [ref=e12]` (the name is a JSON string, so a quote inside it reads `\"`); `pg.locator("e12")` resolves the ref. Refs in the page itself read `eN` whatever the page did (reloads, form posts, navigations); only elements inside an iframe read `fNeM`; the same page normally gives the same refs in a fresh call, yet take refs from a snapshot of this call (an app that draws in another order numbers its elements otherwise, and an old ref may then name another element). `diff` is what changed since the previous snapshot of that page in this script (the first one says it is the baseline): lines are compared without their refs, `[active]` and `[cursor=pointer]`, so a re-rendered element that reads the same is unchanged, and focus moving or a pointer cursor appearing is not a change; each change comes after one context line (prefixed by two spaces: the label next to it, or its parent), removed lines (`- `) lose their refs, added ones (`+ `) keep them. It compares whole trees, so take before/after snapshots with the same options. `interactive` keeps only elements you can act on (with a link's `/url` and a select's options; an open `dialog` or `alertdialog` keeps its line, with what can be acted on in it indented under it, on Chromium; a link or button named by its content shows that name, and one with no name of its own whose wrapper has a title keeps the wrapper's line under it, `- generic "Today"`, as Playwright prints it: `getByRole` finds no button by that name, so act by ref or `pg.getByTitle("Today")`), `compact` drops unnamed wrappers, `depth` limits nesting (and says how many deeper lines it left out), `selector` snapshots one element (the first it matches in document order, hidden or not: a list `main, body` takes `body`, which comes first). Iframes and open shadow roots are included; secret field values (type=password; a name, id or label with a word like password, token, otp, pin or api key; autocomplete current-password, new-password, one-time-code, cc-*) show as `[redacted]`, as in `pg.content()`; the size is bounded and says so when cut. (Aside: yes, Chromium: yes) */
  snapshot: (pg: Page, opts?: SnapshotOptions) => Promise<SnapshotResult>;
  /** A PNG screenshot (base64) with the ref label of every interactive element drawn on the page, so a person or a vision model can match refs to what they see. It takes its own interactive snapshot: the refs drawn work with `pg.locator`, and the next `snapshot()` still diffs against your previous one. It shows the visible window (the viewport), not the whole page, and takes no options: for one part, scroll it into view first, or size the window to it with `pg.setViewportSize` (Chromium). (Aside: yes, Chromium: yes) */
  annotatedScreenshot: (pg: Page) => Promise<{ base64Image: string }>;
  /** Waits `ms` milliseconds (0 to 2147483647; another value is an error). The only timer in a flow script; prefer `pg.waitForSelector` or `pg.waitForURL` when you wait for the page. (Aside: yes, Chromium: yes) */
  sleep: (ms: number) => Promise<void>;
  /** This call's artifact directory (absolute path): a directory of its own, not the shell's working directory you ran `gstack` from, which a script cannot read (put what a script needs, such as text to type or a file to upload, in the script itself and write it under `pwd` first). The only place `fs` — and the `path` option of `pg.screenshot`, `pg.pdf` and `locator.screenshot` — may write (relative paths land here); it outlives the call, and `--out DIR` copies what you wrote here. (Aside: yes, Chromium: yes) */
  pwd: string;
  /** Promise-style file system confined to `pwd`: relative paths resolve against `pwd`; a path outside `pwd`, or one that passes through a symbolic link, is refused before anything is read or written (checked on the opened file, so a concurrent swap cannot redirect it). New files are 0600, new directories 0700. (Aside: yes, Chromium: yes) */
  fs: ConfinedFs;
  /** Node's `path` module (join, basename, extname, ...), for building paths under `pwd`. Read-only: assigning to its members throws. (Aside: yes, Chromium: yes) */
  path: typeof import("node:path");
  /** Node's `Buffer`, e.g. to decode the base64 image of `annotatedScreenshot`. Read-only: assigning to its members throws. (Aside: yes, Chromium: yes) */
  Buffer: typeof globalThis.Buffer;
  /** HTTP request that carries this browser context's cookies (and stores the cookies it gets back). The response is the web's `fetch` Response, not Playwright's: `ok`, `status` and `statusText` are values (`res.status`, not `res.status()`), then `url`, `headers.get(name)`, `text()`, `json()`, `arrayBuffer()`. (Aside: yes, Chromium: yes) */
  fetch: (url: string, init?: FetchInit) => Promise<FetchResponse>;
  /** Evidence lines to stdout (`log`, `info`, `warn` and `error` all print one line per call; objects print as JSON; a Playwright object such as a Response prints as `<Response: …>` naming members to print, e.g. `resp.status()`). End every script with `console.log("GSTACK_STEP_OK")`, spelled out in the script's own body after its last step: printed as a value, or from a `.then` callback or a listener, it does not count. (Aside: yes, Chromium: yes) */
  console: ScriptConsole;
  /** The call's parameters, read-only: what `gstack flows run NAME --param k=v` (or `gstack run --params JSON`) gave, with a saved flow's defaults filled in and checked against its JSON schema; `{}` when the call has none. A saved flow reads its inputs from here (`const { url, email } = params`) instead of hard-coding them. On Aside the runner puts `const params = …;` before the script: do not declare a top-level `params` of your own. (Aside: yes, Chromium: yes) */
  params: { readonly [name: string]: any };
  /** Aside only: lists the tabs of the user's own browser window. The Chromium profile has no user tabs, so on Chromium it throws an error saying to open your own tab with `openTab(url)` instead. (Aside: yes, Chromium: no) */
  listBrowserTabs: () => Promise<Array<{ id: string; url: string; title: string }>>;
  /** Aside only: attaches to one of the user's own tabs (only when the user asked you to work in that tab). On Chromium it throws an error saying to use `openTab(url)` instead. (Aside: yes, Chromium: no) */
  attachBrowserTab: (id: string) => Promise<Page>;
}

declare global {
  /** Opens a new tab in this call's browser, navigates it to `url` (default `about:blank`) and returns its Page. Open every tab you use; never reuse tabs you did not open. */
  const openTab: GstackScriptGlobals["openTab"];
  /** Closes a tab this script opened (never another). Tabs still open when the script ends are closed for you. */
  const closeTab: GstackScriptGlobals["closeTab"];
  /** Accessibility snapshot of the page. Each `tree` line reads `- role "name" [attributes] [ref=e12]` (the name is a JSON string, so a quote inside it reads `\"`); `pg.locator("e12")` resolves the ref. Refs in the page itself read `eN` whatever the page did (reloads, form posts, navigations); only elements inside an iframe read `fNeM`; the same page normally gives the same refs in a fresh call, yet take refs from a snapshot of this call (an app that draws in another order numbers its elements otherwise, and an old ref may then name another element). `diff` is what changed since the previous snapshot of that page in this script (the first one says it is the baseline): lines are compared without their refs, `[active]` and `[cursor=pointer]`, so a re-rendered element that reads the same is unchanged, and focus moving or a pointer cursor appearing is not a change; each change comes after one context line (prefixed by two spaces: the label next to it, or its parent), removed lines (`- `) lose their refs, added ones (`+ `) keep them. It compares whole trees, so take before/after snapshots with the same options. `interactive` keeps only elements you can act on (with a link's `/url` and a select's options; an open `dialog` or `alertdialog` keeps its line, with what can be acted on in it indented under it, on Chromium; a link or button named by its content shows that name, and one with no name of its own whose wrapper has a title keeps the wrapper's line under it, `- generic "Today"`, as Playwright prints it: `getByRole` finds no button by that name, so act by ref or `pg.getByTitle("Today")`), `compact` drops unnamed wrappers, `depth` limits nesting (and says how many deeper lines it left out), `selector` snapshots one element (the first it matches in document order, hidden or not: a list `main, body` takes `body`, which comes first). Iframes and open shadow roots are included; secret field values (type=password; a name, id or label with a word like password, token, otp, pin or api key; autocomplete current-password, new-password, one-time-code, cc-*) show as `[redacted]`, as in `pg.content()`; the size is bounded and says so when cut. */
  const snapshot: GstackScriptGlobals["snapshot"];
  /** A PNG screenshot (base64) with the ref label of every interactive element drawn on the page, so a person or a vision model can match refs to what they see. It takes its own interactive snapshot: the refs drawn work with `pg.locator`, and the next `snapshot()` still diffs against your previous one. It shows the visible window (the viewport), not the whole page, and takes no options: for one part, scroll it into view first, or size the window to it with `pg.setViewportSize` (Chromium). */
  const annotatedScreenshot: GstackScriptGlobals["annotatedScreenshot"];
  /** Waits `ms` milliseconds (0 to 2147483647; another value is an error). The only timer in a flow script; prefer `pg.waitForSelector` or `pg.waitForURL` when you wait for the page. */
  const sleep: GstackScriptGlobals["sleep"];
  /** This call's artifact directory (absolute path): a directory of its own, not the shell's working directory you ran `gstack` from, which a script cannot read (put what a script needs, such as text to type or a file to upload, in the script itself and write it under `pwd` first). The only place `fs` — and the `path` option of `pg.screenshot`, `pg.pdf` and `locator.screenshot` — may write (relative paths land here); it outlives the call, and `--out DIR` copies what you wrote here. */
  const pwd: GstackScriptGlobals["pwd"];
  /** Promise-style file system confined to `pwd`: relative paths resolve against `pwd`; a path outside `pwd`, or one that passes through a symbolic link, is refused before anything is read or written (checked on the opened file, so a concurrent swap cannot redirect it). New files are 0600, new directories 0700. */
  const fs: GstackScriptGlobals["fs"];
  /** Node's `path` module (join, basename, extname, ...), for building paths under `pwd`. Read-only: assigning to its members throws. */
  const path: GstackScriptGlobals["path"];
  /** The call's parameters, read-only: what `gstack flows run NAME --param k=v` (or `gstack run --params JSON`) gave, with a saved flow's defaults filled in and checked against its JSON schema; `{}` when the call has none. A saved flow reads its inputs from here (`const { url, email } = params`) instead of hard-coding them. On Aside the runner puts `const params = …;` before the script: do not declare a top-level `params` of your own. */
  const params: GstackScriptGlobals["params"];
  /** Aside only: lists the tabs of the user's own browser window. The Chromium profile has no user tabs, so on Chromium it throws an error saying to open your own tab with `openTab(url)` instead. */
  const listBrowserTabs: GstackScriptGlobals["listBrowserTabs"];
  /** Aside only: attaches to one of the user's own tabs (only when the user asked you to work in that tab). On Chromium it throws an error saying to use `openTab(url)` instead. */
  const attachBrowserTab: GstackScriptGlobals["attachBrowserTab"];
}
