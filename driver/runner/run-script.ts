// runScript(): one call (docs/ARCHITECTURE.md, "One call") — resolve the session, pick the
// engine, hold the profile lock, run the script with every line through the egress filter,
// and compute the truthful exit code. The CLI (`gstack run`) is a thin layer over this; in a
// session host (driver/hosts/) it runs on the host's kept browser instead of launching one.
import { chmod, cp, lstat, mkdir, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { lstatSync, mkdtempSync, statSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { basename, dirname, extname, join, relative, resolve } from 'node:path';
import { OutputFilter, SENTINEL, cutSeenSecrets, forgetSecrets, learnSecrets, oneLine, shownLine, stripControls } from '../runtime/output.js';
import { isSecretField, SECRET_RULES } from '../runtime/snapshot.js';
import { exitCodeOf, UsageError } from '../errors.js';
import { boundEvidence, evidenceHint, freeName, evidenceLines, signInHint, withoutPageWords, type TabEvidence } from '../runtime/evidence.js';
import { makePrivateDir } from '../sessions/owner-only.js';
import { acquireProfileLock, clearStaleChromiumSingletons, describeHolder, markInUse } from '../sessions/lock.js';
import { readSessionRecord, touchSession } from '../sessions/registry.js';
import { stoppedMessage } from '../stop-cause.js';
import { maybeHousekeep } from '../profiles/daily-sweep.js';
import { AsideUnavailableError, fallbackNoteToPrint, selectEngine, type EngineSelection } from '../engines/select.js';
import { resolveCallTarget, type CallTarget } from '../hosts/call-target.js';
import { runOnChromium } from '../engines/chromium.js';
import { stopSessionHost } from '../hosts/control.js';
// Loaded only by the calls that use them: Aside's adapter and the remote-browser connector.
import { trace } from '../trace.js';
import { asidePreamble, checkInputs, copyInputs, type InputFile } from '../runtime/inputs.js';
import { gstackHome, profileProblem, sessionPaths, type SessionKey } from '../sessions/key.js';
import type { EngineName, EngineRunOutcome } from '../engines/types.js';
import type { EngineChoice } from '../engines/select.js';
import { launchedBrowser, type BrowserProvider } from '../browser/launch.js';
import type { DeadlineHandle } from '../call-io.js';
import { CallDeadline } from '../deadline.js';
import { FLAG_DEFAULTS, type ExitCode } from '../catalog.gen.js';
import { runResult, type RunResult, type RunSessionInfo } from '../runtime/run-result.js';
import { missingFolders, plainListedName, readsAsHidden } from '../runtime/look-alike.js';
import { checkedCopy } from '../runtime/artifact-secrets.js';

/** What a session host lends a call: the browser it keeps on its session's profile. */
export interface SessionHostBinding {
  profileDir: string;
  /** The host's browser (driver/hosts/session-browser.ts), started or restarted for the call's
   * environment, kept after it. */
  browser: BrowserProvider;
  /** The session key of the call (for `gstack sessions list`). */
  noteKey?(key: string): void;
}

export interface RunOptions {
  /** Where the call runs, decided once (driver/hosts/call-target.ts): its session key, profile and
   * engine. A session host's call comes with the one its client resolved; without it the call
   * resolves its own from engine/session/profile/ephemeral/connect/cdp. */
  target?: CallTarget;
  engine?: EngineChoice;
  session?: string;
  profile?: string;
  ephemeral?: boolean;
  timeoutMs?: number;
  lockTimeoutMs?: number;
  /** Cap on evidence bytes (default 200 000). */
  maxOutput?: number;
  /** Copy the call's artifacts here and report them. */
  out?: string;
  connect?: string;
  cdp?: string;
  headed?: boolean;
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Each accepted output line as it happens (the CLI streams these to stdout). */
  onLine?: (line: string) => void;
  /** Diagnostics for a person (the CLI writes these to stderr): fallback, lock waits. */
  onNotice?: (line: string) => void;
  signal?: AbortSignal;
  /** The process this call runs for when another one runs it (a host's client): the session
   * lock names it as the holder. */
  callerPid?: number;
  /** Set in a session host: the call runs on the host's browser. */
  sessionHost?: SessionHostBinding;
  /** Whoever keeps the deadline outside this event loop (the host's client, or the in-process
   * watchdog thread); told when the script starts. */
  armDeadline?(ms: number, message: string): DeadlineHandle;
  /** `file:` URLs may be opened (--allow-file-urls). */
  allowFileUrls?: boolean;
  /** The user's files to copy into pwd before the script starts (`--in`), relative to cwd. */
  inputs?: string[];
  /** The script's `params` global (`gstack flows run`, `gstack run --params`); `{}` when absent. */
  params?: Readonly<Record<string, unknown>>;
  /** Secret values the call's command was given beyond its own parameters (`flows check
   * --param password=…`, handed to every flow it checks): cut from the call's start, as a
   * secret parameter's are. */
  secrets?: readonly string[];
  /** Called at the call's end, before it forgets what it saw, with the cut of every secret value
   * it saw: `flows save` asks whether a parameter's value was one (pass 41, A41). */
  beforeForget?: (cut: (text: string) => string) => void;
  /** A failed call prints each open tab's evidence before its `[error]` line (default true;
   * `--no-evidence`). */
  evidence?: boolean;
}

export type { RunResult } from '../runtime/run-result.js';

// The flags' defaults, from the catalog (a library caller that leaves an option out gets the
// same as the CLI).
export const DEFAULT_TIMEOUT_MS = FLAG_DEFAULTS.shared.timeout;
export const DEFAULT_LOCK_TIMEOUT_MS = FLAG_DEFAULTS.shared['lock-timeout'];
export const DEFAULT_MAX_OUTPUT = FLAG_DEFAULTS.shared['max-output'];

function callId(): string {
  const d = new Date();
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getUTCFullYear()}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}-${p(d.getUTCHours())}${p(d.getUTCMinutes())}${p(d.getUTCSeconds())}-${randomBytes(3).toString('hex')}`;
}

async function listFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (d: string) => {
    for (const e of await readdir(d, { withFileTypes: true }).catch(() => [])) {
      const p = join(d, e.name);
      if (e.isDirectory()) await walk(p);
      else if (e.isFile()) out.push(p);
    }
  };
  await walk(dir);
  return out.sort();
}

/** Copies the call's files into `--out DIR` by their names under pwd. Names may come from the
 * page (a download's, a list the page printed): a name with a hidden segment (`.git/hooks/…`,
 * `.envrc`, `.npmrc`) is never copied out, since a tool in DIR would act on it; it stays in pwd
 * and the notice says so (docs/SECURITY.md). */
/** Whether writing `rel` under `root` touches no symbolic link: each existing folder on the way
 * and the file itself, if it exists, are real entries. */
async function staysInside(root: string, rel: string): Promise<boolean> {
  const parts = rel.split(/[\\/]/).filter(Boolean);
  let at = root;
  for (const part of parts) {
    at = join(at, part);
    const st = await lstat(at).catch(() => undefined);
    if (!st) return true; // from here on it is created by the copy, as a real folder or file
    if (st.isSymbolicLink()) return false;
  }
  return true;
}

/** Why a name readsAsHidden, in words a person recognises (pass 45, C45: `-rf` was called "a
 * hidden name"). */
function hiddenWhy(rel: string): string {
  const segment = rel.split(/[\\/]/).find(readsAsHidden) ?? rel;
  if (segment.startsWith('.')) return 'a hidden name';
  if (/^[-\p{Pd}\u2212\uFE63\uFF0D]/u.test(segment)) return 'a name that starts like an option, as `-rf` does';
  return 'a name whose first character hides where it starts';
}

/** Why one file could not be copied into `to`, in words (a person reads the notice, not Node's
 * error codes: pass 42, C42). */
function copyFailure(err: unknown, to: string): string {
  const e = err as NodeJS.ErrnoException;
  switch (e.code) {
    case 'ERR_FS_CP_NON_DIR_TO_DIR':
    case 'ERR_FS_EISDIR':
    case 'EISDIR':
      return `${to} has a folder of that name`;
    case 'ERR_FS_CP_DIR_TO_NON_DIR':
    case 'ENOTDIR':
      return `${to} has a file where its folder would go`;
    case 'EACCES':
    case 'EPERM':
    case 'EROFS':
      return `${to} cannot be written here`;
    case 'ENOSPC':
    case 'EDQUOT':
      return 'the disk is full';
    default:
      return String(e?.message ?? err).split('\n')[0];
  }
}

async function copyArtifacts(from: string, to: string, skip: Set<string>, notice: (line: string) => void, keepApart: Set<string> = new Set()): Promise<Map<string, string>> {
  const files = (await listFiles(from)).filter((f) => !skip.has(f));
  const copied = new Map<string, string>();
  try {
    await mkdir(to, { recursive: true });
  } catch (err) {
    notice(`gstack: --out: ${to} could not be made (${(err as Error).message}); the call's files stay in ${from}`);
    return copied;
  }
  for (const f of files) {
    // One file that cannot be copied (a folder of its name in DIR) is said, and the others are
    // still copied: the script has run, so its verdict stands (pass 41, C41).
    try {
      const done = await copyOne(f);
      if (done) copied.set(f, done);
    } catch (err) {
      notice(`gstack: --out: ${JSON.stringify(relative(from, f))} was not copied (${copyFailure(err, to)}); it stays in ${from}`);
    }
  }
  return copied;

  async function copyOne(f: string): Promise<string | undefined> {
    const rel = relative(from, f);
    if (rel.split(/[\\/]/).some(readsAsHidden)) {
      notice(`gstack: --out: ${JSON.stringify(rel)} was not copied (${hiddenWhy(rel)}); it stays in ${from}`);
      return undefined;
    }
    // A name made of page text before the call saw the field whose value it holds (a download's
    // suggested name, read before the first snapshot): written then, but never copied into the
    // user's folder after (pass 31, A31). The notice prints it cut.
    if (cutSeenSecrets(rel) !== rel) {
      notice(`gstack: --out: ${JSON.stringify(rel)} was not copied (its name holds the value of a secret field the call saw); it stays in ${from}`);
      return undefined;
    }
    // A name the call chose itself (an evidence screenshot, the same in every failed call) takes
    // the next free name in DIR rather than replace the last call's (trial V19: each failed call
    // with the same --out replaced the evidence of the one before). The script's own names are
    // the script's to choose, and replace.
    const ext = extname(rel);
    const dest = keepApart.has(f) ? freeName(to, rel.slice(0, rel.length - ext.length), ext) : join(to, rel);
    // DIR may already hold links (a project folder): a page-chosen sub-path must not lead
    // through one to elsewhere. Every folder on the way is a real one inside DIR.
    if (!(await staysInside(to, rel))) {
      notice(`gstack: --out: ${JSON.stringify(rel)} was not copied (a link in ${to} leads elsewhere on its way); it stays in ${from}`);
      return undefined;
    }
    // Its contents are held to the secrets the call knows by its end, as its name is.
    const size = (await stat(f)).size;
    const checked = await checkedCopy(size, () => readFile(f));
    if (checked.kind === 'held') {
      notice(`gstack: --out: ${JSON.stringify(rel)} was not copied (${checked.why}); it stays in ${from}`);
      return undefined;
    }
    if (checked.kind === 'cut') {
      await mkdir(dirname(dest), { recursive: true });
      await rm(dest, { force: true });
      await writeFile(dest, checked.bytes, { flag: 'wx' });
      notice(`gstack: --out: ${JSON.stringify(rel)} was copied with the values of secret fields the call saw cut ([redacted]); the file in ${from} is as the script wrote it`);
    } else {
      // The name is replaced, never written through: a hard link in DIR (`ln ~/.bashrc DIR/a.txt`)
      // keeps its contents under its other names (pass 44, B44).
      await rm(dest, { force: true });
      await cp(f, dest, { force: false, errorOnExist: true });
    }
    // A file in the user's folder gets the mode any file they make there gets (the umask's),
    // not pwd's owner-only 0600 (trial t28 found its download `-rw-------`).
    await chmod(dest, 0o666 & ~process.umask()).catch(() => undefined);
    return dest;
  }
}

