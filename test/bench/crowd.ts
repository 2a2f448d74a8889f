// Benchmark (not part of npm test): many agents on one machine (README "Benchmarks").
//   node --import tsx test/bench/crowd.ts [--sessions 8] [--calls 10] [--idle-s 20] [--no-agent-browser]
//
// 1. The crowd: --sessions sessions each run --calls calls one after another, all sessions at
//    once, while a further process loops over `gstack render`, `gstack pdf`, its own `sessions
//    stop` and `sessions gc` for the whole run (what a make-pdf agent does beside QA agents).
//    Every call sets its session's cookie on the first call and prints the cookies it sees; it
//    must see its own and no other. Prints wall time and the calls' p50, p95 and max, and checks
//    that after `sessions stop --all --force` no host and no Chromium of the run is left.
// 2. An idle session's memory, PSS (shared pages split between the processes that map them) and
//    RSS of the whole tree: a gstack session host with its browser, --idle-s after its last call
//    (the ready tab shed), and after its browser's idle close (GSTACK_BROWSER_IDLE_MS); and
//    agent-browser's session daemon with its browser, --idle-s after its last command, on the same
//    Chromium binary with the same flags, measured in the same run.
// Needs the compiled CLI (npm run build) and a Chromium.
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFixtureServer } from '../helpers/fixture-server.js';
import { BIN } from '../helpers/cli.js';
import { findChromium } from '../../driver/browser/chromium-find.js';
import { lockHolder } from '../../driver/sessions/lock.js';
import { sessionPaths, slugFor } from '../../driver/sessions/key.js';
import { hostLockTarget } from '../../driver/hosts/address.js';
import { treePssKb, treeRssKb } from '../../driver/hosts/proc-rss.js';
import { renderHostPid } from '../../driver/hosts/control.js';
import { AGENT_BROWSER, agentBrowserEnv, ensureAgentBrowser } from './peers.js';

const argv = process.argv.slice(2);
const num = (name: string, dflt: number) => (argv.includes(`--${name}`) ? Number(argv[argv.indexOf(`--${name}`) + 1]) : dflt);
const SESSIONS = num('sessions', 8);
const CALLS = num('calls', 10);
const IDLE_S = num('idle-s', 20);
const WITH_AB = !argv.includes('--no-agent-browser');

