// Per-call speed (README "Benchmarks"). Runs the five-step flow through the installed `gstack`
// bin and through a plain Playwright script on the same Chromium binary, alternating in the
// same run, and prints medians, ratios and memory:
//   - gstack, a call after the first in its session (its session host keeps the browser up),
//   - gstack, the first call of a new session (the host and its browser start),
//   - gstack with GSTACK_NO_HOST=1 (every call in its own process),
//   - plain Playwright on the same binary (the baseline of the ratios),
// and the split of a host call into its script's steps and the rest; a warm call that only
// prints the sentinel against `node -e ''`. Then a four-flow QA session against agent-browser
// (pinned, test/bench/peers.ts), on the same Chromium with the same flags, warm against warm and
// cold against cold, with the per-step split of both; `snapshot -i` of a 1,500-row page (an
// input, a button and a link a row) in a warm call against agent-browser's; and the idle memory
// of one session host with its browser. Not part of `npm test`.
//   npm run bench -- [--runs N] [--no-agent-browser] [--only big-snapshot|qa] [--bin dist/bin/gstack.cjs]
// --bin runs another build (a copy of dist/ taken before a change) for a before/after.
import { spawn } from 'node:child_process';
import { mkdtempSync, chmodSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFixtureServer } from '../helpers/fixture-server.js';
import { BIN as OWN_BIN, ROOT } from '../helpers/cli.js';
import { findChromium } from '../../driver/browser/chromium-find.js';
import { lockHolder } from '../../driver/sessions/lock.js';
import { sessionPaths, slugFor } from '../../driver/sessions/key.js';
import { hostLockTarget } from '../../driver/hosts/address.js';
import { rowsPage } from './rows-page.js';
import { sampleTree, treeRssKb } from './proc-sampler.js';
import { AGENT_BROWSER, agentBrowserEnv, ensureAgentBrowser } from './peers.js';
import { flowScript } from './flow-script.js';

const argv = process.argv.slice(2);
const RUNS = Number(argv[argv.indexOf('--runs') + 1]) || 9;
const WITH_AB = !argv.includes('--no-agent-browser');
const ONLY = argv.includes('--only') ? argv[argv.indexOf('--only') + 1] : undefined;
const BIN = argv.includes('--bin') ? argv[argv.indexOf('--bin') + 1] : OWN_BIN;

interface Sample {
  ms: number;
  peakMiB: number;
  /** stdout and stderr as they came. */
  out: string;
  /** stdout alone (what a --json command answers; notices go to stderr). */
  stdout: string;
}

function timed(cmd: string, args: string[], env: NodeJS.ProcessEnv = {}, alsoSample: number[] = []): Promise<Sample> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(cmd, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    const sampler = sampleTree([child.pid!, ...alsoSample]);
    let out = '';
    let stdout = '';
    child.stdout.on('data', (d) => {
      out += d;
      stdout += d;
    });
    child.stderr.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = performance.now() - t0;
      const peakMiB = sampler.stop();
      if (code !== 0) reject(new Error(`${cmd} ${args.slice(0, 2).join(' ')} exited ${code}:\n${out.slice(-2000)}`));
      else resolve({ ms, peakMiB, out, stdout });
    });
  });
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const fmt = (ms: number) => `${Math.round(ms)} ms`;

function steps(out: string): Map<string, number> {
  const m = new Map<string, number>();
  for (const [, name, ms] of out.matchAll(/^STEP (\S+) (\d+)$/gm)) m.set(name, Number(ms));
  return m;
}

