// `gstack sessions list|gc|clear|import-cookies`: the implementation behind the thin yargs
// module bin/commands/sessions.ts (`import-cookies --from-browser` reads through
// browser-cookies.ts). Prints evidence-style lines (or one JSON object with
// --json) and returns the exit code. No output path here ever contains a cookie value.
import { UsageError } from '../errors.js';
import { join } from 'node:path';
import { gstackHome, resolveSessionKey, sessionPaths } from '../sessions/key.js';
import { clearSession, formatBytes, gcSessions, listSessions, parseDuration, resolveSlug, sessionInfo, type SessionInfo } from '../profiles/manage.js';
import { describeHolder } from '../sessions/lock.js';
import { makePrivateDir } from '../sessions/owner-only.js';
import type { HostStatus } from '../hosts/wire.js';
import { FLAG_DEFAULTS, type SessionsFlags } from '../catalog.gen.js';
import { jsonText } from '../runtime/output.js';

type HostInfo = Pick<HostStatus, 'pid'> & Partial<Pick<HostStatus, 'browserPid' | 'browserRssKb' | 'hostRssKb' | 'busy' | 'idleMs' | 'calls'>>;

/** The session's background host, if one is up: its own account (memory, idle time) when it
 * answers on this user's runtime dir, else just its pid. */
async function hostInfo(profileDir: string, env: NodeJS.ProcessEnv): Promise<HostInfo | undefined> {
  const { sessionHostPid } = await import('../hosts/control.js');
  const pid = await sessionHostPid(profileDir);
  if (!pid) return undefined;
  const { hostAddress, openRuntimeDir } = await import('../hosts/address.js');
  const { queryHost } = await import('../hosts/client.js');
  try {
    const dir = openRuntimeDir(env);
    const status = dir ? await queryHost(hostAddress(dir, { kind: 'session', profileDir })) : undefined;
    if (status && status.pid === pid) {
      const { pid: p, browserPid, browserRssKb, hostRssKb, busy, idleMs, calls } = status;
      return { pid: p, browserPid, browserRssKb, hostRssKb, busy, idleMs, calls };
    }
  } catch {
    /* an unsafe runtime dir: the pid is all we can say */
  }
  return { pid };
}

/** The user's render host, if one is up: its own account when it answers, else its pid. */
async function renderHostInfo(env: NodeJS.ProcessEnv): Promise<HostInfo | undefined> {
  const { renderHostPid } = await import('../hosts/control.js');
  const pid = await renderHostPid(env);
  if (!pid) return undefined;
  const { hostAddress, openRuntimeDir } = await import('../hosts/address.js');
  const { queryHost } = await import('../hosts/client.js');
  try {
    const dir = openRuntimeDir(env);
    const status = dir ? await queryHost(hostAddress(dir, { kind: 'render' })) : undefined;
    if (status && status.pid === pid) return { pid, busy: status.busy, idleMs: status.idleMs, calls: status.calls };
  } catch {
    /* an unsafe runtime dir: the pid is all we can say */
  }
  return { pid };
}

/** `gstack sessions`' flags (from the catalog), its action and its target. */
export interface SessionsArgs extends Omit<Partial<SessionsFlags>, 'domain'> {
  action: 'list' | 'stop' | 'gc' | 'clear' | 'import-cookies';
  target?: string;
  /** Repeated `--domain` gives an array. */
  domain?: string | string[];
}

export interface SessionsIO {
  out: (line: string) => void;
  err: (line: string) => void;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
}


function quote(s: string | undefined): string {
  return s === undefined ? '?' : JSON.stringify(s);
}

function hostText(h: HostInfo | undefined): string {
  if (!h) return 'no';
  const rss = h.browserRssKb !== undefined ? ` browserRss=${Math.round(h.browserRssKb / 1024)}MiB` : '';
  const idle = h.idleMs !== undefined ? (h.busy ? ' busy' : ` idle=${Math.round(h.idleMs / 1000)}s`) : '';
  return `pid:${h.pid}${rss}${idle}`;
}

function infoLine(s: SessionInfo, host?: HostInfo, mine = false): string {
  const locked = s.lockedBy ? `pid:${s.lockedBy.pid}` : 'no';
  const size = s.sizeBytes === undefined ? '' : ` size=${formatBytes(s.sizeBytes).replace(' ', '')}`;
  const kind = s.kind === 'remote' ? ' remote=yes' : '';
  // A slug with only the files of --ephemeral or --profile calls has no profile of its own (trial
  // V8 read `key=? profile=…/work-6b34aa3f size=0B` as a session it had made).
  const profile = s.profileExists || s.key !== undefined ? s.paths.profileDir : 'none (the files of --ephemeral or --profile calls only)';
  return `SESSION ${s.slug} key=${quote(s.key)} profile=${profile}${size} lastUse=${s.lastUsed?.toISOString() ?? '?'} locked=${locked} host=${hostText(host)}${kind}${mine ? ' mine=yes' : ''}`;
}