/** Why `dir` cannot be the `--out` folder, before the script runs (pass 41, C41: a dangling
 * link, a loop of links or a path through a file failed only after the script had acted, with a
 * raw ENOENT, ELOOP or ENOTDIR and exit 1); undefined when it is a folder or can be made one. */
function outFolderProblem(dir: string): string | undefined {
  let kind: ReturnType<typeof statSync>;
  try {
    kind = statSync(dir, { throwIfNoEntry: false });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'ELOOP' ? 'is a loop of symbolic links' : code === 'ENOTDIR' ? 'leads through a file, which cannot hold a folder' : `cannot be read (${code ?? (err as Error).message})`;
  }
  if (kind) return kind.isDirectory() ? undefined : `is not a folder (${kind.isFIFO() ? 'a FIFO' : 'a file'})`;
  // Missing: each folder to be made must not be a link that leads nowhere.
  for (const d of missingFolders(dir)) {
    if (lstatSync(d, { throwIfNoEntry: false })?.isSymbolicLink()) return `${d === dir ? 'is' : `leads through ${d}, which is`} a symbolic link to a folder that does not exist`;
  }
  return undefined;
}

/** The images a call wrote that spell a secret value it saw, by the rule `--out` copies by: what
 * `gstack mcp` would otherwise send its client as image content (pass 40, A40). Images only:
 * they are what a result attaches, and checking every file would cost every call. */