async function main() {
  const site = await startFixtureServer();
  const url = `${site.url}form.html`;
  const found = findChromium();
  const chromium = found.path;
  const home = mkdtempSync(join(tmpdir(), 'gstack-bench-'));
  const runtime = mkdtempSync(join(tmpdir(), 'gstack-bench-xdg-'));
  chmodSync(runtime, 0o700);
  const env = { GSTACK_HOME: home, GSTACK_SKIP_ASIDE: '1', XDG_RUNTIME_DIR: runtime, GSTACK_HOUSEKEEPING: '0' };
  const coldEnv = { ...env, GSTACK_NO_HOST: '1' };
  const script = flowScript(url);
  const plainProfile = join(home, 'plain-profile');
  const gstack = (session: string) => [BIN, 'run', script, '--engine', 'chromium', '--session', session];
  const plainArgs = [join(ROOT, 'test', 'bench', 'plain-playwright.mjs'), url, plainProfile, join(home, 'plain.png'), chromium];
  const hostPidOf = async (session: string) =>
    (await lockHolder(hostLockTarget({ kind: 'session', profileDir: sessionPaths(slugFor(session), env).profileDir })))?.pid;

  if (ONLY === 'big-snapshot') {
    await bigSnapshot(WITH_AB ? ensureAgentBrowser() : undefined, { site, chromium, env, home });
    await timed(process.execPath, [BIN, 'sessions', 'stop', '--all', '--force'], env).catch(() => undefined);
    await site.close();
    rmSync(home, { recursive: true, force: true });
    rmSync(runtime, { recursive: true, force: true });
    return;
  }
  if (ONLY === 'qa') {
    const ab = ensureAgentBrowser();
    if (ab) await qaSessions(ab, { url, chromium, env, home, script });
    // Each session of this run by its key (this run's own GSTACK_HOME), not `--all`.
    const listed = JSON.parse((await timed(process.execPath, [BIN, 'sessions', 'list', '--json'], env)).stdout) as { sessions: Array<{ key: string }> };
    for (const { key } of listed.sessions) await timed(process.execPath, [BIN, 'sessions', 'stop', key], env).catch(() => undefined);
    await site.close();
    rmSync(home, { recursive: true, force: true });
    rmSync(runtime, { recursive: true, force: true });
    return;
  }
  console.log(`five-step flow, ${RUNS} runs each, alternating (warm-up excluded); Chromium: ${chromium} (${found.kind})`);
  await timed(process.execPath, gstack('bench'), env); // profile creation, disk cache; starts the session host
  await timed(process.execPath, gstack('bench'), env);
  await timed(process.execPath, plainArgs);
  const host = await hostPidOf('bench');
  if (!host) console.log('(no session host came up: the "host" rows below ran in-process)');
  let firstKey = 0;
  const variants: Array<{ name: string; run: () => Promise<Sample> }> = [
    { name: 'gstack run (session host)', run: () => timed(process.execPath, gstack('bench'), env, host ? [host] : []) },
    {
      name: "gstack run (session's first call)",
      run: async () => {
        const key = `bench-first-${firstKey++}`;
        const s = await timed(process.execPath, gstack(key), env);
        await timed(process.execPath, [BIN, 'sessions', 'stop', key], env); // not timed: frees its browser
        return s;
      },
    },
    { name: 'gstack run (GSTACK_NO_HOST=1)', run: () => timed(process.execPath, gstack('bench-cold'), coldEnv) },
    { name: 'plain Playwright', run: () => timed(process.execPath, plainArgs) },
  ];
  const samples = variants.map(() => [] as Sample[]);
  for (let i = 0; i < RUNS; i++) {
    // Rotate the order so no variant always runs right after the same other one.
    for (let k = 0; k < variants.length; k++) {
      const v = (i + k) % variants.length;
      samples[v].push(await variants[v].run());
    }
  }
  const med = samples.map((xs) => median(xs.map((s) => s.ms)));
  variants.forEach((v, i) => {
    const xs = samples[i];
    console.log(`${v.name.padEnd(36)} median ${fmt(med[i]).padStart(8)}   (min ${fmt(Math.min(...xs.map((s) => s.ms)))})   peak memory ${median(xs.map((s) => s.peakMiB))} MiB`);
  });
  const plain = med[3];
  console.log(`ratio host call / plain   ${(med[0] / plain).toFixed(2)}   (target <= 0.35, and <= 250 ms)`);
  console.log(`first call of a session   ${fmt(med[1])}   (target <= 900 ms)`);
  console.log(`ratio no-host / plain     ${(med[2] / plain).toFixed(2)}`);
  const split = new Map<string, number[]>();
  for (const s of samples[0]) for (const [k, v] of steps(s.out)) (split.get(k) ?? split.set(k, []).get(k)!).push(v);
  const inSteps = [...split.values()].reduce((sum, xs) => sum + median(xs), 0);
  console.log(
    `host call split (medians): ${[...split].map(([k, xs]) => `${k} ${median(xs)}`).join(', ')}; ` +
      `steps ${Math.round(inSteps)} ms, everything else (client start, hand-off, lock, answer) ${Math.round(med[0] - inSteps)} ms`,
  );
  if (host) console.log(`peak memory of a host call counts the CLI, the host and its browser`);

  // A warm call that only prints the sentinel, against Node's own start: what a call costs
  // beyond Node (client, hand-off, lock, sandbox, answer).
  {
    const bare = [BIN, 'run', 'console.log("GSTACK_STEP_OK")', '--session', 'bench'];
    const g: number[] = [];
    const n: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      g.push((await timed(process.execPath, bare, env)).ms);
      n.push((await timed(process.execPath, ['-e', ''])).ms);
    }
    console.log(`sentinel-only warm call   median ${fmt(median(g))}   node -e '' ${fmt(median(n))}   difference ${fmt(median(g) - median(n))}   (target <= 40 ms)`);
  }

  if (WITH_AB) {
    const ab = ensureAgentBrowser();
    if (ab) await qaSessions(ab, { url, chromium, env, home, script });
  }
  await bigSnapshot(WITH_AB ? ensureAgentBrowser() : undefined, { site, chromium, env, home });

  // Idle memory of one session host with its browser, after its calls (its own account).
  await new Promise((r) => setTimeout(r, 2000));
  const list = JSON.parse((await timed(process.execPath, [BIN, 'sessions', 'list', '--json'], env)).stdout) as {
    sessions: Array<{ key: string; host: { pid: number; hostRssKb?: number; browserRssKb?: number } | null }>;
  };
  const bench = list.sessions.find((s) => s.key === 'bench')?.host;
  if (bench?.hostRssKb !== undefined) {
    const total = Math.round(((bench.hostRssKb ?? 0) + (bench.browserRssKb ?? 0)) / 1024);
    console.log(`idle session host: host ${Math.round(bench.hostRssKb / 1024)} MiB + browser ${Math.round((bench.browserRssKb ?? 0) / 1024)} MiB = ${total} MiB RSS (tree: ${Math.round((treeRssKb(bench.pid) ?? 0) / 1024)} MiB)`);
  }
  await timed(process.execPath, [BIN, 'sessions', 'stop', '--all', '--force'], env).catch(() => undefined);
  await site.close();
  rmSync(home, { recursive: true, force: true });
  rmSync(runtime, { recursive: true, force: true });
}