function infoJson(s: SessionInfo, host?: HostInfo, mine?: boolean) {
  return {
    slug: s.slug,
    ...(mine === undefined ? {} : { mine }),
    key: s.key ?? null,
    kind: s.kind ?? null,
    profile: s.paths.profileDir,
    profileExists: s.profileExists,
    storageState: s.hasStorageState ? s.paths.storageStatePath : null,
    artifacts: s.paths.artifactsDir,
    sizeBytes: s.sizeBytes ?? null,
    lastUse: s.lastUsed?.toISOString() ?? null,
    locked: s.lockedBy ? { pid: s.lockedBy.pid, since: s.lockedBy.since, key: s.lockedBy.key, host: s.lockedBy.host } : null,
    host: host ?? null,
  };
}

/** Keeps GSTACK_HOME and the given session dirs owner-only; prints what could not be. */
async function keepPrivate(home: string, dirs: string[], io: SessionsIO): Promise<void> {
  const warnings = new Set<string>();
  for (const d of [home, ...['profiles', 'sessions', 'artifacts'].map((sub) => join(home, sub)), ...dirs]) {
    for (const w of await makePrivateDir(d, { top: home, create: false })) warnings.add(w);
  }
  for (const w of warnings) io.err(w);
}

/** How long `stop --all --force` lets running calls finish before it stops their hosts. */
const FORCE_GRACE_MS = 3_000;

/** --force's grace: polls `busy` until it answers false or FORCE_GRACE_MS have passed. */
async function graceWhile(busy: () => Promise<boolean>): Promise<void> {
  const until = Date.now() + FORCE_GRACE_MS;
  while (Date.now() < until && (await busy())) await new Promise((r) => setTimeout(r, 200));
}

/**
 * `gstack sessions stop`: the caller's own session (or KEY's) by default; `--render` the render
 * host alone; `--all` every host of this user, but only when no other session has a call
 * running, unless `--force` (docs/ARCHITECTURE.md, "Hosts"). A stopped host's running call is
 * told who stopped it (the stop note, driver/hosts/control.ts).
 */