async function withheldImages(files: readonly string[]): Promise<string[]> {
  const held: string[] = [];
  for (const f of files) {
    if (!/\.(?:png|jpe?g|webp|gif)$/i.test(f)) continue;
    const size = (await stat(f).catch(() => undefined))?.size ?? 0;
    if ((await checkedCopy(size, () => readFile(f))).kind === 'held') held.push(f);
  }
  return held;
}

/** The values held under a parameter name the secret-field rule calls secret, at any depth: a
 * string or number, or every one in a list or object under that name (`{"password":["…"]}`),
 * and a secret-named key inside an ordinary one (`{"users":[{"password":"…"}]}`; pass 27,
 * A27). A saved flow's secret parameters are these (driver/cli/flows.ts). */
export function secretParamValues(params: unknown): string[] {
  const out: string[] = [];
  const walk = (value: unknown, secret: boolean, depth: number): void => {
    if (depth > 64 || out.length > 1000) return;
    if (typeof value === 'string' || typeof value === 'number') {
      if (secret && String(value)) out.push(String(value));
    } else if (Array.isArray(value)) {
      for (const v of value) walk(v, secret, depth + 1);
    } else if (value && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) walk(v, secret || isSecretField({ hints: [k] }, SECRET_RULES), depth + 1);
    }
  };
  walk(params, false, 0);
  return out;
}

