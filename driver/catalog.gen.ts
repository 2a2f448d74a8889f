// AUTO-GENERATED from driver/catalog.json by templates/gen-code.ts. Do not edit: edit the catalog and run `npm run gen`.
//
// The catalog's names as code (docs/ARCHITECTURE.md, "Codegen"): code that uses a name the
// catalog no longer has does not compile.
import type { Locator, Page as PlaywrightPage } from 'playwright-core';

/** The last line of a script that completed every step. */
export const SENTINEL = "GSTACK_STEP_OK";

/** `--engine` choices (the shared flag). */
export const ENGINE_CHOICES = ["auto", "aside", "chromium"] as const;
export type EngineChoice = (typeof ENGINE_CHOICES)[number];
/** An engine that runs scripts (`auto` picks one of these). */
export type EngineName = Exclude<EngineChoice, 'auto'>;

/** What the Aside readiness probe can say. */
export type ProbeOutcome = "READY: aside" | "NEEDS_ASIDE" | "ASIDE_NOT_RUNNING" | "ASIDE_TIMEOUT" | "ASIDE_CLI_ERROR";

/** Exit codes by name. */
export const EXIT = {
  /** The script completed and printed GSTACK_STEP_OK. */
  OK: 0,
  /** The script threw, timed out, or ended without the sentinel; the last line starts with `[error]`. */
  SCRIPT_FAILED: 1,
  /** Bad command line (unknown flag, missing script, unreadable file), or a browser profile or cookie database that is missing, locked or damaged. */
  USAGE: 2,
  /** No engine could run the script (no Chromium found, or `--engine aside` without a usable Aside), or this machine lacks what the command needs (a display for `gstack login`, the keyring key of a browser's cookies). */
  NO_ENGINE: 3,
  /** Another call held this session's profile past `--lock-timeout`. */
  PROFILE_BUSY: 4,
} as const;
export type ExitName = keyof typeof EXIT;
export type ExitCode = (typeof EXIT)[ExitName];

/** The evidence labels the cookbook and the runner print. */
export type EvidenceLabel = "GSTACK_STEP_OK" | "[error]" | "URL=" | "TITLE=" | "CONSOLE_ERRORS=" | "NETWORK_ERRORS=" | "TEXT_START" | "TEXT_END" | "SNAPSHOT_START" | "SNAPSHOT_END" | "DIFF_START" | "DIFF_END" | "INPUT=" | "ASIDE_DIR=" | "SCREENSHOT=" | "LINK" | "NAV=" | "RESOURCES=" | "VIEWPORT=" | "PDF=" | "STEP" | "FIELD" | "EVIDENCE_START" | "EVIDENCE_END" | "EVIDENCE_SKIPPED" | "SUBMIT_BLOCKED=" | "ARTIFACT" | "DIALOG";

/** The fields of the object `--json` prints for a script call (the shared flag's description). */
export const RUN_RESULT_FIELDS = ["ok", "exitCode", "engine", "session", "lines", "artifacts", "error", "durationMs", "pwd", "evidence"] as const;
export type RunResultField = (typeof RUN_RESULT_FIELDS)[number];

/** Every `gstack` command. */
export const COMMAND_NAMES = ["run", "probe", "cookbook", "flows", "sessions", "login", "render", "pdf", "diagram", "skills", "mcp"] as const;
export type CommandName = (typeof COMMAND_NAMES)[number];

/** Each command's own failures (catalog `commands[].errors`), by name, with the exit they end the call with. */
export const COMMAND_ERRORS = {
  "flows": {
    /** run, show, check: no saved flow of that name in this repository's .gstack/flows/ or in GSTACK_HOME/flows/. */
    FLOW_NOT_FOUND: "USAGE",
    /** run, and `gstack run --params` on a flow's file: a parameter is missing, unknown or not of its type; the message names it and the schema's rule. */
    FLOW_PARAMS_INVALID: "USAGE",
    /** a flow's name is not a plain name, a `--param` or `--required` cannot be read, or a saved file's header block is broken. */
    FLOW_INVALID: "USAGE",
    /** save: a flow of that name is already saved there. */
    FLOW_EXISTS: "USAGE",
    /** save: the script did not pass, so nothing was saved. */
    FLOW_NOT_SAVED: "SCRIPT_FAILED",
    /** save: this directory is in no git repository, so there is no project to keep the flow in. */
    NO_REPOSITORY: "USAGE",
  },
  "sessions": {
    /** import-cookies --from-browser: the browser has no data folder for this user (not installed, or never started). */
    BROWSER_NOT_FOUND: "USAGE",
    /** import-cookies --from-browser: no profile of that name, or the profile has no cookie database yet; the message lists the profiles there. */
    BROWSER_PROFILE_NOT_FOUND: "USAGE",
    /** import-cookies --from-browser: the cookie database could not be read (locked by another program, or permission denied), or it changed under every read. */
    COOKIE_DB_LOCKED: "USAGE",
    /** import-cookies --from-browser: the file is not a readable Chromium cookie database. */
    COOKIE_DB_CORRUPT: "USAGE",
    /** import-cookies --from-browser: the cookies are encrypted with a key this machine cannot get (Linux: no `secret-tool` or no matching Secret Service entry, e.g. KWallet; macOS: the Keychain refused; Windows: not supported). */
    KEYRING_UNAVAILABLE: "NO_ENGINE",
    /** import-cookies --from-browser: the profile has no unexpired cookie for the `--domain` sites. */
    NO_MATCHING_COOKIES: "USAGE",
  },
  "login": {
    /** There is no display to show the window on (Linux without DISPLAY or WAYLAND_DISPLAY: a CI box, an SSH session). */
    NO_DISPLAY: "NO_ENGINE",
    /** URL is not an http(s) URL. */
    BAD_URL: "USAGE",
    /** The window was still open after `--timeout`; it was closed and what was signed in so far is kept. */
    SIGN_IN_TIMEOUT: "SCRIPT_FAILED",
    /** The command was interrupted (Ctrl-C, SIGTERM); the window was closed and what was signed in so far is kept. */
    INTERRUPTED: "SCRIPT_FAILED",
  },
} as const satisfies Partial<Record<CommandName, Record<string, ExitName>>>;
export type CommandWithErrors = keyof typeof COMMAND_ERRORS;
/** The error names of command C: a name the catalog does not list does not compile. */
export type CommandErrorName<C extends CommandWithErrors> = C extends CommandWithErrors ? keyof (typeof COMMAND_ERRORS)[C] & string : never;

/** A flag value yargs gives once or, repeated, as an array: always a list. */
function list(v: unknown): string[] {
  return v === undefined || v === null ? [] : (Array.isArray(v) ? v : [v]).map(String);
}

// ---- The script API: its types (catalog "types"), the Page a script gets, every global ----

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
export type FileData = string | Uint8Array;