interface Done {
  code: number | null;
  ms: number;
  out: string;
}

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv, cwd?: string): Promise<Done> {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const child = spawn(cmd, args, { env: { ...process.env, ...env }, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (code) => resolve({ code, ms: performance.now() - t0, out }));
  });
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)];
};
const mib = (kb: number | undefined) => (kb === undefined ? '?' : `${Math.round(kb / 1024)}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Live processes whose command line mentions `fragment`. */
function processesMentioning(fragment: string): number[] {
  const out: number[] = [];
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d) || Number(d) === process.pid) continue;
    try {
      const cmd = readFileSync(`/proc/${d}/cmdline`, 'utf8');
      const state = readFileSync(`/proc/${d}/stat`, 'utf8');
      if (cmd.includes(fragment) && !state.slice(state.lastIndexOf(')') + 2).startsWith('Z')) out.push(Number(d));
    } catch {
      /* gone */
    }
  }
  return out;
}

async function crowd(env: NodeJS.ProcessEnv, url: string, work: string): Promise<boolean> {
  const script = (key: string) => `const pg = await openTab(${JSON.stringify(url)});
const ctx = pg.context();
if (!(await ctx.cookies()).some((c) => c.name === "who")) await ctx.addCookies([{ name: "who", value: ${JSON.stringify(key)}, url: ${JSON.stringify(url)}, expires: Math.floor(Date.now() / 1000) + 3600 }]);
console.log("COOKIES=" + JSON.stringify((await ctx.cookies()).map((c) => c.value)));
await snapshot(pg, { interactive: true });
await closeTab(pg);
console.log("GSTACK_STEP_OK");`;
  const calls: Array<{ key: string; i: number; ms: number; ok: boolean; why?: string }> = [];
  let running = true;
  let sideOps = 0;
  const sideFailures: string[] = [];
  const side = (async () => {
    // The ninth agent: renders, and its own session's housekeeping.
    const sideEnv = { ...env, GSTACK_SESSION_KEY: 'crowd-renderer' };
    const ops = [
      ['render', 'page.html', '--screenshot', 'page.png'],
      ['pdf', 'doc.md', 'doc.pdf'],
      ['sessions', 'stop'],
      ['sessions', 'gc'],
    ];
    while (running) {
      for (const op of ops) {
        if (!running) break;
        const r = await run(process.execPath, [BIN, ...op], sideEnv, work);
        sideOps++;
        if (r.code !== 0) sideFailures.push(`${op.join(' ')}: exit ${r.code}: ${r.out.slice(-300)}`);
      }
    }
  })();
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: SESSIONS }, async (_, s) => {
      const key = `crowd-${s}`;
      for (let i = 0; i < CALLS; i++) {
        const r = await run(process.execPath, [BIN, 'run', script(key), '--session', key], env);
        const cookies = /^COOKIES=(.*)$/m.exec(r.out)?.[1];
        const own = cookies === JSON.stringify([key]);
        const ok = r.code === 0 && own;
        calls.push({ key, i, ms: r.ms, ok, why: ok ? undefined : `exit ${r.code}, cookies ${cookies}: ${r.out.slice(-400)}` });
      }
    }),
  );
  const wall = performance.now() - t0;
  running = false;
  await side;
  const ms = calls.map((c) => c.ms);
  const firsts = calls.filter((c) => c.i === 0).map((c) => c.ms);
  const rest = calls.filter((c) => c.i > 0).map((c) => c.ms);
  const okCount = calls.filter((c) => c.ok).length;
  console.log(`crowd: ${SESSIONS} sessions x ${CALLS} calls, with a render/pdf/stop/gc loop beside them (${sideOps} ops, ${sideFailures.length} failed)`);
  console.log(`  ok ${okCount}/${calls.length} (exit 0 and only its own cookie)`);
  console.log(`  wall ${(wall / 1000).toFixed(1)} s; per call p50 ${(quantile(ms, 0.5) / 1000).toFixed(2)} s, p95 ${(quantile(ms, 0.95) / 1000).toFixed(2)} s, max ${(Math.max(...ms) / 1000).toFixed(2)} s; p95/p50 ${(quantile(ms, 0.95) / quantile(ms, 0.5)).toFixed(2)}`);
  console.log(`  first call of each session: p50 ${(quantile(firsts, 0.5) / 1000).toFixed(2)} s, max ${(Math.max(...firsts) / 1000).toFixed(2)} s; later calls: p50 ${(quantile(rest, 0.5) / 1000).toFixed(2)} s, p95 ${(quantile(rest, 0.95) / 1000).toFixed(2)} s`);
  for (const c of calls.filter((x) => !x.ok).slice(0, 5)) console.log(`  FAILED ${c.key} #${c.i}: ${c.why}`);
  for (const f of sideFailures.slice(0, 5)) console.log(`  SIDE FAILED ${f}`);

  const stop = await run(process.execPath, [BIN, 'sessions', 'stop', '--all', '--force'], env);
  await sleep(500);
  const renderHost = await renderHostPid(env);
  const left = processesMentioning(env.GSTACK_HOME!).concat(renderHost ? [renderHost] : []);
  console.log(`  after sessions stop --all --force (exit ${stop.code}): ${left.length} processes of the run left${left.length ? ` (${left.join(', ')})` : ''}`);
  return okCount === calls.length && sideFailures.length === 0 && left.length === 0;
}

