// Per-call speed (issue 8, DESIGN section 10). Runs the five-step flow through the installed
// `gstack` bin and through a plain Playwright script on the same Chromium binary, alternating
// in the same run, and prints medians, ratios and peak memory:
//   - gstack, served by the warm worker (the normal case from a user's second call on),
//   - gstack with GSTACK_NO_WARM=1 (every call in its own process: a user's first call),
//   - plain Playwright on the same binary (the baseline of the ratios),
//   - plain Playwright on the full browser, for reference, when the binary is a headless shell.
// Then a four-flow "QA session" against agent-browser (installed on demand into
// test/bench/.peers, outside our dependencies, and pointed at the same Chromium).
// Not part of `npm test`.
//   npm run bench -- [--runs N] [--no-agent-browser]
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFixtureServer } from '../helpers/fixture-server.js';
import { findChromium } from '../../driver/chromium-find.js';
import { workerAddress, workerLockTarget } from '../../driver/warm/protocol.js';
import { lockHolder } from '../../driver/sessions/lock.js';
import { sampleTree, treeRssKb } from './proc-sampler.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BIN = join(ROOT, 'dist', 'bin', 'gstack.js');
// its own prefix: npm prunes a prefix to its package.json, so peers of other benchmarks stay apart
const PEERS = join(ROOT, 'test', 'bench', '.peers', 'agent-browser');
const argv = process.argv.slice(2);
const RUNS = Number(argv[argv.indexOf('--runs') + 1]) || 9;
const WITH_AB = !argv.includes('--no-agent-browser');

interface Sample {
  ms: number;
  peakMiB: number;
}

/** The warm worker's pid, from its singleton lock (undefined when none is up). */
async function warmWorkerPid(): Promise<number | undefined> {
  const a = workerAddress();
  if (!a || !existsSync(a.socket)) return undefined;
  return (await lockHolder(workerLockTarget(a)))?.pid;
}

function timed(cmd: string, args: string[], env: NodeJS.ProcessEnv = {}, alsoSample: number[] = []): Promise<Sample & { out: string }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(cmd, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    const sampler = sampleTree([child.pid!, ...alsoSample]);
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = performance.now() - t0;
      const peakMiB = sampler.stop();
      if (code !== 0) reject(new Error(`${cmd} ${args.slice(0, 2).join(' ')} exited ${code}:\n${out.slice(-2000)}`));
      else resolve({ ms, peakMiB, out });
    });
  });
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const fmt = (ms: number) => `${Math.round(ms)} ms`;

function flowScript(url: string): string {
  return `const pg = await openTab(${JSON.stringify(url)});
const s = await snapshot(pg, { interactive: true });
const ref = (re) => re.exec(s.tree)[1];
await pg.locator(ref(/textbox "Username" \\[ref=(e\\d+)\\]/)).fill("bench");
await pg.locator(ref(/button "Sign in" \\[ref=(e\\d+)\\]/)).click();
await pg.screenshot({ path: path.join(pwd, "shot.png") });
await closeTab(pg);
console.log("GSTACK_STEP_OK");`;
}

async function ensureAgentBrowser(): Promise<string | undefined> {
  const bin = join(PEERS, 'node_modules', '.bin', 'agent-browser');
  if (!existsSync(bin)) {
    mkdirSync(PEERS, { recursive: true });
    console.log('installing agent-browser into test/bench/.peers (outside the project dependencies)...');
    try {
      execFileSync('npm', ['install', '--prefix', PEERS, '--no-audit', '--no-fund', '--loglevel=error', 'agent-browser'], { stdio: 'inherit' });
    } catch {
      console.log('agent-browser could not be installed; skipping the QA-session comparison.');
      return undefined;
    }
  }
  return existsSync(bin) ? bin : undefined;
}