/** The promise-style `fs`, confined to `pwd`. */
export interface ConfinedFs {
  readFile(path: string): Promise<Uint8Array>;
  readFile(path: string, encoding: string): Promise<string>;
  writeFile(path: string, data: FileData, encoding?: string): Promise<void>;
  appendFile(path: string, data: FileData, encoding?: string): Promise<void>;
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

/** A tab as a script sees it. */
export type Page = PlaywrightPage & PageExtras;
export type { Locator };

/** Every global a flow script sees (catalog "globals"): the sandbox implements exactly these. */
export interface ScriptGlobals {
  /** Opens a new tab in this call's browser, navigates it to `url` (default `about:blank`) and returns its Page. Open every tab you use; never reuse tabs you did not open. */
  openTab: (url?: string) => Promise<Page>;
  /** Closes a tab this script opened (never another). Tabs still open when the script ends are closed for you. */
  closeTab: (pg: Page) => Promise<void>;
  /** Accessibility snapshot of the page. Each `tree` line reads `- role "name" [attributes] [ref=e12]` (the name is a JSON string, so a quote inside it reads `\"`); `pg.locator("e12")` resolves the ref. Refs in the page itself read `eN` whatever the page did (reloads, form posts, navigations); only elements inside an iframe read `fNeM`; the same page gives the same refs in a fresh call. `diff` is what changed since the previous snapshot of that page in this script (the first one says it is the baseline): lines are compared without their refs and without `[active]`, so a re-rendered element that reads the same is unchanged and focus moving is not a change; each change comes after one context line (prefixed by two spaces: the label next to it, or its parent), removed lines (`- `) lose their refs, added ones (`+ `) keep them. It compares whole trees, so take before/after snapshots with the same options. `interactive` keeps only elements you can act on (with a link's `/url` and a select's options), `compact` drops unnamed wrappers, `depth` limits nesting (and says how many deeper lines it left out), `selector` snapshots one element. Iframes and open shadow roots are included; secret field values (type=password; a name, id or label with a word like password, token, otp, pin or api key; autocomplete current-password, new-password, one-time-code, cc-*) show as `[redacted]`, as in `pg.content()`; the size is bounded and says so when cut. */
  snapshot: (pg: Page, opts?: SnapshotOptions) => Promise<SnapshotResult>;
  /** A PNG screenshot (base64) with the ref label of every interactive element drawn on the page, so a person or a vision model can match refs to what they see. It takes its own interactive snapshot: the refs drawn work with `pg.locator`, and the next `snapshot()` still diffs against your previous one. */
  annotatedScreenshot: (pg: Page) => Promise<{ base64Image: string }>;
  /** Waits `ms` milliseconds. The only timer in a flow script; prefer `pg.waitForSelector` or `pg.waitForURL` when you wait for the page. */
  sleep: (ms: number) => Promise<void>;
  /** This call's artifact directory (absolute path): a directory of its own, not the shell's working directory you ran `gstack` from, which a script cannot read (put what a script needs, such as text to type or a file to upload, in the script itself and write it under `pwd` first). The only place `fs` — and the `path` option of `pg.screenshot`, `pg.pdf` and `locator.screenshot` — may write (relative paths land here); it outlives the call, and `--out DIR` copies what you wrote here. */
  pwd: string;
  /** Promise-style file system confined to `pwd`: relative paths resolve against `pwd`; a path outside `pwd`, or one that passes through a symbolic link, is refused before anything is read or written (checked on the opened file, so a concurrent swap cannot redirect it). New files are 0600, new directories 0700. */
  fs: ConfinedFs;
  /** Node's `path` module (join, basename, extname, ...), for building paths under `pwd`. Read-only: assigning to its members throws. */
  path: typeof import("node:path");
  /** Node's `Buffer`, e.g. to decode the base64 image of `annotatedScreenshot`. Read-only: assigning to its members throws. */
  Buffer: typeof globalThis.Buffer;
  /** HTTP request that carries this browser context's cookies (and stores the cookies it gets back). The response has `ok`, `status`, `statusText`, `url`, `headers.get(name)`, `text()`, `json()`, `arrayBuffer()`. */
  fetch: (url: string, init?: FetchInit) => Promise<FetchResponse>;
  /** Evidence lines to stdout (`log`, `info`, `warn` and `error` all print one line per call; objects print as JSON). End every script with `console.log("GSTACK_STEP_OK")`. */
  console: ScriptConsole;
  /** The call's parameters, read-only: what `gstack flows run NAME --param k=v` (or `gstack run --params JSON`) gave, with a saved flow's defaults filled in and checked against its JSON schema; `{}` when the call has none. A saved flow reads its inputs from here (`const { url, email } = params`) instead of hard-coding them. On Aside the runner puts `const params = …;` before the script: do not declare a top-level `params` of your own. */
  params: { readonly [name: string]: any };
  /** Aside only: lists the tabs of the user's own browser window. The Chromium profile has no user tabs, so on Chromium it throws an error saying to open your own tab with `openTab(url)` instead. */
  listBrowserTabs: () => Promise<Array<{ id: string; url: string; title: string }>>;
  /** Aside only: attaches to one of the user's own tabs (only when the user asked you to work in that tab). On Chromium it throws an error saying to use `openTab(url)` instead. */
  attachBrowserTab: (id: string) => Promise<Page>;
}
export type GlobalName = keyof ScriptGlobals;
export const GLOBAL_NAMES = ["openTab", "closeTab", "snapshot", "annotatedScreenshot", "sleep", "pwd", "fs", "path", "Buffer", "fetch", "console", "params", "listBrowserTabs", "attachBrowserTab"] as const satisfies readonly GlobalName[];

// ---- Each command's flags and positionals: their names, types and defaults ----

export interface SharedFlags {
  /** --engine: Which browser runs the script. `auto` uses the user's Aside browser when it answers the readiness probe, else our Chromium profile. */
  engine: "auto" | "aside" | "chromium";
  /** --session: Session key (default: GSTACK_SESSION_KEY, CLAUDE_SESSION_ID, CONDUCTOR_WORKSPACE_ID, the git worktree, then the cwd). Each key has its own profile and logins. */
  session?: string;
  /** --profile: Use this Chromium profile directory instead of the session's. */
  profile?: string;
  /** --ephemeral: Use a throwaway profile, removed when the call ends. */
  ephemeral: boolean;
  /** --timeout: Whole-call deadline in milliseconds; past it the browser is killed and the call exits 1. */
  timeout: number;
  /** --lock-timeout: How long to wait for another call on the same profile before exiting 4. */
  lockTimeout: number;
  /** --max-output: Cap on stdout bytes; past it lines are dropped with a `[truncated N bytes]` marker (the sentinel and the final `[error]` line are always kept). */
  maxOutput: number;
  /** --json: Print one JSON object `{ ok, exitCode, engine, session, lines, artifacts, error, durationMs, pwd, evidence }` instead of lines (`evidence`: a failed call's tabs, see `--evidence`; else null). */
  json: boolean;
  /** --out: Copy the artifacts the script wrote under `pwd` into DIR and print `ARTIFACT <path>` for each. */
  out?: string;
  /** --connect: Run on a remote Playwright browser server (ws://...). The session's cookies and localStorage are kept in a storageState file. */
  connect?: string;
  /** --cdp: Run on a remote browser over a CDP endpoint (Browserless, Selenium Grid node). State is kept like --connect. */
  cdp?: string;
  /** --evidence: When the call fails (a throw, the timeout, no sentinel, an interruption), print each open tab's evidence before the `[error]` line: an `EVIDENCE_START tab N of M` … `EVIDENCE_END` block with `URL=`, `TITLE=`, a screenshot (`ARTIFACT`, under `pwd`, copied by `--out`), `CONSOLE_ERRORS=`, `NETWORK_ERRORS=` and an open `DIALOG`; `--json` has it as `evidence`. Bounded to 1.5 s in all; a hung page gets `EVIDENCE_SKIPPED`. On Aside the runner's wrapper collects it when the script throws (URL, title, screenshot, the hook's errors; no dialogs, and not after a timeout). `--no-evidence` turns it off. */
  evidence: boolean;
  /** --allow-file-urls: Let this call's script open `file:` URLs (refused by default: a page would get local files). */
  allowFileUrls: boolean;
  /** --in: Copy these files into the call's `pwd` before the script starts (read-only, under their own names) and print `INPUT=<name>` for each: the only way a script sees a user's file, e.g. `setInputFiles(path.join(pwd, "photo.png"))`. Regular files only (no directories or devices), 50 MB each and 100 MB in all; a relative path is taken from your current directory; a missing or refused file exits 2. On Aside (whose `pwd` exists only once the script runs) the files travel inside the script, 256 KB in all, and are not read-only. Give the files after the script (`gstack run -f flow.js --in a.png b.pdf`) or repeat `--in`. */
  in: string[];
  /** --headed: Show the Chromium window (debugging on a desktop). Needs the full browser: a headless call prefers Chromium's faster headless shell when one is installed. */
  headed: boolean;
}

/** The SharedFlags of one invocation, from yargs' argv (which has already checked types and choices). */
export function readSharedFlags(argv: Record<string, unknown>): SharedFlags {
  return {
    engine: (argv["engine"] as "auto" | "aside" | "chromium" | undefined) ?? "auto",
    session: (argv["session"] as string | undefined),
    profile: (argv["profile"] as string | undefined),
    ephemeral: (argv["ephemeral"] as boolean | undefined) ?? false,
    timeout: (argv["timeout"] as number | undefined) ?? 120000,
    lockTimeout: (argv["lock-timeout"] as number | undefined) ?? 60000,
    maxOutput: (argv["max-output"] as number | undefined) ?? 200000,
    json: (argv["json"] as boolean | undefined) ?? false,
    out: (argv["out"] as string | undefined),
    connect: (argv["connect"] as string | undefined),
    cdp: (argv["cdp"] as string | undefined),
    evidence: (argv["evidence"] as boolean | undefined) ?? true,
    allowFileUrls: (argv["allow-file-urls"] as boolean | undefined) ?? false,
    in: list(argv["in"]),
    headed: (argv["headed"] as boolean | undefined) ?? false,
  };
}

export interface RunFlags {
  /** --file: Read the script from FILE. */
  file?: string;
  /** --params: The script's `params` global, as a JSON object: `--params '{"email":"b@example.com"}'`. A saved flow's file (it starts with a `/* gstack-flow` header) checks them against its parameter schema and fills in its defaults, as `gstack flows run` does; a missing or ill-typed one exits 2. */
  params?: string;
  /** --engine: Which browser runs the script. `auto` uses the user's Aside browser when it answers the readiness probe, else our Chromium profile. */
  engine: "auto" | "aside" | "chromium";
  /** --session: Session key (default: GSTACK_SESSION_KEY, CLAUDE_SESSION_ID, CONDUCTOR_WORKSPACE_ID, the git worktree, then the cwd). Each key has its own profile and logins. */
  session?: string;
  /** --profile: Use this Chromium profile directory instead of the session's. */
  profile?: string;
  /** --ephemeral: Use a throwaway profile, removed when the call ends. */
  ephemeral: boolean;
  /** --timeout: Whole-call deadline in milliseconds; past it the browser is killed and the call exits 1. */
  timeout: number;
  /** --lock-timeout: How long to wait for another call on the same profile before exiting 4. */
  lockTimeout: number;
  /** --max-output: Cap on stdout bytes; past it lines are dropped with a `[truncated N bytes]` marker (the sentinel and the final `[error]` line are always kept). */
  maxOutput: number;
  /** --json: Print one JSON object `{ ok, exitCode, engine, session, lines, artifacts, error, durationMs, pwd, evidence }` instead of lines (`evidence`: a failed call's tabs, see `--evidence`; else null). */
  json: boolean;
  /** --out: Copy the artifacts the script wrote under `pwd` into DIR and print `ARTIFACT <path>` for each. */
  out?: string;
  /** --in: Copy these files into the call's `pwd` before the script starts (read-only, under their own names) and print `INPUT=<name>` for each: the only way a script sees a user's file, e.g. `setInputFiles(path.join(pwd, "photo.png"))`. Regular files only (no directories or devices), 50 MB each and 100 MB in all; a relative path is taken from your current directory; a missing or refused file exits 2. On Aside (whose `pwd` exists only once the script runs) the files travel inside the script, 256 KB in all, and are not read-only. Give the files after the script (`gstack run -f flow.js --in a.png b.pdf`) or repeat `--in`. */
  in: string[];
  /** --evidence: When the call fails (a throw, the timeout, no sentinel, an interruption), print each open tab's evidence before the `[error]` line: an `EVIDENCE_START tab N of M` … `EVIDENCE_END` block with `URL=`, `TITLE=`, a screenshot (`ARTIFACT`, under `pwd`, copied by `--out`), `CONSOLE_ERRORS=`, `NETWORK_ERRORS=` and an open `DIALOG`; `--json` has it as `evidence`. Bounded to 1.5 s in all; a hung page gets `EVIDENCE_SKIPPED`. On Aside the runner's wrapper collects it when the script throws (URL, title, screenshot, the hook's errors; no dialogs, and not after a timeout). `--no-evidence` turns it off. */
  evidence: boolean;
  /** --connect: Run on a remote Playwright browser server (ws://...). The session's cookies and localStorage are kept in a storageState file. */
  connect?: string;
  /** --cdp: Run on a remote browser over a CDP endpoint (Browserless, Selenium Grid node). State is kept like --connect. */
  cdp?: string;
  /** --allow-file-urls: Let this call's script open `file:` URLs (refused by default: a page would get local files). */
  allowFileUrls: boolean;
  /** --headed: Show the Chromium window (debugging on a desktop). Needs the full browser: a headless call prefers Chromium's faster headless shell when one is installed. */
  headed: boolean;
}

/** The RunFlags of one invocation, from yargs' argv (which has already checked types and choices). */
export function readRunFlags(argv: Record<string, unknown>): RunFlags {
  return {
    file: (argv["file"] as string | undefined),
    params: (argv["params"] as string | undefined),
    engine: (argv["engine"] as "auto" | "aside" | "chromium" | undefined) ?? "auto",
    session: (argv["session"] as string | undefined),
    profile: (argv["profile"] as string | undefined),
    ephemeral: (argv["ephemeral"] as boolean | undefined) ?? false,
    timeout: (argv["timeout"] as number | undefined) ?? 120000,
    lockTimeout: (argv["lock-timeout"] as number | undefined) ?? 60000,
    maxOutput: (argv["max-output"] as number | undefined) ?? 200000,
    json: (argv["json"] as boolean | undefined) ?? false,
    out: (argv["out"] as string | undefined),
    in: list(argv["in"]),
    evidence: (argv["evidence"] as boolean | undefined) ?? true,
    connect: (argv["connect"] as string | undefined),
    cdp: (argv["cdp"] as string | undefined),
    allowFileUrls: (argv["allow-file-urls"] as boolean | undefined) ?? false,
    headed: (argv["headed"] as boolean | undefined) ?? false,
  };
}

export interface RunPositionals {
  /** <script>: The flow script, or `-` to read it from stdin. */
  script?: string;
}

/** The RunPositionals of one invocation, from yargs' argv (which has already checked choices and that required ones are there). */
export function readRunPositionals(argv: Record<string, unknown>): RunPositionals {
  return {
    script: argv["script"] === undefined ? undefined : String(argv["script"]),
  };
}

export interface ProbeFlags {
  /** --engine: Report for a call made with this `--engine`. */
  engine: "auto" | "aside" | "chromium";
  /** --json: Print one JSON object `{ ok, exitCode, probe: { outcome, reason }, engine, why, chromium, session }` instead of lines. */
  json: boolean;
  /** --session: Session key (default: GSTACK_SESSION_KEY, CLAUDE_SESSION_ID, CONDUCTOR_WORKSPACE_ID, the git worktree, then the cwd). Each key has its own profile and logins. */
  session?: string;
}

/** The ProbeFlags of one invocation, from yargs' argv (which has already checked types and choices). */
export function readProbeFlags(argv: Record<string, unknown>): ProbeFlags {
  return {
    engine: (argv["engine"] as "auto" | "aside" | "chromium" | undefined) ?? "auto",
    json: (argv["json"] as boolean | undefined) ?? false,
    session: (argv["session"] as string | undefined),
  };
}

export interface CookbookFlags {
  /** --url: The page the shape opens (its `url` parameter; required unless --params has it). */
  url?: string;
  /** --params: The shape's other parameters as a JSON object, checked against its JSON schema (see `gstack cookbook list`), e.g. `'{"selector":"h1"}'`. */
  params?: string;
  /** --print: Print the complete flow script instead of running it, to adapt and run with `gstack run -f`. Required parameters you did not give take the shape's example values, and stderr names them. */
  print: boolean;
  /** --engine: Which browser runs the script. `auto` uses the user's Aside browser when it answers the readiness probe, else our Chromium profile. */
  engine: "auto" | "aside" | "chromium";
  /** --session: Session key (default: GSTACK_SESSION_KEY, CLAUDE_SESSION_ID, CONDUCTOR_WORKSPACE_ID, the git worktree, then the cwd). Each key has its own profile and logins. */
  session?: string;
  /** --profile: Use this Chromium profile directory instead of the session's. */
  profile?: string;
  /** --ephemeral: Use a throwaway profile, removed when the call ends. */
  ephemeral: boolean;
  /** --timeout: Whole-call deadline in milliseconds; past it the browser is killed and the call exits 1. */
  timeout: number;
  /** --lock-timeout: How long to wait for another call on the same profile before exiting 4. */
  lockTimeout: number;
  /** --max-output: Cap on stdout bytes; past it lines are dropped with a `[truncated N bytes]` marker (the sentinel and the final `[error]` line are always kept). */
  maxOutput: number;
  /** --json: Print one JSON object `{ ok, exitCode, engine, session, lines, artifacts, error, durationMs, pwd, evidence }` instead of lines (`evidence`: a failed call's tabs, see `--evidence`; else null). */
  json: boolean;
  /** --out: Copy the artifacts the script wrote under `pwd` into DIR and print `ARTIFACT <path>` for each. */
  out?: string;
  /** --in: Copy these files into the call's `pwd` before the script starts (read-only, under their own names) and print `INPUT=<name>` for each: the only way a script sees a user's file, e.g. `setInputFiles(path.join(pwd, "photo.png"))`. Regular files only (no directories or devices), 50 MB each and 100 MB in all; a relative path is taken from your current directory; a missing or refused file exits 2. On Aside (whose `pwd` exists only once the script runs) the files travel inside the script, 256 KB in all, and are not read-only. Give the files after the script (`gstack run -f flow.js --in a.png b.pdf`) or repeat `--in`. */
  in: string[];
  /** --evidence: When the call fails (a throw, the timeout, no sentinel, an interruption), print each open tab's evidence before the `[error]` line: an `EVIDENCE_START tab N of M` … `EVIDENCE_END` block with `URL=`, `TITLE=`, a screenshot (`ARTIFACT`, under `pwd`, copied by `--out`), `CONSOLE_ERRORS=`, `NETWORK_ERRORS=` and an open `DIALOG`; `--json` has it as `evidence`. Bounded to 1.5 s in all; a hung page gets `EVIDENCE_SKIPPED`. On Aside the runner's wrapper collects it when the script throws (URL, title, screenshot, the hook's errors; no dialogs, and not after a timeout). `--no-evidence` turns it off. */
  evidence: boolean;
  /** --connect: Run on a remote Playwright browser server (ws://...). The session's cookies and localStorage are kept in a storageState file. */
  connect?: string;
  /** --cdp: Run on a remote browser over a CDP endpoint (Browserless, Selenium Grid node). State is kept like --connect. */
  cdp?: string;
  /** --allow-file-urls: Let this call's script open `file:` URLs (refused by default: a page would get local files). */
  allowFileUrls: boolean;
  /** --headed: Show the Chromium window (debugging on a desktop). Needs the full browser: a headless call prefers Chromium's faster headless shell when one is installed. */
  headed: boolean;
}

/** The CookbookFlags of one invocation, from yargs' argv (which has already checked types and choices). */
export function readCookbookFlags(argv: Record<string, unknown>): CookbookFlags {
  return {
    url: (argv["url"] as string | undefined),
    params: (argv["params"] as string | undefined),
    print: (argv["print"] as boolean | undefined) ?? false,
    engine: (argv["engine"] as "auto" | "aside" | "chromium" | undefined) ?? "auto",
    session: (argv["session"] as string | undefined),
    profile: (argv["profile"] as string | undefined),
    ephemeral: (argv["ephemeral"] as boolean | undefined) ?? false,
    timeout: (argv["timeout"] as number | undefined) ?? 120000,
    lockTimeout: (argv["lock-timeout"] as number | undefined) ?? 60000,
    maxOutput: (argv["max-output"] as number | undefined) ?? 200000,
    json: (argv["json"] as boolean | undefined) ?? false,
    out: (argv["out"] as string | undefined),
    in: list(argv["in"]),
    evidence: (argv["evidence"] as boolean | undefined) ?? true,
    connect: (argv["connect"] as string | undefined),
    cdp: (argv["cdp"] as string | undefined),
    allowFileUrls: (argv["allow-file-urls"] as boolean | undefined) ?? false,
    headed: (argv["headed"] as boolean | undefined) ?? false,
  };
}

export interface CookbookPositionals {
  /** <shape>: `list`, or the shape to run. */
  shape: "list" | "read" | "flow" | "annotated" | "responsive" | "links" | "perf" | "pdf" | "element-shot" | "form";
}

/** The CookbookPositionals of one invocation, from yargs' argv (which has already checked choices and that required ones are there). */
export function readCookbookPositionals(argv: Record<string, unknown>): CookbookPositionals {
  return {
    shape: String(argv["shape"]) as "list" | "read" | "flow" | "annotated" | "responsive" | "links" | "perf" | "pdf" | "element-shot" | "form",
  };
}

export interface FlowsFlags {
  /** --file: save: read the script from FILE (`-`: stdin). */
  file?: string;
  /** --describe: save: one line saying what the flow does and proves (`list` shows it). */
  describe?: string;
  /** --param: save: declare a parameter, with its type (`string` unless named: `number`, `integer`, `boolean`) and its default, which the save run uses. run: one parameter's value. Repeat for several. */
  param: string[];
  /** --required: save: a parameter every run must give; its `--param` value is used by the save run and by `check`, not as a default. Repeat for several. */
  required: string[];
  /** --global: save: keep the flow in GSTACK_HOME/flows/ (yours, for every project) instead of the repository's .gstack/flows/. */
  global: boolean;
  /** --force: save: replace a saved flow of that name. */
  force: boolean;
  /** --engine: Which browser runs the script. `auto` uses the user's Aside browser when it answers the readiness probe, else our Chromium profile. */
  engine: "auto" | "aside" | "chromium";
  /** --session: Session key (default: GSTACK_SESSION_KEY, CLAUDE_SESSION_ID, CONDUCTOR_WORKSPACE_ID, the git worktree, then the cwd). Each key has its own profile and logins. */
  session?: string;
  /** --profile: Use this Chromium profile directory instead of the session's. */
  profile?: string;
  /** --ephemeral: Use a throwaway profile, removed when the call ends. */
  ephemeral: boolean;
  /** --timeout: Whole-call deadline in milliseconds; past it the browser is killed and the call exits 1. */
  timeout: number;
  /** --lock-timeout: How long to wait for another call on the same profile before exiting 4. */
  lockTimeout: number;
  /** --max-output: Cap on stdout bytes; past it lines are dropped with a `[truncated N bytes]` marker (the sentinel and the final `[error]` line are always kept). */
  maxOutput: number;
  /** --json: Print one JSON object `{ ok, exitCode, engine, session, lines, artifacts, error, durationMs, pwd, evidence }` instead of lines (`evidence`: a failed call's tabs, see `--evidence`; else null). */
  json: boolean;
  /** --out: Copy the artifacts the script wrote under `pwd` into DIR and print `ARTIFACT <path>` for each. */
  out?: string;
  /** --in: Copy these files into the call's `pwd` before the script starts (read-only, under their own names) and print `INPUT=<name>` for each: the only way a script sees a user's file, e.g. `setInputFiles(path.join(pwd, "photo.png"))`. Regular files only (no directories or devices), 50 MB each and 100 MB in all; a relative path is taken from your current directory; a missing or refused file exits 2. On Aside (whose `pwd` exists only once the script runs) the files travel inside the script, 256 KB in all, and are not read-only. Give the files after the script (`gstack run -f flow.js --in a.png b.pdf`) or repeat `--in`. */
  in: string[];
  /** --evidence: When the call fails (a throw, the timeout, no sentinel, an interruption), print each open tab's evidence before the `[error]` line: an `EVIDENCE_START tab N of M` … `EVIDENCE_END` block with `URL=`, `TITLE=`, a screenshot (`ARTIFACT`, under `pwd`, copied by `--out`), `CONSOLE_ERRORS=`, `NETWORK_ERRORS=` and an open `DIALOG`; `--json` has it as `evidence`. Bounded to 1.5 s in all; a hung page gets `EVIDENCE_SKIPPED`. On Aside the runner's wrapper collects it when the script throws (URL, title, screenshot, the hook's errors; no dialogs, and not after a timeout). `--no-evidence` turns it off. */
  evidence: boolean;
  /** --connect: Run on a remote Playwright browser server (ws://...). The session's cookies and localStorage are kept in a storageState file. */
  connect?: string;
  /** --cdp: Run on a remote browser over a CDP endpoint (Browserless, Selenium Grid node). State is kept like --connect. */
  cdp?: string;
  /** --allow-file-urls: Let this call's script open `file:` URLs (refused by default: a page would get local files). */
  allowFileUrls: boolean;
  /** --headed: Show the Chromium window (debugging on a desktop). Needs the full browser: a headless call prefers Chromium's faster headless shell when one is installed. */
  headed: boolean;
}

/** The FlowsFlags of one invocation, from yargs' argv (which has already checked types and choices). */
export function readFlowsFlags(argv: Record<string, unknown>): FlowsFlags {
  return {
    file: (argv["file"] as string | undefined),
    describe: (argv["describe"] as string | undefined),
    param: list(argv["param"]),
    required: list(argv["required"]),
    global: (argv["global"] as boolean | undefined) ?? false,
    force: (argv["force"] as boolean | undefined) ?? false,
    engine: (argv["engine"] as "auto" | "aside" | "chromium" | undefined) ?? "auto",
    session: (argv["session"] as string | undefined),
    profile: (argv["profile"] as string | undefined),
    ephemeral: (argv["ephemeral"] as boolean | undefined) ?? false,
    timeout: (argv["timeout"] as number | undefined) ?? 120000,
    lockTimeout: (argv["lock-timeout"] as number | undefined) ?? 60000,
    maxOutput: (argv["max-output"] as number | undefined) ?? 200000,
    json: (argv["json"] as boolean | undefined) ?? false,
    out: (argv["out"] as string | undefined),
    in: list(argv["in"]),
    evidence: (argv["evidence"] as boolean | undefined) ?? true,
    connect: (argv["connect"] as string | undefined),
    cdp: (argv["cdp"] as string | undefined),
    allowFileUrls: (argv["allow-file-urls"] as boolean | undefined) ?? false,
    headed: (argv["headed"] as boolean | undefined) ?? false,
  };
}

export interface FlowsPositionals {
  /** <action>: save, run, list, show or check. */
  action: "save" | "run" | "list" | "show" | "check";
  /** <args>: save: NAME, then the script (or `-` for stdin) unless `-f` gives it. run, show: NAME. check: the flows to check (default: every flow `list` shows). */
  args: string[];
}

/** The FlowsPositionals of one invocation, from yargs' argv (which has already checked choices and that required ones are there). */
export function readFlowsPositionals(argv: Record<string, unknown>): FlowsPositionals {
  return {
    action: String(argv["action"]) as "save" | "run" | "list" | "show" | "check",
    args: list(argv["args"]),
  };
}

export interface SessionsFlags {
  /** --session: The session `clear` and `import-cookies` act on (default: GSTACK_SESSION_KEY, CLAUDE_SESSION_ID, CONDUCTOR_WORKSPACE_ID, the git worktree, then the cwd). */
  session?: string;
  /** --older-than: gc: remove sessions idle for longer than this (`7d`, `12h`, `30m`, `90s`, `2w`). */
  olderThan: string;
  /** --dry-run: gc: print what would be removed, remove nothing. */
  dryRun: boolean;
  /** --all: stop: every background host of this user (all sessions' and the render host). The user's tool: it refuses (exit 4) while another session has a call running, unless --force. */
  all: boolean;
  /** --force: With --all: stop even sessions with a call running, after waiting up to 3 s for those calls to end; each stopped call's `[error]` line names this command and its pid. */
  force: boolean;
  /** --render: stop: only the render host (the browser `render`, `pdf` and `diagram` keep up between renders); no session is touched. */
  render: boolean;
  /** --mine: list: only the caller's own session (--session, GSTACK_SESSION_KEY, ...). */
  mine: boolean;
  /** --remote: import-cookies: write the session's storageState file (used by `--connect`/`--cdp` calls) instead of its local profile. Automatic when the session's last call was remote. */
  remote: boolean;
  /** --from-browser: import-cookies: read the cookies from this browser's own profile on this machine instead of a FILE (Linux and macOS). */
  fromBrowser?: "chrome" | "chromium" | "brave" | "edge";
  /** --browser-profile: import-cookies --from-browser: which of the browser's profiles, by folder (`Default`, `Profile 1`) or by the name the browser shows. */
  browserProfile: string;
  /** --domain: import-cookies: only cookies of this site and its subdomains (`example.com` also takes `www.example.com`). Repeat for several sites; without it every cookie is imported. */
  domain: string[];
  /** --lock-timeout: import-cookies: how long to wait for a call holding the session before exiting 4. */
  lockTimeout: number;
  /** --json: Print one JSON object instead of lines. */
  json: boolean;
}

/** The SessionsFlags of one invocation, from yargs' argv (which has already checked types and choices). */
export function readSessionsFlags(argv: Record<string, unknown>): SessionsFlags {
  return {
    session: (argv["session"] as string | undefined),
    olderThan: (argv["older-than"] as string | undefined) ?? "7d",
    dryRun: (argv["dry-run"] as boolean | undefined) ?? false,
    all: (argv["all"] as boolean | undefined) ?? false,
    force: (argv["force"] as boolean | undefined) ?? false,
    render: (argv["render"] as boolean | undefined) ?? false,
    mine: (argv["mine"] as boolean | undefined) ?? false,
    remote: (argv["remote"] as boolean | undefined) ?? false,
    fromBrowser: (argv["from-browser"] as "chrome" | "chromium" | "brave" | "edge" | undefined),
    browserProfile: (argv["browser-profile"] as string | undefined) ?? "Default",
    domain: list(argv["domain"]),
    lockTimeout: (argv["lock-timeout"] as number | undefined) ?? 60000,
    json: (argv["json"] as boolean | undefined) ?? false,
  };
}

export interface SessionsPositionals {
  /** <action>: What to do: list, stop, gc, clear or import-cookies. */
  action: "list" | "stop" | "gc" | "clear" | "import-cookies";
  /** <target>: stop, clear: the session KEY or the slug `list` shows (default: this directory's session). import-cookies: the cookie FILE (leave it out with `--from-browser`). */
  target?: string;
}

/** The SessionsPositionals of one invocation, from yargs' argv (which has already checked choices and that required ones are there). */
export function readSessionsPositionals(argv: Record<string, unknown>): SessionsPositionals {
  return {
    action: String(argv["action"]) as "list" | "stop" | "gc" | "clear" | "import-cookies",
    target: argv["target"] === undefined ? undefined : String(argv["target"]),
  };
}

export interface LoginFlags {
  /** --session: The session to sign in (default: GSTACK_SESSION_KEY, CLAUDE_SESSION_ID, CONDUCTOR_WORKSPACE_ID, the git worktree, then the cwd). */
  session?: string;
  /** --timeout: How long the window stays open; then it is closed (what was signed in is kept) and the command exits 1. */
  timeout: number;
  /** --lock-timeout: How long to wait for a call holding the session before exiting 4. */
  lockTimeout: number;
  /** --json: Print one JSON object `{ ok, exitCode, session, url, ended, sites, cookies, sessionCookiesKept, error }` instead of lines. */
  json: boolean;
}

/** The LoginFlags of one invocation, from yargs' argv (which has already checked types and choices). */
export function readLoginFlags(argv: Record<string, unknown>): LoginFlags {
  return {
    session: (argv["session"] as string | undefined),
    timeout: (argv["timeout"] as number | undefined) ?? 600000,
    lockTimeout: (argv["lock-timeout"] as number | undefined) ?? 60000,
    json: (argv["json"] as boolean | undefined) ?? false,
  };
}

export interface LoginPositionals {
  /** <url>: The http(s) page to open, usually the site's sign-in page. */
  url: string;
}

/** The LoginPositionals of one invocation, from yargs' argv (which has already checked choices and that required ones are there). */
export function readLoginPositionals(argv: Record<string, unknown>): LoginPositionals {
  return {
    url: String(argv["url"]),
  };
}

export interface RenderFlags {
  /** --engine: Which browser renders. `auto` uses the user's Aside browser when it answers the readiness probe, else a throwaway headless Chromium. If Aside was chosen but cannot start, the render is retried once on Chromium. */
  engine: "auto" | "aside" | "chromium";
  /** --serve-root: Serve this directory instead of the file's own (for pages that load ../assets). It must contain the file. */
  serveRoot?: string;
  /** --wait-selector: After `load`, wait until this CSS selector matches an element (attached; need not be visible). */
  waitSelector?: string;
  /** --wait-expr: After `load` (and --wait-selector), wait until this JavaScript expression is truthy in the page. Promises are awaited; an expression that throws counts as "not yet". */
  waitExpr?: string;
  /** --wait-timeout: Bound on `load` plus the waits; past it the render fails with exit 1 naming the wait. */
  waitTimeout: number;
  /** --timeout: Whole-render deadline (browser start to last step); past it the browser is stopped and the call exits 1. */
  timeout: number;
  /** --allow-network: Let the page load from hosts other than its own loopback server. Off by default: remote requests are blocked, so a render works offline and leaks nothing. */
  allowNetwork: boolean;
  /** --pdf: Step: print the page to a PDF at OUT (repeatable). The print options below (the same as `gstack pdf`'s) belong to the --pdf before them. */
  pdf?: string;
  /** --paper: Paper size: letter, legal, tabloid, ledger, a0-a6, or WIDTHxHEIGHT (`8.5x11` in inches; units allowed: `210mmx297mm`). */
  paper: string;
  /** --margin: Page margins, CSS shorthand (1-4 lengths: `0.5in`, `1in 0.75in`, `10mm 15mm 10mm 15mm`) in in, mm, cm, pt or px (a bare number is px). Header, footer and page numbers sit inside the margins. */
  margin: string;
  /** --margin-top: Top margin (wins over --margin). */
  marginTop?: string;
  /** --margin-right: Right margin (wins over --margin). */
  marginRight?: string;
  /** --margin-bottom: Bottom margin (wins over --margin). */
  marginBottom?: string;
  /** --margin-left: Left margin (wins over --margin). */
  marginLeft?: string;
  /** --header: Header on every page: HTML, or a file holding it. Elements with class date, title, url, pageNumber, totalPages are filled in (pageNumber counts every page); inline your styles and set a font size (the default is tiny); it cannot load resources. */
  header?: string;
  /** --footer: Footer on every page, like --header. */
  footer?: string;
  /** --page-numbers: "N of M" centred at the foot of each page; `gstack pdf` leaves the cover and contents pages unnumbered (they still count, so N is the PDF page the TOC names). `--no-page-numbers` turns it off. */
  pageNumbers: boolean;
  /** --tagged: Tagged (accessible) PDF. `--no-tagged` turns it off. */
  tagged: boolean;
  /** --outline: Document outline (bookmarks) from the headings. `--no-outline` turns it off. */
  outline: boolean;
  /** --landscape: Landscape orientation. */
  landscape: boolean;
  /** --print-background: Print background colours and images (code and table shading). `--no-print-background` leaves them out. */
  printBackground: boolean;
  /** --prefer-css-page-size: Let the page's CSS `@page` size win over --paper and --landscape. */
  preferCssPageSize: boolean;
  /** --page-ranges: Print only these pages, e.g. `1-3,5` (page numbers still count every page). */
  pageRanges?: string;
  /** --scale: Rendering scale, 0.1 to 2. */
  scale: number;
  /** --screenshot: Step: capture the page as an image at OUT (repeatable; PNG unless --jpeg). Full page by default. Options after it: --width, --height, --selector, --viewport-only, --jpeg, --quality. */
  screenshot?: string;
  /** --width: Screenshot: viewport width in CSS pixels (the image is this wide). Default 1280. */
  width?: number;
  /** --height: Screenshot: viewport height in CSS pixels. Default 800 (a full-page shot may be taller). */
  height?: number;
  /** --selector: Screenshot: capture only the first element matching this CSS selector. */
  selector?: string;
  /** --viewport-only: Screenshot: capture only the viewport, not the full page. */
  viewportOnly: boolean;
  /** --jpeg: Screenshot: write JPEG instead of PNG. */
  jpeg: boolean;
  /** --quality: Screenshot: JPEG quality (with --jpeg). */
  quality?: number;
  /** --eval: Step: evaluate this JavaScript expression in the page (repeatable); a returned promise is awaited. The value is printed as `EVAL <i>: <json>` inside the untrusted-content fence. */
  eval?: string;
  /** --out: After --eval: write its value to FILE instead of printing it (strings as-is, `data:` URLs decoded to bytes, other values as JSON). */
  out?: string;
  /** --session: Session key (default: GSTACK_SESSION_KEY, CLAUDE_SESSION_ID, CONDUCTOR_WORKSPACE_ID, the git worktree, then the cwd). Each key has its own profile and logins. */
  session?: string;
}

export interface RenderPositionals {
  /** <file>: The HTML file to render. */
  file: string;
}

/** The RenderPositionals of one invocation, from yargs' argv (which has already checked choices and that required ones are there). */
export function readRenderPositionals(argv: Record<string, unknown>): RenderPositionals {
  return {
    file: String(argv["file"]),
  };
}

export interface PdfFlags {
  /** --to: Output format. `html` writes one self-contained file (images inlined, diagrams as inline SVG, no scripts). */
  to: "pdf" | "html";
  /** --cover: Start with a cover page: title, author, date. */
  cover: boolean;
  /** --toc: Add a table of contents whose page numbers are the pages the headings are on in the final PDF (the document is printed twice to find them). */
  toc: boolean;
  /** --toc-depth: Deepest heading level the TOC lists (1-6); the outline follows it unless `--outline-depth` is given. */
  tocDepth: number;
  /** --outline-depth: Deepest heading level the PDF outline (bookmarks) lists (1-6). Default: `--toc-depth` (3), so an API reference's many `#### Parameters` headings stay out of the bookmarks. */
  outlineDepth?: number;
  /** --chapter-breaks: Start each top-level (#) heading after the first on a new page. `--no-chapter-breaks` keeps the flow continuous. */
  chapterBreaks: boolean;
  /** --paper: Paper size: letter, legal, tabloid, ledger, a0-a6, or WIDTHxHEIGHT (`8.5x11` in inches; units allowed: `210mmx297mm`). */
  paper: string;
  /** --margin: Page margins, CSS shorthand (1-4 lengths: `0.5in`, `1in 0.75in`, `10mm 15mm 10mm 15mm`) in in, mm, cm, pt or px (a bare number is px). Header, footer and page numbers sit inside the margins. */
  margin: string;
  /** --margin-top: Top margin (wins over --margin). */
  marginTop?: string;
  /** --margin-right: Right margin (wins over --margin). */
  marginRight?: string;
  /** --margin-bottom: Bottom margin (wins over --margin). */
  marginBottom?: string;
  /** --margin-left: Left margin (wins over --margin). */
  marginLeft?: string;
  /** --header: Header on every page: HTML, or a file holding it. Elements with class date, title, url, pageNumber, totalPages are filled in (pageNumber counts every page); inline your styles and set a font size (the default is tiny); it cannot load resources. */
  header?: string;
  /** --footer: Footer on every page, like --header. */
  footer?: string;
  /** --page-numbers: "N of M" centred at the foot of each page; `gstack pdf` leaves the cover and contents pages unnumbered (they still count, so N is the PDF page the TOC names). `--no-page-numbers` turns it off. */
  pageNumbers: boolean;
  /** --tagged: Tagged (accessible) PDF. `--no-tagged` turns it off. */
  tagged: boolean;
  /** --outline: Document outline (bookmarks) from the headings. `--no-outline` turns it off. */
  outline: boolean;
  /** --landscape: Landscape orientation. */
  landscape: boolean;
  /** --print-background: Print background colours and images (code and table shading). `--no-print-background` leaves them out. */
  printBackground: boolean;
  /** --prefer-css-page-size: Let the page's CSS `@page` size win over --paper and --landscape. */
  preferCssPageSize: boolean;
  /** --page-ranges: Print only these pages, e.g. `1-3,5` (page numbers still count every page). */
  pageRanges?: string;
  /** --scale: Rendering scale, 0.1 to 2. */
  scale: number;
  /** --watermark: Faint diagonal text across every page (e.g. DRAFT, CONFIDENTIAL). */
  watermark?: string;
  /** --print-urls: Print each external link's URL in parentheses after its text, so a reader of the paper copy can follow it (links whose text already is the URL are left alone). */
  printUrls: boolean;
  /** --title: Document title (PDF metadata, cover). Default: front-matter `title:`, else the first # heading, else the file name. */
  title?: string;
  /** --author: Author for the cover and the PDF's Author field (default: front-matter `author:`). */
  author?: string;
  /** --date: Date for the cover, as written (default: front-matter `date:`, else today). */
  date?: string;
  /** --lang: Document language (default: front-matter `lang:`, else en); picks the CJK font variant for ja, ko, zh-TW. */
  lang?: string;
  /** --allow-network: Let the document load remote images, stylesheets and fonts. Off by default: they are blocked in the HTML and again in the browser. */
  allowNetwork: boolean;
  /** --remote-images: What a remote image (a badge, a hosted screenshot) becomes: `placeholder` a visible "blocked" box (loaded instead with `--allow-network`), `alt` its alt text as plain text, `omit` nothing. `alt` and `omit` apply with `--allow-network` too, and print one summary line instead of one per image. */
  remoteImages: "placeholder" | "alt" | "omit";
  /** --strict: Fail (exit 1) on a missing or unreadable local image instead of showing a placeholder. */
  strict: boolean;
  /** --engine: Which browser prints the page (see `gstack render`). */
  engine: "auto" | "aside" | "chromium";
  /** --timeout: Deadline for each print pass, in milliseconds. */
  timeout: number;
  /** --session: Session key (default: GSTACK_SESSION_KEY, CLAUDE_SESSION_ID, CONDUCTOR_WORKSPACE_ID, the git worktree, then the cwd). Each key has its own profile and logins. */
  session?: string;
}

/** The PdfFlags of one invocation, from yargs' argv (which has already checked types and choices). */
export function readPdfFlags(argv: Record<string, unknown>): PdfFlags {
  return {
    to: (argv["to"] as "pdf" | "html" | undefined) ?? "pdf",
    cover: (argv["cover"] as boolean | undefined) ?? false,
    toc: (argv["toc"] as boolean | undefined) ?? false,
    tocDepth: (argv["toc-depth"] as number | undefined) ?? 3,
    outlineDepth: (argv["outline-depth"] as number | undefined),
    chapterBreaks: (argv["chapter-breaks"] as boolean | undefined) ?? true,
    paper: (argv["paper"] as string | undefined) ?? "letter",
    margin: (argv["margin"] as string | undefined) ?? "0.75in 0.7in",
    marginTop: (argv["margin-top"] as string | undefined),
    marginRight: (argv["margin-right"] as string | undefined),
    marginBottom: (argv["margin-bottom"] as string | undefined),
    marginLeft: (argv["margin-left"] as string | undefined),
    header: (argv["header"] as string | undefined),
    footer: (argv["footer"] as string | undefined),
    pageNumbers: (argv["page-numbers"] as boolean | undefined) ?? true,
    tagged: (argv["tagged"] as boolean | undefined) ?? true,
    outline: (argv["outline"] as boolean | undefined) ?? true,
    landscape: (argv["landscape"] as boolean | undefined) ?? false,
    printBackground: (argv["print-background"] as boolean | undefined) ?? true,
    preferCssPageSize: (argv["prefer-css-page-size"] as boolean | undefined) ?? false,
    pageRanges: (argv["page-ranges"] as string | undefined),
    scale: (argv["scale"] as number | undefined) ?? 1,
    watermark: (argv["watermark"] as string | undefined),
    printUrls: (argv["print-urls"] as boolean | undefined) ?? false,
    title: (argv["title"] as string | undefined),
    author: (argv["author"] as string | undefined),
    date: (argv["date"] as string | undefined),
    lang: (argv["lang"] as string | undefined),
    allowNetwork: (argv["allow-network"] as boolean | undefined) ?? false,
    remoteImages: (argv["remote-images"] as "placeholder" | "alt" | "omit" | undefined) ?? "placeholder",
    strict: (argv["strict"] as boolean | undefined) ?? false,
    engine: (argv["engine"] as "auto" | "aside" | "chromium" | undefined) ?? "auto",
    timeout: (argv["timeout"] as number | undefined) ?? 120000,
    session: (argv["session"] as string | undefined),
  };
}

export interface PdfPositionals {
  /** <input>: The Markdown file. */
  input: string;
  /** <output>: Where to write the PDF (or HTML). Default: the input path with .pdf (.html with --to html). */
  output?: string;
}

/** The PdfPositionals of one invocation, from yargs' argv (which has already checked choices and that required ones are there). */
export function readPdfPositionals(argv: Record<string, unknown>): PdfPositionals {
  return {
    input: String(argv["input"]),
    output: argv["output"] === undefined ? undefined : String(argv["output"]),
  };
}

export interface DiagramFlags {
  /** --svg: Write the SVG here; repeat once per diagram, in order. */
  svg: string[];
  /** --png: Write the PNG here; repeat once per diagram, in order. */
  png: string[];
  /** --out-dir: Write <name>.svg / <name>.png for every diagram into DIR (formats from --format). Default when neither --svg nor --png is given: next to each input. */
  outDir?: string;
  /** --format: Formats written for diagrams without an explicit --svg/--png path. */
  format: "svg" | "png" | "both";
  /** --width: Diagram width in CSS px (the PNG is this wide times --scale; the SVG gets this width). Default: mermaid's natural size. */
  width?: number;
  /** --scale: Device pixel ratio for PNGs: 2 (the default) prints sharp at the diagram's size; 1 for a small screen image, 3-4 for posters. */
  scale: number;
  /** --theme: Mermaid theme. */
  theme: "default" | "neutral" | "dark" | "forest" | "base";
  /** --background: PNG background. */
  background: "white" | "transparent";
  /** --engine: Which browser renders (see `gstack render`). */
  engine: "auto" | "aside" | "chromium";
  /** --timeout: Whole-call deadline in milliseconds. */
  timeout: number;
  /** --session: Session key (default: GSTACK_SESSION_KEY, CLAUDE_SESSION_ID, CONDUCTOR_WORKSPACE_ID, the git worktree, then the cwd). Each key has its own profile and logins. */
  session?: string;
}

/** The DiagramFlags of one invocation, from yargs' argv (which has already checked types and choices). */
export function readDiagramFlags(argv: Record<string, unknown>): DiagramFlags {
  return {
    svg: list(argv["svg"]),
    png: list(argv["png"]),
    outDir: (argv["out-dir"] as string | undefined),
    format: (argv["format"] as "svg" | "png" | "both" | undefined) ?? "svg",
    width: (argv["width"] as number | undefined),
    scale: (argv["scale"] as number | undefined) ?? 2,
    theme: (argv["theme"] as "default" | "neutral" | "dark" | "forest" | "base" | undefined) ?? "default",
    background: (argv["background"] as "white" | "transparent" | undefined) ?? "white",
    engine: (argv["engine"] as "auto" | "aside" | "chromium" | undefined) ?? "auto",
    timeout: (argv["timeout"] as number | undefined) ?? 120000,
    session: (argv["session"] as string | undefined),
  };
}

export interface DiagramPositionals {
  /** <inputs>: One or more .mmd files (a .md file contributes each of its ```mermaid fences). */
  inputs: string[];
}

/** The DiagramPositionals of one invocation, from yargs' argv (which has already checked choices and that required ones are there). */
export function readDiagramPositionals(argv: Record<string, unknown>): DiagramPositionals {
  return {
    inputs: list(argv["inputs"]),
  };
}

export interface SkillsFlags {
  /** --full: get: print the full reference after the core. */
  full: boolean;
  /** --dir: install: the skills folder (default `~/.claude/skills`). */
  dir?: string;
  /** --mcp: install: write the `gstack mcp` server entry into this MCP client's configuration instead of installing skills. */
  mcp?: "claude-desktop" | "cursor" | "vscode";
  /** --allow-scripts: install --mcp: the entry starts `gstack mcp --allow-scripts` (the `run` tool: code execution with the user's rights; see `gstack mcp`). */
  allowScripts: boolean;
  /** --config: install --mcp: the configuration file to write (default: the client's own, see above). */
  config?: string;
  /** --print: install --mcp: print the entry as the client's JSON instead of writing it. */
  print: boolean;
}

/** The SkillsFlags of one invocation, from yargs' argv (which has already checked types and choices). */
export function readSkillsFlags(argv: Record<string, unknown>): SkillsFlags {
  return {
    full: (argv["full"] as boolean | undefined) ?? false,
    dir: (argv["dir"] as string | undefined),
    mcp: (argv["mcp"] as "claude-desktop" | "cursor" | "vscode" | undefined),
    allowScripts: (argv["allow-scripts"] as boolean | undefined) ?? false,
    config: (argv["config"] as string | undefined),
    print: (argv["print"] as boolean | undefined) ?? false,
  };
}

export interface SkillsPositionals {
  /** <action>: list, get or install. */
  action: "list" | "get" | "install";
  /** <name>: get: the skill to print (browse, qa, make-pdf, diagram). */
  name?: string;
}

/** The SkillsPositionals of one invocation, from yargs' argv (which has already checked choices and that required ones are there). */
export function readSkillsPositionals(argv: Record<string, unknown>): SkillsPositionals {
  return {
    action: String(argv["action"]) as "list" | "get" | "install",
    name: argv["name"] === undefined ? undefined : String(argv["name"]),
  };
}

export interface McpFlags {
  /** --allow-scripts: Offer the `run` tool, which runs any flow script the client sends. A flow script can reach Node (the vm is not a security boundary), so this is code execution with the user's rights: allow it only for a client you would give a shell. */
  allowScripts: boolean;
  /** --session: The session this server's calls use when a call names none (default: a new one per server process, `mcp-<pid>-<random>`, removed at exit). A named session keeps its profile and logins after the server exits. */
  session?: string;
}

/** The McpFlags of one invocation, from yargs' argv (which has already checked types and choices). */
export function readMcpFlags(argv: Record<string, unknown>): McpFlags {
  return {
    allowScripts: (argv["allow-scripts"] as boolean | undefined) ?? false,
    session: (argv["session"] as string | undefined),
  };
}

/** `gstack render`: the flags that open a step, and the step each step option configures (the
 * nearest such step before it on the command line; catalog: a render flag's "step"). */
export const RENDER_STEP_FLAGS = ["pdf", "screenshot", "eval"] as const;
export type RenderStepFlag = (typeof RENDER_STEP_FLAGS)[number];
export const RENDER_STEP_OF_OPTION: Readonly<Record<string, RenderStepFlag>> = {
  "paper": "pdf",
  "margin": "pdf",
  "margin-top": "pdf",
  "margin-right": "pdf",
  "margin-bottom": "pdf",
  "margin-left": "pdf",
  "header": "pdf",
  "footer": "pdf",
  "page-numbers": "pdf",
  "tagged": "pdf",
  "outline": "pdf",
  "landscape": "pdf",
  "print-background": "pdf",
  "prefer-css-page-size": "pdf",
  "page-ranges": "pdf",
  "scale": "pdf",
  "width": "screenshot",
  "height": "screenshot",
  "selector": "screenshot",
  "viewport-only": "screenshot",
  "jpeg": "screenshot",
  "quality": "screenshot",
  "out": "eval",
};

/** Every flag default, per command (the shared flags under "shared"). */
export const FLAG_DEFAULTS = {
  shared: {
    "engine": "auto",
    "ephemeral": false,
    "timeout": 120000,
    "lock-timeout": 60000,
    "max-output": 200000,
    "json": false,
    "evidence": true,
    "allow-file-urls": false,
    "headed": false,
  },
  "run": {
    "engine": "auto",
    "ephemeral": false,
    "timeout": 120000,
    "lock-timeout": 60000,
    "max-output": 200000,
    "json": false,
    "evidence": true,
    "allow-file-urls": false,
    "headed": false,
  },
  "probe": {
    "engine": "auto",
    "json": false,
  },
  "cookbook": {
    "print": false,
    "engine": "auto",
    "ephemeral": false,
    "timeout": 120000,
    "lock-timeout": 60000,
    "max-output": 200000,
    "json": false,
    "evidence": true,
    "allow-file-urls": false,
    "headed": false,
  },
  "flows": {
    "global": false,
    "force": false,
    "engine": "auto",
    "ephemeral": false,
    "timeout": 120000,
    "lock-timeout": 60000,
    "max-output": 200000,
    "json": false,
    "evidence": true,
    "allow-file-urls": false,
    "headed": false,
  },
  "sessions": {
    "older-than": "7d",
    "dry-run": false,
    "all": false,
    "force": false,
    "render": false,
    "mine": false,
    "remote": false,
    "browser-profile": "Default",
    "lock-timeout": 60000,
    "json": false,
  },
  "login": {
    "timeout": 600000,
    "lock-timeout": 60000,
    "json": false,
  },
  "render": {
    "engine": "auto",
    "wait-timeout": 30000,
    "timeout": 120000,
    "allow-network": false,
    "paper": "letter",
    "margin": "0.75in 0.7in",
    "page-numbers": true,
    "tagged": true,
    "outline": true,
    "landscape": false,
    "print-background": true,
    "prefer-css-page-size": false,
    "scale": 1,
  },
  "pdf": {
    "to": "pdf",
    "cover": false,
    "toc": false,
    "toc-depth": 3,
    "chapter-breaks": true,
    "paper": "letter",
    "margin": "0.75in 0.7in",
    "page-numbers": true,
    "tagged": true,
    "outline": true,
    "landscape": false,
    "print-background": true,
    "prefer-css-page-size": false,
    "scale": 1,
    "print-urls": false,
    "allow-network": false,
    "remote-images": "placeholder",
    "strict": false,
    "engine": "auto",
    "timeout": 120000,
  },
  "diagram": {
    "format": "svg",
    "scale": 2,
    "theme": "default",
    "background": "white",
    "engine": "auto",
    "timeout": 120000,
  },
  "skills": {
    "full": false,
    "allow-scripts": false,
    "print": false,
  },
  "mcp": {
    "allow-scripts": false,
  },
} as const;