/**
 * The four-flow QA session (4 gstack calls against agent-browser's 20 commands), fairly:
 * the same Chromium binary and launch flags, and the same state. Warm: both daemons up before
 * the clock (gstack's session host has run a call; agent-browser's session has opened a blank
 * page, and is closed after the clock). Cold: a new session each, for both (gstack's host and
 * browser start with the first call; agent-browser's daemon and browser with the first open).
 * Sessions alternate which tool goes first; medians of at least 5 each.
 */
async function qaSessions(ab: string, o: { url: string; chromium: string; env: NodeJS.ProcessEnv; home: string; script: string }) {
  const sessions = Math.max(5, RUNS);
  let n = 0;
  const abSession = async (warm: boolean, per: Map<string, number[]>) => {
    const abEnv = agentBrowserEnv(o.chromium, `bench-${process.pid}-${n++}`);
    const step = async (name: string, args: string[]) => {
      const s = await timed(ab, args, abEnv);
      (per.get(name) ?? per.set(name, []).get(name)!).push(s.ms);
      return s;
    };
    if (warm) await timed(ab, ['open', 'about:blank'], abEnv);
    const t0 = performance.now();
    for (let i = 0; i < 4; i++) {
      await step('open', ['open', o.url]);
      const snap = await step('snapshot', ['snapshot', '-i']);
      const user = /textbox "Username" \[ref=(e\d+)\]/.exec(snap.out)?.[1];
      const btn = /button "Sign in" \[ref=(e\d+)\]/.exec(snap.out)?.[1];
      if (!user || !btn) throw new Error(`agent-browser snapshot had no refs:\n${snap.out.slice(0, 500)}`);
      await step('fill', ['fill', `@${user}`, 'bench']);
      await step('click', ['click', `@${btn}`]);
      await step('screenshot', ['screenshot', join(o.home, `ab-${i}.png`)]);
    }
    const ms = performance.now() - t0;
    await timed(ab, ['close'], abEnv).catch(() => undefined);
    return ms;
  };
  const gSession = async (warm: boolean, per: Map<string, number[]>) => {
    const key = `bench-qa-${n++}`;
    const call = [BIN, 'run', o.script, '--engine', 'chromium', '--session', key];
    if (warm) await timed(process.execPath, [BIN, 'run', 'console.log("GSTACK_STEP_OK")', '--session', key], o.env);
    const t0 = performance.now();
    for (let i = 0; i < 4; i++) {
      const s = await timed(process.execPath, call, o.env);
      for (const [k, v] of steps(s.out)) (per.get(k) ?? per.set(k, []).get(k)!).push(v);
    }
    const ms = performance.now() - t0;
    await timed(process.execPath, [BIN, 'sessions', 'stop', key], o.env); // not timed, like agent-browser's close
    return ms;
  };
  for (const warm of [true, false]) {
    const gPer = new Map<string, number[]>();
    const aPer = new Map<string, number[]>();
    const gs: number[] = [];
    const as: number[] = [];
    for (let i = 0; i < sessions; i++) {
      if (i % 2 === 0) {
        gs.push(await gSession(warm, gPer));
        as.push(await abSession(warm, aPer));
      } else {
        as.push(await abSession(warm, aPer));
        gs.push(await gSession(warm, gPer));
      }
    }
    const state = warm ? 'warm (both daemons up before the clock)' : 'cold (a new session each, daemons start on the clock)';
    console.log(`QA session (4 flows = 20 steps), ${state}, ${sessions} sessions each, alternating, same Chromium and flags, ${AGENT_BROWSER}:`);
    console.log(`  gstack (4 calls)          median ${fmt(median(gs))}   steps: ${[...gPer].map(([k, xs]) => `${k} ${median(xs)}`).join(', ')}`);
    console.log(`  agent-browser (20 cmds)   median ${fmt(median(as))}   per command: ${[...aPer].map(([k, xs]) => `${k} ${Math.round(median(xs))}`).join(', ')}`);
    console.log(`  ratio gstack/agent-browser ${(median(gs) / median(as)).toFixed(2)}   (target ${warm ? '<= 1.0' : 'first call <= 1.3x'})`);
  }
}