async function stopHosts(args: SessionsArgs, io: SessionsIO, home: string, env: NodeJS.ProcessEnv): Promise<number> {
  const { stopSessionHost, stopRenderHost } = await import('../hosts/control.js');
  const emit = (obj: unknown) => io.out(jsonText(obj));
  if ([args.all, args.render, !!args.target].filter(Boolean).length > 1) {
    throw new UsageError('`sessions stop` takes one of KEY, --render or --all');
  }
  const by = ['gstack sessions stop', ...(args.target ? [args.target] : []), ...(args.render ? ['--render'] : []), ...(args.all ? ['--all'] : []), ...(args.force ? ['--force'] : [])].join(' ');

  if (args.render) {
    // The render host is every agent's: a render in progress (perhaps another session's) is not
    // cut short unless the user says so, as with --all.
    if ((await renderHostInfo(env))?.busy) {
      if (!args.force) {
        io.out('RUNNING render host (a render is in progress)');
        io.err('[error] Not stopping the render host: a render is in progress (perhaps another agent\'s), and stopping it would cut that render short. Try again when it has finished; a user who means to end it adds --force.');
        return 4;
      }
      io.err(`gstack: waiting up to ${FORCE_GRACE_MS / 1000} s for the render in progress`);
      await graceWhile(async () => !!(await renderHostInfo(env))?.busy);
    }
    const pid = await stopRenderHost(env, { by });
    if (args.json) emit({ stopped: [], renderHost: pid ?? null });
    else io.out(pid ? `STOPPED render host=pid:${pid}` : 'NOT_RUNNING render host');
    return 0;
  }

  if (!args.all) {
    const own = resolveSessionKey({ session: args.session, cwd: io.cwd, env }).slug;
    const slug = args.target ? await resolveSlug(args.target, home) : own;
    let t = await sessionInfo(slug, { home, env });
    // A call in progress is an agent's work: not cut short unless the user says so, as with
    // --all. Also in the caller's own session, which another agent may share (the directory's
    // session is every agent's there) or which runs this agent's own call beside its cleanup
    // (pass 31, C31).
    if (t.lockedBy) {
      if (!args.force) {
        io.out(`RUNNING ${slug} key=${quote(t.key)} call=pid:${t.lockedBy.pid}`);
        io.err(`[error] Not stopping ${slug}: a call of that session is running (pid ${t.lockedBy.pid}, perhaps another agent's${slug === own ? ': this session is shared by every caller with its key' : ''}), and stopping would cut it short. Try again when it has finished; a user who means to end it adds --force.`);
        return 4;
      }
      io.err(`gstack: waiting up to ${FORCE_GRACE_MS / 1000} s for ${slug}'s call`);
      await graceWhile(async () => !!(t = await sessionInfo(slug, { home, env })).lockedBy);
    }
    const pid = await stopSessionHost(t.paths.profileDir, { by });
    if (args.json) emit({ stopped: [{ slug, pid: pid ?? null }], renderHost: null });
    else {
      io.out(pid ? `STOPPED ${slug} host=pid:${pid}` : `NOT_RUNNING ${slug}`);
      // Agents who had rendered asked whether the render host was theirs to stop (trials V29,
      // V30, V31): it is nobody's, and needs no stopping.
      const render = await renderHostInfo(env);
      if (render) io.err(`gstack: note: the render host (pid ${render.pid}) is left running: every agent's render, pdf and diagram calls share it and it stops by itself when idle, so there is no need to stop it (\`gstack sessions stop --render\` does).`);
    }
    return 0;
  }

  // --all: whose calls would it cut short? Every session with a live lock holder (a call
  // running, through a host or in its own process; the caller's own session too, which another
  // agent may share), and a render in progress.
  const running = async () => {
    const sessions = (await listSessions({ home, env })).filter((s) => s.lockedBy);
    const renderBusy = !!(await renderHostInfo(env))?.busy;
    return { sessions, renderBusy };
  };
  let busy = await running();
  const describe = () => [
    ...busy.sessions.map((s) => `RUNNING ${s.slug} key=${quote(s.key)} call=pid:${s.lockedBy!.pid}`),
    ...(busy.renderBusy ? ['RUNNING render host (a render is in progress)'] : []),
  ];
  if ((busy.sessions.length || busy.renderBusy) && !args.force) {
    for (const l of describe()) io.out(l);
    const names = busy.sessions.map((s) => s.key ?? s.slug).concat(busy.renderBusy ? ['the render host'] : []);
    io.err(
      `[error] Not stopping anything: ${names.length === 1 ? 'a call is' : `${names.length} calls are`} running (${names.join(', ')}), and stopping ` +
        `would cut ${names.length === 1 ? 'it' : 'them'} short. Stop your own session with \`gstack sessions stop\`, or the render host with ` +
        '`gstack sessions stop --render`; a user who means to end those calls adds --force.',
    );
    return 4;
  }
  if (busy.sessions.length || busy.renderBusy) {
    for (const l of describe()) io.err(`gstack: waiting up to ${FORCE_GRACE_MS / 1000} s for ${l.slice('RUNNING '.length)}`);
    await graceWhile(async () => {
      busy = await running();
      return busy.sessions.length > 0 || busy.renderBusy;
    });
  }
  const stopped: Array<{ slug: string; pid: number }> = [];
  for (const t of await listSessions({ home, env })) {
    const pid = await stopSessionHost(t.paths.profileDir, { by });
    if (pid) stopped.push({ slug: t.slug, pid });
  }
  const renderPid = await stopRenderHost(env, { by });
  if (args.json) emit({ stopped, renderHost: renderPid ?? null });
  else {
    for (const s of stopped) io.out(`STOPPED ${s.slug} host=pid:${s.pid}`);
    if (renderPid) io.out(`STOPPED render host=pid:${renderPid}`);
    if (!stopped.length && !renderPid) io.out('NOT_RUNNING no host was running');
  }
  return 0;
}

