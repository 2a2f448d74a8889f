// The fixed cost of a call, two builds side by side in one run (issue 23's before/after): each
// build gets its own session (so its own session host, warmed before the clock), and the
// variants run in a new random order each round, with a pause after each call (`--pause`):
//   - a warm call that only prints the sentinel, against `node -e ''` in the same rounds;
//   - the warm five-step flow (flow-script.ts), split into its steps and the rest;
//   - twelve text reads (`innerText`, `textContent`, `allInnerTexts`), timed inside the script.
// Wall time is the caller's; CPU time (user + sys) is the client process's own, which the load
// of a shared machine inflates less than wall time. Medians; the load average is printed.
// Not part of `npm test`.
//   node --import tsx test/bench/call-cost.ts --before COPY/dist/bin/gstack.cjs [--after dist/bin/gstack.cjs] [--runs N] [--pause MS]
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startFixtureServer } from '../helpers/fixture-server.js';
import { BIN } from '../helpers/cli.js';
import { flowScript } from './flow-script.js';

const argv = process.argv.slice(2);
const opt = (name: string) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
const RUNS = Number(opt('--runs')) || 9;
/** The pause after each call (`--pause MS`). */
const PAUSE_MS = Number(opt('--pause') ?? 300);
const BEFORE = opt('--before');
const AFTER = resolve(opt('--after') ?? BIN);
if (!BEFORE) {
  console.error('usage: call-cost.ts --before COPY/dist/bin/gstack.cjs [--after dist/bin/gstack.cjs] [--runs N]');
  process.exit(2);
}

interface Sample {
  ms: number;
  cpuMs: number;
  out: string;
}

/** Runs node with args under /usr/bin/time: wall time here, CPU time of that process. */
function timed(args: string[], env: NodeJS.ProcessEnv): Promise<Sample> {
  return new Promise((done, fail) => {
    const t0 = performance.now();
    const child = spawn('/usr/bin/time', ['-f', 'CPU %U %S', process.execPath, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', fail);
    child.on('close', (code) => {
      const ms = performance.now() - t0;
      const m = /CPU ([\d.]+) ([\d.]+)\s*$/.exec(err);
      if (code !== 0 || !m) return fail(new Error(`node ${args.slice(0, 2).join(' ')} exited ${code}:\n${(out + err).slice(-1500)}`));
      done({ ms, cpuMs: (Number(m[1]) + Number(m[2])) * 1000, out });
    });
  });
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

function steps(out: string): Map<string, number> {
  const m = new Map<string, number>();
  for (const [, name, ms] of out.matchAll(/^STEP (\S+) (\d+)$/gm)) m.set(name, Number(ms));
  return m;
}

const textReads = (url: string) => `const pg = await openTab(${JSON.stringify(url)});
await pg.locator("body").innerText();
const t0 = Date.now();
for (let i = 0; i < 4; i++) {
  await pg.locator("body").innerText();
  await pg.locator("h1").textContent();
  await pg.locator("label").allInnerTexts();
}
console.log("STEP text-reads " + (Date.now() - t0));
await closeTab(pg);
console.log("GSTACK_STEP_OK");`;

async function main() {
  const site = await startFixtureServer();
  const url = `${site.url}form.html`;
  const home = mkdtempSync(join(tmpdir(), 'gstack-callcost-'));
  const runtime = mkdtempSync(join(tmpdir(), 'gstack-callcost-xdg-'));
  chmodSync(runtime, 0o700);
  const env = { GSTACK_HOME: home, GSTACK_SKIP_ASIDE: '1', XDG_RUNTIME_DIR: runtime, GSTACK_HOUSEKEEPING: '0' };
  const builds = [
    { name: 'before', bin: resolve(BEFORE!) },
    { name: 'after', bin: AFTER },
  ];
  const call = (bin: string, session: string, script: string) => timed([bin, 'run', script, '--session', session], env);
  const bare = 'console.log("GSTACK_STEP_OK")';
  // Warm-up, not timed: each build's session host and browser start, the page is cached.
  for (const b of builds) {
    await call(b.bin, b.name, flowScript(url));
    await call(b.bin, b.name, textReads(url));
  }
  const variants: Array<{ name: string; run: () => Promise<Sample> }> = [{ name: "node -e ''", run: () => timed(['-e', ''], {}) }];
  for (const b of builds) {
    variants.push(
      { name: `${b.name}: sentinel-only warm call`, run: () => call(b.bin, b.name, bare) },
      { name: `${b.name}: five-step flow, warm`, run: () => call(b.bin, b.name, flowScript(url)) },
      { name: `${b.name}: twelve text reads, warm`, run: () => call(b.bin, b.name, textReads(url)) },
    );
  }
  const load: number[] = [];
  const samples = variants.map(() => [] as Sample[]);
  for (let i = 0; i < RUNS; i++) {
    load.push(loadavg()[0]);
    // A new order each round, and a pause after each call: a call's host settles its tabs after
    // answering, so in a fixed order one variant would always start beside another's settle.
    const order = variants.map((_, k) => k);
    for (let k = order.length - 1; k > 0; k--) {
      const j = Math.floor(Math.random() * (k + 1));
      [order[k], order[j]] = [order[j], order[k]];
    }
    for (const v of order) {
      samples[v].push(await variants[v].run());
      await new Promise((r) => setTimeout(r, PAUSE_MS));
    }
  }
  console.log(`${RUNS} rounds, shuffled, ${PAUSE_MS} ms after each call; load average (1 min) at each round's start: median ${median(load).toFixed(1)}, ${Math.min(...load).toFixed(1)}-${Math.max(...load).toFixed(1)} on ${(await import('node:os')).cpus().length} cores`);
  const med = samples.map((xs) => median(xs.map((s) => s.ms)));
  const cpu = samples.map((xs) => median(xs.map((s) => s.cpuMs)));
  variants.forEach((v, i) => {
    const split = new Map<string, number[]>();
    for (const s of samples[i]) for (const [k, ms] of steps(s.out)) (split.get(k) ?? split.set(k, []).get(k)!).push(ms);
    const inSteps = [...split.values()].reduce((sum, xs) => sum + median(xs), 0);
    const detail = split.size ? `   steps: ${[...split].map(([k, xs]) => `${k} ${median(xs)}`).join(', ')}; outside the steps ${Math.round(med[i] - inSteps)} ms` : '';
    console.log(`${v.name.padEnd(36)} wall ${String(Math.round(med[i])).padStart(5)} ms   client cpu ${String(Math.round(cpu[i])).padStart(4)} ms${detail}`);
  });
  const n = med[0];
  for (let k = 0; k < 3; k++) {
    const b = med[1 + k];
    const a = med[4 + k];
    console.log(`${variants[4 + k].name.slice(7).padEnd(30)} after/before ${(a / b).toFixed(2)} (${Math.round(b)} -> ${Math.round(a)} ms)`);
  }
  console.log(`sentinel-only minus node -e '': before ${Math.round(med[1] - n)} ms, after ${Math.round(med[4] - n)} ms (target <= 40 ms)`);
  for (const b of builds) await timed([b.bin, 'sessions', 'stop', b.name], env).catch(() => undefined);
  await site.close();
  rmSync(home, { recursive: true, force: true });
  rmSync(runtime, { recursive: true, force: true });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