async function main() {
  const site = await startFixtureServer();
  const url = `${site.url}form.html`;
  const found = findChromium();
  const chromium = found.path;
  let fullBrowser: string | undefined;
  try {
    if (found.kind === 'headless-shell') fullBrowser = findChromium(process.env, { headed: true }).path;
  } catch {
    /* no full browser to compare with */
  }
  const home = mkdtempSync(join(tmpdir(), 'gstack-bench-'));
  const env = { GSTACK_HOME: home, GSTACK_SKIP_ASIDE: '1' };
  const coldEnv = { ...env, GSTACK_NO_WARM: '1' };
  const script = flowScript(url);
  const plainProfile = join(home, 'plain-profile');
  const gstackArgs = [BIN, 'run', script, '--engine', 'chromium', '--session', 'bench'];
  const plainArgs = (exe: string) => [join(ROOT, 'test', 'bench', 'plain-playwright.mjs'), url, plainProfile, join(home, 'plain.png'), exe];

  console.log(`five-step flow, ${RUNS} runs each, alternating (warm-up excluded); Chromium: ${chromium} (${found.kind})`);
  await timed(process.execPath, gstackArgs, env); // warm-up: profile creation, disk cache; starts the warm worker
  for (let i = 0; i < 100 && !(await warmWorkerPid()); i++) await new Promise((r) => setTimeout(r, 50));
  const worker = await warmWorkerPid();
  if (!worker) console.log('(no warm worker came up: the "warm" rows below ran in-process)');
  await timed(process.execPath, plainArgs(chromium));
  const variants: Array<{ name: string; run: () => Promise<Sample> }> = [
    { name: 'gstack run (warm worker)', run: () => timed(process.execPath, gstackArgs, env, worker ? [worker] : []) },
    { name: 'gstack run (GSTACK_NO_WARM=1)', run: () => timed(process.execPath, gstackArgs, coldEnv) },
    { name: 'plain Playwright', run: () => timed(process.execPath, plainArgs(chromium)) },
  ];
  if (fullBrowser) variants.push({ name: 'plain Playwright, full browser', run: () => timed(process.execPath, plainArgs(fullBrowser!)) });
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
    console.log(`${v.name.padEnd(32)} median ${fmt(med[i]).padStart(8)}   (min ${fmt(Math.min(...xs.map((s) => s.ms)))})   peak memory ${median(xs.map((s) => s.peakMiB))} MiB`);
  });
  console.log(`ratio warm/plain   ${(med[0] / med[2]).toFixed(2)}   (target <= 0.60, and <= 900 ms)`);
  console.log(`ratio cold/plain   ${(med[1] / med[2]).toFixed(2)}`);
  if (fullBrowser) console.log(`plain Playwright on ${fullBrowser} for reference: the headless shell alone is ${(med[3] / med[2]).toFixed(2)}x faster`);
  if (worker) console.log(`peak memory of a warm call counts the CLI, the worker (${Math.round(treeRssKb(worker) / 1024)} MiB idle) and the browser it starts`);

  if (WITH_AB) {
    const ab = await ensureAgentBrowser();
    if (ab) {
      const abEnv = { AGENT_BROWSER_EXECUTABLE_PATH: chromium, AGENT_BROWSER_ARGS: '--no-sandbox', AGENT_BROWSER_SESSION: `bench-${process.pid}` };
      const abSession = async () => {
        const t0 = performance.now();
        for (let i = 0; i < 4; i++) {
          await timed(ab, ['open', url], abEnv);
          const snap = await timed(ab, ['snapshot', '-i'], abEnv);
          const user = /textbox "Username" \[ref=(e\d+)\]/.exec(snap.out)?.[1];
          const btn = /button "Sign in" \[ref=(e\d+)\]/.exec(snap.out)?.[1];
          if (!user || !btn) throw new Error(`agent-browser snapshot had no refs:\n${snap.out.slice(0, 500)}`);
          await timed(ab, ['fill', `@${user}`, 'bench'], abEnv);
          await timed(ab, ['click', `@${btn}`], abEnv);
          await timed(ab, ['screenshot', join(home, `ab-${i}.png`)], abEnv);
        }
        await timed(ab, ['close'], abEnv).catch(() => undefined);
        return performance.now() - t0;
      };
      const gSession = async () => {
        const t0 = performance.now();
        for (let i = 0; i < 4; i++) await timed(process.execPath, gstackArgs, env);
        return performance.now() - t0;
      };
      const sessions = Math.max(3, Math.ceil(RUNS / 3));
      const gs: number[] = [];
      const as: number[] = [];
      for (let i = 0; i < sessions; i++) {
        if (i % 2 === 0) {
          gs.push(await gSession());
          as.push(await abSession());
        } else {
          as.push(await abSession());
          gs.push(await gSession());
        }
      }
      console.log(`QA session (4 flows = 20 steps), ${sessions} sessions each:`);
      console.log(`gstack (4 calls)          median ${fmt(median(gs))}`);
      console.log(`agent-browser (20 cmds)   median ${fmt(median(as))}   (cold daemon start included)`);
      console.log(`ratio gstack/agent-browser ${(median(gs) / median(as)).toFixed(2)}   (target <= 0.80)`);
    }
  }
  await site.close();
  rmSync(home, { recursive: true, force: true });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