/**
 * `snapshot -i` of a 1,500-row page, warm against warm: gstack's snapshot step inside a call of
 * a session whose host is up (the call opens the page, then snapshots; the step is timed in the
 * script), against agent-browser's `snapshot -i` command on the page its warm session has open.
 * Alternating, medians of at least 5.
 */
async function bigSnapshot(ab: string | undefined, o: { site: Awaited<ReturnType<typeof startFixtureServer>>; chromium: string; env: NodeJS.ProcessEnv; home: string }) {
  o.site.setPage('/rows-1500.html', rowsPage(1500));
  const url = `${o.site.url}rows-1500.html`;
  const script = `const pg = await openTab(${JSON.stringify(url)}); const t = Date.now(); const s = await snapshot(pg, { interactive: true }); console.log("STEP snapshot " + (Date.now() - t)); console.log("LINES " + s.tree.split("\\n").length); console.log("GSTACK_STEP_OK");`;
  const key = `bench-big-${process.pid}`;
  const call = [BIN, 'run', script, '--engine', 'chromium', '--session', key, '--timeout', '120000'];
  // The host and its browser start, and the page is served once; not timed.
  await timed(process.execPath, [BIN, 'run', `await openTab(${JSON.stringify(url)}); console.log("GSTACK_STEP_OK")`, '--engine', 'chromium', '--session', key], o.env);
  const abEnv = ab ? agentBrowserEnv(o.chromium, `bench-big-${process.pid}`) : undefined;
  if (ab) await timed(ab, ['open', url], abEnv);
  const g: number[] = [];
  const gCall: number[] = [];
  const a: number[] = [];
  let lines = '';
  for (let i = 0; i < Math.max(5, RUNS); i++) {
    const s = await timed(process.execPath, call, o.env).catch((err: Error) => {
      // A loaded machine can take longer than the snapshot's own timeout: say so, not crash.
      console.log(`  gstack call failed: ${/\[error\] .*/.exec(err.message)?.[0] ?? err.message.slice(0, 300)}`);
      return undefined;
    });
    if (s) {
      g.push(steps(s.out).get('snapshot')!);
      gCall.push(s.ms);
      lines = /^LINES (\d+)$/m.exec(s.out)?.[1] ?? '?';
    }
    if (ab) a.push((await timed(ab, ['snapshot', '-i'], abEnv)).ms);
  }
  await timed(process.execPath, [BIN, 'sessions', 'stop', key], o.env).catch(() => undefined);
  if (ab) await timed(ab, ['close'], abEnv).catch(() => undefined);
  console.log(`snapshot -i of a 1,500-row page (${lines} lines), warm, ${g.length} gstack calls that finished, ${a.length} agent-browser snapshots:`);
  console.log(`  gstack snapshot step      median ${fmt(median(g))}   (whole call with its open: ${fmt(median(gCall))})`);
  if (ab) console.log(`  agent-browser snapshot -i median ${fmt(median(a))}   ratio ${(median(g) / median(a)).toFixed(2)}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
