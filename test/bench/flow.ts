// Per-call speed (issue 8, DESIGN section 10). Runs the five-step flow through the installed
// `gstack` bin and through a plain Playwright script, alternating A/B in the same run, and
// prints medians, the ratio and peak memory; then a four-flow "QA session" against
// agent-browser (installed on demand into test/bench/.peers, outside our dependencies, and
// pointed at the same Chromium). Not part of `npm test`.
//   npm run bench -- [--runs N] [--no-agent-browser]
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFixtureServer } from '../helpers/fixture-server.js';
import { findChromium } from '../../driver/chromium-find.js';
import { sampleTree } from './proc-sampler.js';

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

function timed(cmd: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<Sample & { out: string }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(cmd, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    const sampler = sampleTree(child.pid!);
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
  const chromium = findChromium().path;
  const home = mkdtempSync(join(tmpdir(), 'gstack-bench-'));
  const env = { GSTACK_HOME: home, GSTACK_SKIP_ASIDE: '1' };
  const script = flowScript(url);
  const plainProfile = join(home, 'plain-profile');
  const gstackArgs = [BIN, 'run', script, '--engine', 'chromium', '--session', 'bench'];
  const plainArgs = [join(ROOT, 'test', 'bench', 'plain-playwright.mjs'), url, plainProfile, join(home, 'plain.png'), chromium];

  console.log(`five-step flow, ${RUNS} runs each, A/B alternating (warm-up excluded); Chromium: ${chromium}`);
  await timed(process.execPath, gstackArgs, env); // warm-up: first profile creation, disk cache
  await timed(process.execPath, plainArgs);
  const g: Sample[] = [];
  const p: Sample[] = [];
  for (let i = 0; i < RUNS; i++) {
    const order = i % 2 === 0 ? ['g', 'p'] : ['p', 'g'];
    for (const which of order) {
      if (which === 'g') g.push(await timed(process.execPath, gstackArgs, env));
      else p.push(await timed(process.execPath, plainArgs));
    }
  }
  const gm = median(g.map((s) => s.ms));
  const pm = median(p.map((s) => s.ms));
  console.log(`gstack run          median ${fmt(gm)}   (min ${fmt(Math.min(...g.map((s) => s.ms)))})   peak memory ${median(g.map((s) => s.peakMiB))} MiB`);
  console.log(`plain Playwright    median ${fmt(pm)}   (min ${fmt(Math.min(...p.map((s) => s.ms)))})   peak memory ${median(p.map((s) => s.peakMiB))} MiB`);
  console.log(`ratio gstack/plain  ${(gm / pm).toFixed(2)}   (target <= 0.60, and <= 900 ms)`);

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