async function idleMemory(env: NodeJS.ProcessEnv, url: string, chromium: string): Promise<void> {
  const flow = `const pg = await openTab(${JSON.stringify(url)}); await snapshot(pg, { interactive: true }); await closeTab(pg); console.log("GSTACK_STEP_OK");`;
  const browserIdleMs = (IDLE_S + 15) * 1000;
  const gEnv = { ...env, GSTACK_BROWSER_IDLE_MS: String(browserIdleMs), GSTACK_HOST_IDLE_MS: String(browserIdleMs + 60_000) };
  const first = await run(process.execPath, [BIN, 'run', flow, '--session', 'idle'], gEnv);
  if (first.code !== 0) throw new Error(`gstack idle session: ${first.out}`);
  const host = (await lockHolder(hostLockTarget({ kind: 'session', profileDir: sessionPaths(slugFor('idle'), env).profileDir })))?.pid;

  let ab: string | undefined;
  let abDaemon: number | undefined;
  const abEnv = agentBrowserEnv(chromium, `crowd-idle-${process.pid}`);
  if (WITH_AB && (ab = ensureAgentBrowser())) {
    const before = new Set(processesMentioning('agent-browser'));
    for (const args of [['open', url], ['snapshot', '-i']]) {
      const r = await run(ab, args, abEnv);
      if (r.code !== 0) throw new Error(`agent-browser ${args[0]}: ${r.out}`);
    }
    abDaemon = processesMentioning('agent-browser').find((p) => !before.has(p));
  }
  await sleep(IDLE_S * 1000);
  const g = { pss: treePssKb(host), rss: treeRssKb(host) };
  const a = { pss: treePssKb(abDaemon), rss: treeRssKb(abDaemon) };
  console.log(`idle session, ${IDLE_S} s after its last call, same Chromium (${chromium}) and flags:`);
  console.log(`  gstack host + browser: PSS ${mib(g.pss)} MiB, RSS ${mib(g.rss)} MiB`);
  if (abDaemon) {
    console.log(`  ${AGENT_BROWSER} daemon + browser: PSS ${mib(a.pss)} MiB, RSS ${mib(a.rss)} MiB`);
    console.log(`  ratio PSS gstack/agent-browser ${((g.pss ?? 0) / (a.pss || 1)).toFixed(2)} (target <= 1.5)`);
    await run(ab!, ['close'], abEnv);
  }
  await sleep(browserIdleMs - IDLE_S * 1000 + 6_000);
  console.log(`  gstack after its browser's idle close (${browserIdleMs / 1000} s), host alone: PSS ${mib(treePssKb(host))} MiB, RSS ${mib(treeRssKb(host))} MiB`);
  await run(process.execPath, [BIN, 'sessions', 'stop', 'idle'], env);
}

async function main() {
  const site = await startFixtureServer();
  const chromium = findChromium().path;
  const home = mkdtempSync(join(tmpdir(), 'gstack-crowd-'));
  const runtime = mkdtempSync(join(tmpdir(), 'gstack-crowd-xdg-'));
  chmodSync(runtime, 0o700);
  const work = mkdtempSync(join(tmpdir(), 'gstack-crowd-work-'));
  writeFileSync(join(work, 'page.html'), '<!doctype html><title>r</title><h1>render me</h1>');
  writeFileSync(join(work, 'doc.md'), '# Report\n\nSome text.\n\n## Part\n\nMore text.\n');
  const env = { GSTACK_HOME: home, XDG_RUNTIME_DIR: runtime, GSTACK_SKIP_ASIDE: '1', GSTACK_HOUSEKEEPING: '0' };
  let ok = false;
  try {
    ok = await crowd(env, `${site.url}form.html`, work);
    await idleMemory(env, `${site.url}form.html`, chromium);
  } finally {
    await run(process.execPath, [BIN, 'sessions', 'stop', '--all', '--force'], env);
    await site.close();
    for (const d of [home, runtime, work]) rmSync(d, { recursive: true, force: true });
  }
  if (!ok) process.exitCode = 1;
}

void main();