export async function runSessionsCommand(args: SessionsArgs, io: SessionsIO): Promise<number> {
  const env = io.env ?? process.env;
  const home = gstackHome(env);
  const emit = (obj: unknown) => io.out(jsonText(obj));
  // An empty KEY (an unset variable: `sessions stop "$TASK"`) would mean this directory's
  // session, which another agent working here may be using.
  if (args.target !== undefined && !args.target.trim()) {
    throw new UsageError(`\`sessions ${args.action}\` was given an empty KEY (an unset variable?): name the session (\`gstack sessions list\` shows them), or leave KEY out for this directory's session.`);
  }

  switch (args.action) {
    case 'list': {
      if (args.target) throw new UsageError('`sessions list` takes no argument');
      // The caller's own session comes first and is marked: an agent looks for its own.
      const ownKey = resolveSessionKey({ session: args.session, cwd: io.cwd, env });
      const own = ownKey.slug;
      const found = await listSessions({ home, env, withSize: true });
      // Our own slug's key is known even where no call recorded it (only --ephemeral calls ran).
      const all = [...found.filter((s) => s.slug === own).map((s) => ({ ...s, key: s.key ?? ownKey.key })), ...(args.mine ? [] : found.filter((s) => s.slug !== own))];
      await keepPrivate(home, all.flatMap((s) => [s.paths.profileDir, s.paths.sessionDir, s.paths.artifactsDir]), io);
      const hosts = await Promise.all(all.map((s) => hostInfo(s.paths.profileDir, env)));
      // The render host is the user's, shared by every agent's renders: shown so an agent can
      // see whether one is up before it stops it (`sessions stop --render`).
      const render = await renderHostInfo(env);
      if (args.json) emit({ home, mine: own, sessions: all.map((s, i) => infoJson(s, hosts[i], s.slug === own)), renderHost: render ?? null });
      else {
        all.forEach((s, i) => io.out(infoLine(s, hosts[i], s.slug === own)));
        io.out(`RENDER_HOST ${hostText(render)}`);
        io.out(`SESSIONS=${all.length} home=${home}`);
      }
      // An agent that set its key in another shell (trial t26) sees its own session missing:
      // say which key this call resolved, and from where.
      if (!all.some((s) => s.slug === own)) {
        const from = ownKey.source === 'flag' ? '--session' : ownKey.source === 'git' ? 'the git worktree' : ownKey.source === 'cwd' ? 'the directory' : ownKey.source;
        // Worded as information, not a failure (trial V2 read "no session … yet" as an error): the
        // first `gstack run` under this key makes it.
        io.err(`gstack: note: your key ${JSON.stringify(ownKey.key)} (from ${from}) has no session yet: your first \`gstack run\` here makes it. To list another key's, pass --session KEY or set GSTACK_SESSION_KEY.`);
      }
      return 0;
    }

    case 'stop':
      return stopHosts(args, io, home, env);

    case 'gc': {
      if (args.target) throw new UsageError('`sessions gc` takes no argument; use --older-than DURATION');
      let olderThanMs: number;
      try {
        olderThanMs = parseDuration(args.olderThan ?? FLAG_DEFAULTS.sessions['older-than']);
      } catch (err) {
        throw new UsageError(`--older-than: ${(err as Error).message}`);
      }
      const r = await gcSessions({ home, env, olderThanMs, dryRun: args.dryRun });
      const verb = args.dryRun ? 'WOULD_REMOVE' : 'REMOVED';
      if (args.json) {
        emit({
          dryRun: !!args.dryRun,
          removed: r.removed.map((x) => infoJson(x)),
          kept: r.kept.map((k) => ({ ...infoJson(k.info), reason: k.reason })),
          prunedArtifacts: r.prunedArtifacts,
          removedEphemeral: r.removedEphemeral,
        });
      } else {
        for (const s of r.removed) io.out(`${verb} ${s.slug} key=${quote(s.key)} lastUse=${s.lastUsed?.toISOString() ?? '?'}`);
        for (const k of r.kept) if (k.info.lockedBy) io.out(`KEPT ${k.info.slug} key=${quote(k.info.key)} (${k.reason})`);
        for (const p of r.prunedArtifacts) io.out(`${args.dryRun ? 'WOULD_PRUNE' : 'PRUNED'} ${p}`);
        for (const p of r.removedEphemeral) io.out(`REMOVED_EPHEMERAL ${p}`);
        io.out(`GC removed=${r.removed.length} kept=${r.kept.length} prunedArtifacts=${r.prunedArtifacts.length}${args.dryRun ? ' dryRun=yes' : ''}`);
      }
      return 0;
    }

    case 'clear': {
      // KEY (a session key or a slug from `sessions list`) > --session > this directory's session.
      const slug = args.target
        ? await resolveSlug(args.target, home)
        : resolveSessionKey({ session: args.session, cwd: io.cwd, env }).slug;
      const info = await sessionInfo(slug, { home, env });
      if (!info.profileExists && !info.key && !info.lastUsed) {
        io.err(`[error] No session ${args.target ? quote(args.target) : slug} under ${home}. \`gstack sessions list\` shows the sessions there.`);
        return 1;
      }
      const r = await clearSession(slug, { home, env });
      if (!r.removed) {
        io.err(
          `[error] Session ${slug} is in use (${r.reason}); not cleared. Wait for that call to finish and run \`gstack sessions clear\` again.`,
        );
        return 4;
      }
      if (args.json) emit({ cleared: infoJson(info) });
      else io.out(`CLEARED ${slug} key=${quote(info.key)} profile=${info.paths.profileDir}`);
      return 0;
    }

    case 'import-cookies': {
      const fromBrowser = args.fromBrowser;
      if (fromBrowser && args.target) {
        throw new UsageError('`sessions import-cookies`: give a cookie FILE or --from-browser, not both');
      }
      if (!fromBrowser && !args.target) {
        throw new UsageError(
          '`sessions import-cookies FILE`: name the cookie file (Playwright storageState JSON or Netscape cookies.txt), or read the browser of this machine with --from-browser chrome|chromium|brave|edge',
        );
      }
      const { parseCookieFile, importIntoProfile, importIntoStorageState, filterByDomains } = await import('../profiles/cookies.js');
      const { touchSession, readSessionRecord } = await import('../sessions/registry.js');
      const { siteOf } = await import('../profiles/browser-cookies.js');
      const sites = [args.domain ?? []].flat().map(siteOf).filter(Boolean);
      let parsed;
      const notes: string[] = [];
      let source: Record<string, unknown> = {};
      if (fromBrowser) {
        const { readBrowserCookies } = await import('../profiles/browser-cookies.js');
        const read = await readBrowserCookies({ browser: fromBrowser, profile: args.browserProfile, domains: sites, env });
        parsed = read;
        source = { browser: read.browser, browserProfile: read.profile, cookieDb: read.cookieDb, skipped: read.skipped };
        if (!args.json) io.out(`FROM_BROWSER ${read.browser} profile=${read.profile} cookies=${read.cookieDb}`);
        const { undecryptable, partitioned, expired } = read.skipped;
        if (undecryptable) notes.push(`${undecryptable} cookie(s) could not be decrypted and were left out.`);
        if (partitioned) notes.push(`${partitioned} partitioned cookie(s) (set inside another site's frame) were left out.`);
        if (expired) notes.push(`${expired} expired cookie(s) were left out.`);
      } else {
        parsed = filterByDomains(await parseCookieFile(args.target!), sites);
      }
      const key = resolveSessionKey({ session: args.session, cwd: io.cwd, env });
      const paths = sessionPaths(key.slug, env);
      const remote = args.remote || (await readSessionRecord(paths))?.kind === 'remote';
      const lockTimeoutMs = args.lockTimeout ?? FLAG_DEFAULTS.sessions['lock-timeout'];
      let summary;
      if (remote) {
        // Same lock a remote call holds (its session dir), so a running call's save at the end
        // cannot overwrite the import half-way.
        const { acquireProfileLock } = await import('../sessions/lock.js');
        const lock = await acquireProfileLock(paths.sessionDir, {
          timeoutMs: lockTimeoutMs,
          key: key.key,
          onWait: (h) => io.err(`gstack: waiting for the session (held by ${describeHolder(h)})`),
        });
        try {
          summary = await importIntoStorageState(parsed, paths.storageStatePath);
        } finally {
          await lock.release();
        }
      } else {
        // No browser to write the profile with exits NO_ENGINE, like a call without an engine.
        summary = await importIntoProfile(parsed, { paths, key: key.key, lockTimeoutMs, onWait: (m) => io.err('gstack: ' + m), env });
      }
      await touchSession(paths, key.key, remote ? 'remote' : 'local');
      await keepPrivate(home, [paths.profileDir, paths.sessionDir], io);
      if (args.json) emit({ session: { key: key.key, slug: key.slug }, ...summary, ...source });
      else {
        io.out(
          `IMPORTED cookies=${summary.cookies} domains=${summary.domains.join(',') || '-'} origins=${summary.origins} format=${summary.format} ` +
            `into=${summary.target} ${summary.where} session=${key.slug}`,
        );
        if (summary.sessionCookiesKept) {
          io.out(`NOTE ${summary.sessionCookiesKept} session cookie(s) had no expiry; they are kept for 30 days so the profile remembers them.`);
        }
        for (const n of notes) io.out(`NOTE ${n}`);
      }
      return 0;
    }
  }
  throw new UsageError(`unknown sessions action ${quote(String(args.action))}: use list, stop, gc, clear or import-cookies`);
}