export async function runScript(script: string, options: RunOptions = {}): Promise<RunResult> {
  const started = Date.now();
  // What an earlier call of this process saw is not this call's to cut (output.ts seenSecrets).
  forgetSecrets();
  // A parameter named as a secret field is (`password`, `token`, `apiKey`): a test value the
  // user handed over, which the page may print back. Cut like a secret field's value seen.
  learnSecrets([...secretParamValues(options.params), ...(options.secrets ?? [])]);
  const env = options.env ?? process.env;
  // A notice can name a file whose name the page chose (--out's), so seen secrets are cut there too.
  const notice = (line: string) => options.onNotice?.(cutSeenSecrets(line));
  const filter = new OutputFilter({ maxBytes: options.maxOutput ?? DEFAULT_MAX_OUTPUT, emit: (l) => options.onLine?.(l) });
  const cwd = options.cwd ?? process.cwd();
  const target: CallTarget =
    options.target ??
    resolveCallTarget(
      { engine: options.engine ?? 'auto', session: options.session, profile: options.profile, ephemeral: !!options.ephemeral, connect: options.connect, cdp: options.cdp },
      env,
      cwd,
      { hosts: false },
    );
  const key: SessionKey = target.key;
  const paths = sessionPaths(key.slug, env);
  const session: RunSessionInfo = { key: key.key, source: key.source, slug: key.slug, profile: null, ephemeral: target.ephemeral };
  let engine: EngineName | null = null;
  let pwd: string | null = null;
  let artifacts: string[] = [];
  /** Each file `--out` copied, by its path in pwd. */
  let copies = new Map<string, string>();
  let withheld: string[] = [];
  const cleanups: Array<() => Promise<unknown>> = [];
  let deadline: CallDeadline | undefined;
  let evidence: TabEvidence[] | null = null;
  /** Files an evidence block already named with an ARTIFACT line. */
  const named = new Set<string>();

  const finish = async (exitCode: RunResult['exitCode'], error: string | null): Promise<RunResult> => {
    deadline?.done();
    for (const c of cleanups.reverse()) await c().catch(() => undefined);
    trace('lock released');
    // ARTIFACT lines come before the sentinel, which stays the last line of a success.
    filter.finish(error ?? undefined, options.out ? artifacts.filter((a) => !named.has(a)).map((a) => `ARTIFACT ${a}`) : []);
    const durationMs = Date.now() - started;
    // Sessions (issue 4): the at-most-daily sweep of idle sessions, after the lock is released.
    // One stat on most calls; never throws.
    if (pwd) await maybeHousekeep({ env });
    trace('result ready');
    // Lines printed before the call saw a field are on screen already; the --json result is
    // written after, so it is cut with everything the call saw.
    const result = runResult({ exitCode, engine, session, lines: filter.lines.map(cutSeenSecrets), artifacts: artifacts.map(cutSeenSecrets), withheld: withheld.map(cutSeenSecrets), error: error === null ? null : shownLine(oneLine(error)), durationMs, pwd, evidence });
    options.beforeForget?.(cutSeenSecrets);
    forgetSecrets();
    return result;
  };

  if (typeof script !== 'string' || !script.trim()) {
    return finish(2, 'No script given. Pass it as an argument, with -f FILE, or on stdin with `-`.');
  }
  if (options.connect && options.cdp) return finish(2, 'Use either --connect or --cdp, not both.');
  const remote = !!(options.connect || options.cdp);
  if (remote && options.engine === 'aside') return finish(2, '--connect/--cdp run on a remote Chromium; they cannot be combined with --engine aside.');

  // A session host runs only calls its client resolved onto its profile (driver/hosts/server.ts
  // checks that at its edge): the host's browser is the call's.
  const host = options.sessionHost;
  // --out names a folder: anything else there (a file, a FIFO) is a usage error before the
  // script runs, not a failure after it did all its work.
  // An empty --out (an unset shell variable: `--out "$DIR"`) would copy nothing and say nothing.
  if (options.out !== undefined && !options.out.trim()) return finish(2, '--out is empty: give it a folder (created when missing), or leave the flag out to keep the files in pwd.');
  if (options.out) {
    const outDir = resolve(options.cwd ?? process.cwd(), options.out);
    const problem = outFolderProblem(outDir);
    if (problem) return finish(2, `--out ${options.out}: ${problem}. Give --out a folder of its own (it is created when missing).`);
    // The folders --out creates are names in a listing, often from page text (`--out "$TITLE"`;
    // pass 34, B34): the rule of the files written under pwd (docs/SECURITY.md, "hide text").
    const bad = missingFolders(outDir).find((d) => !plainListedName(basename(d)));
    if (bad !== undefined) return finish(2, `--out ${JSON.stringify(stripControls(options.out))}: the folder ${JSON.stringify(stripControls(basename(bad)))} it would create holds control, invisible or look-alike characters (controls shown as U+FFFD), which would show another name in a file listing than the one read. Give a plain folder name.`);
  }

  try {
    trace('runScript start');
    // --in: checked before anything starts, so a bad path costs no browser (exit 2).
    const inputs: InputFile[] = options.inputs?.length ? await checkInputs(options.inputs, options.cwd ?? process.cwd()) : [];
    const inputPaths = new Set<string>();
    // 1. Engine: the target's decision (remote browsers are Chromium by definition), or Aside's
    // probe when only the probe can decide (auto with an `aside` command).
    let sel: EngineSelection;
    if (target.engine === 'probe') {
      sel = await selectEngine({ engine: options.engine ?? 'auto', env });
    } else {
      if (target.engine.engine === null) throw new AsideUnavailableError(target.engine.probe);
      const { why: _why, ...decided } = target.engine;
      sel = decided;
    }
    engine = sel.engine;
    if (!remote) {
      const note = fallbackNoteToPrint(sel, gstackHome(env));
      if (note) notice(note);
    }

    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const callDeadline = (deadline = new CallDeadline(timeoutMs, options.armDeadline));
    const wantEvidence = options.evidence !== false;
    const failsAnyway = () => !filter.sawSentinel;
    let outcome: EngineRunOutcome;
    if (engine === 'aside') {
      const { runOnAside } = await import('../engines/aside.js');
      // --in: Aside's pwd exists only once the script runs, so the files go in with the script.
      const withInputs = inputs.length ? (await asidePreamble(inputs)) + script : script;
      // Aside's adapter stops `aside repl` at the deadline's ms itself; this event loop never
      // runs the script, so nothing outside it needs arming.
      outcome = await runOnAside({ script: withInputs, pwd: '', deadline: callDeadline, onLine: (l) => filter.write(l), signal: options.signal, env, params: options.params, evidence: wantEvidence, failsAnyway });
    } else {
      // 2. Profile and artifact dir; the lock serializes calls on one profile.
      let profileDir: string;
      if (target.ephemeral) {
        profileDir = mkdtempSync(join(env.TMPDIR || tmpdir(), 'gstack-ephemeral-'));
        cleanups.push(() => rm(profileDir, { recursive: true, force: true }));
      } else {
        // A remote call's lock and state live under the session dir; it has no profile.
        profileDir = target.profileDir ?? paths.profileDir;
        const problem = !remote && profileDir !== paths.profileDir ? profileProblem(profileDir, env) : undefined;
        if (problem) throw new UsageError(`--profile ${options.profile ?? profileDir}: ${problem}`);
      }
      session.profile = remote ? null : profileDir;
      pwd = join(paths.artifactsDir, callId());
      // Owner-only, like the profiles: artifacts are screenshots of logged-in pages.
      await mkdir(pwd, { recursive: true, mode: 0o700 });
      // An --ephemeral or --profile DIR call holds no lock on this session's profile: it marks
      // the session's artifacts in use, so `sessions gc` and `clear` leave its pwd alone.
      if (target.ephemeral || (!remote && profileDir !== paths.profileDir)) {
        const release = await markInUse(paths.artifactsDir, { key: key.key, callerPid: options.callerPid });
        cleanups.push(release);
      }
      // The inputs are the user's, not the script's: listed as INPUT=, never as artifacts.
      if (inputs.length) for (const name of await copyInputs(inputs, pwd)) {
        inputPaths.add(join(pwd, name));
        filter.write(`INPUT=${name}`);
      }

      // Remote sessions lock their storageState file's session dir instead of a profile.
      const lockTarget = remote ? paths.sessionDir : profileDir;
      const lockTimeoutMs = options.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS;
      let lock: Awaited<ReturnType<typeof acquireProfileLock>>;
      try {
        lock = await acquireProfileLock(lockTarget, {
          timeoutMs: lockTimeoutMs,
          key: key.key,
          signal: options.signal,
          callerPid: options.callerPid,
          onWait: (h) => notice(`gstack: waiting for session profile (held by ${describeHolder(h)}; --lock-timeout ${lockTimeoutMs} ms)`),
        });
      } catch (err) {
        // Stopped while it waited (another command took the session: `sessions clear`, an
        // import): its script never ran, so it is a busy profile (4), not a script failure (1).
        if (!options.signal?.aborted) throw err;
        return finish(4, `${stoppedMessage(options.signal.reason)} It was still waiting for the session's profile: none of its script ran.`);
      }
      cleanups.push(() => lock.release());
      trace('profile lock held');
      // A session's folder is named after its key and a short hash of it, which two keys can
      // share: the key that made the session owns it, and another key never gets its cookies.
      if (!target.ephemeral) {
        const owner = await readSessionRecord(paths);
        if (owner && owner.key !== key.key) {
          return finish(2, `Session key ${JSON.stringify(key.key)} names the same session folder (${paths.sessionDir}) as the key ${JSON.stringify(owner.key)}, whose session it is: its cookies are not yours. Choose another --session key.`);
        }
      }
      if (host) {
        host.noteKey?.(key.key);
      } else if (!remote) {
        // Owner-only, from GSTACK_HOME down (with --password-store=basic the file modes are the
        // cookies' only protection); what cannot be tightened is said once on stderr.
        for (const w of await makePrivateDir(profileDir, { top: paths.home })) notice(`gstack: ${w}`);
        // A session host may keep this profile's browser running: stop it (we hold the lock,
        // so it is idle), then clear what a killed browser left.
        await stopSessionHost(profileDir);
        await clearStaleChromiumSingletons(profileDir);
      }
      if (!options.ephemeral || remote) await touchSession(paths, key.key, remote ? 'remote' : 'local');

      // The one browser provider of the call: the host's, a remote one, or one launched here.
      const browser: BrowserProvider = host
        ? host.browser
        : remote
          ? (await import('../engines/remote.js')).remoteBrowser({
              connect: options.connect,
              cdp: options.cdp,
              storageStatePath: paths.storageStatePath,
              timeoutMs: Math.min(timeoutMs, 30_000),
              onWarning: notice,
            })
          : launchedBrowser(profileDir);
      callDeadline.start();
      outcome = await runOnChromium({
        script,
        pwd,
        onLine: (l, o) => filter.write(l, o),
        onNotice: notice,
        signal: options.signal,
        browser,
        headed: options.headed,
        env,
        deadline: callDeadline,
        allowFileUrls: options.allowFileUrls,
        params: options.params,
        evidence: wantEvidence,
        failsAnyway,
      });
    }

    trace('engine finished (browser closed)');
    // 3. Artifacts: copied out with --out (also after a failure: the evidence matters most then).
    const artifactDir = outcome.artifactDir ?? pwd ?? undefined;
    if (artifactDir) filter.trustFolder(artifactDir);
    if (options.out) filter.trustFolder(resolve(options.cwd ?? process.cwd(), options.out));
    if (artifactDir) for (const f of inputs) inputPaths.add(join(artifactDir, f.name));
    if (artifactDir && (await stat(artifactDir).catch(() => undefined))?.isDirectory()) {
      if (options.out) {
        copies = await copyArtifacts(artifactDir, resolve(options.cwd ?? process.cwd(), options.out), inputPaths, notice, new Set(outcome.evidence?.flatMap((t) => (t.screenshot ? [t.screenshot] : [])) ?? []));
        artifacts = [...copies.values()];
      } else {
        artifacts = (await listFiles(artifactDir)).filter((f) => !inputPaths.has(f));
        withheld = await withheldImages(artifacts);
      }
    }

    // 4. The truth: completed, printed the sentinel, and nothing reported an error after it.
    const failure = !outcome.completed
      ? outcome.error ?? 'The script failed.'
      : !filter.sawSentinel && filter.sawUnspelledSentinel === 'callback'
        ? `The script printed ${SENTINEL} from a callback (a .then, a listener, a function the page calls), not from its own body: the page can choose when a callback runs, so it does not count. Await what you wait for (const m = await pg.waitForEvent("console")), then end the script with console.log("${SENTINEL}") after its last step.`
      : !filter.sawSentinel && filter.sawUnspelledSentinel
        ? `The script printed ${SENTINEL} only as a value, not as the literal console.log("${SENTINEL}"): a value may have come from the page, so it does not count. End the flow with console.log("${SENTINEL}") spelled out, after its last step.`
        : !filter.sawSentinel
        ? `The script finished without printing ${SENTINEL}. End every flow with console.log("${SENTINEL}") after its last step, so success is explicit.`
        : filter.errorAfterSentinel
          ? `The script printed an error line after ${SENTINEL}; treat the call as failed and read the lines above.`
          : null;
    if (failure === null) return finish(0, null);
    // A tab that did not answer had its secret fields unread: the page's markup an error quotes
    // (`Another element, <div data-k="…">…</div>, covers the target`) and a message the page's
    // code threw may hold a copy of one, so they are left out (passes 23 and 30).
    const told = outcome.unreadTabs ? withoutPageWords(failure) : failure;
    // 5. A failed call explains itself: the evidence its engine took, just before the [error]
    // line, with each screenshot named where the reader finds it (its --out copy).
    if (outcome.evidence) {
      const from = artifactDir ?? '';
      const where = (p: string) => (options.out && from ? copies.get(p) ?? join(resolve(options.cwd ?? process.cwd(), options.out), relative(from, p)) : p);
      evidence = outcome.evidence.map(boundEvidence).map((t) => ({ ...t, screenshot: t.screenshot && where(t.screenshot) }));
      for (const t of evidence) if (t.screenshot) named.add(t.screenshot);
      filter.writeEvidence(evidenceLines(evidence));
      return finish(1, told + evidenceHint(evidence, told, { ephemeral: target.ephemeral }));
    }
    // Without evidence the [error] line still says when a tab sits at a sign-in wall (trial V15:
    // an agent that turned evidence off lost the most useful hint).
    return finish(1, told + signInHint(outcome.tabsAtFailure ?? [], told, { ephemeral: target.ephemeral }));
  } catch (err) {
    // No engine (3), a busy profile (4), bad usage (2) each say so with their own code; any
    // other failure is the script's (1).
    return finish(exitCodeOf(err), (err as Error)?.message ?? String(err));
  }
}
