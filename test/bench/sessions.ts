// Benchmark (not part of npm test): what concurrent sessions cost.
//   node --import tsx test/bench/sessions.ts [--n 4] [--reps 3]
// Prints, as medians over --reps rounds:
//   - wall time of one call alone, and of N calls started at once in N different sessions
//     (the ratio says how well sessions run side by side on this machine's cores);
//   - wall time of N calls started at once in ONE session (serialized by the profile lock);
//   - peak memory per call: the CLI process plus the browser on its profile and all its child
//     processes (with session hosts the browser stays up between calls and belongs to the
//     session's host; the host process itself is not counted),
//     sampled from /proc every 50 ms — both summed RSS (counts shared pages once per process,
//     an upper bound) and summed PSS (shared pages split between processes, closer to truth).
// Needs the compiled CLI (npm run build) and a Chromium.
import { readdir, readFile, rm } from 'node:fs/promises';
import { cpus } from 'node:os';
import { startFixtureServer } from '../helpers/fixture-server.js';
import { cliEnv, startCli, tempHome } from '../helpers/cli.js';
import { sessionPaths, slugFor } from '../../driver/sessions/key.js';

function arg(name: string, dflt: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
}
const N = arg('n', 4);
const REPS = arg('reps', 3);

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function memOf(pid: number): Promise<{ rss: number; pss: number }> {
  let rss = 0;
  let pss = 0;
  try {
    const rollup = await readFile(`/proc/${pid}/smaps_rollup`, 'utf8');
    rss = Number(/^Rss:\s+(\d+)/m.exec(rollup)?.[1] ?? 0) * 1024;
    pss = Number(/^Pss:\s+(\d+)/m.exec(rollup)?.[1] ?? 0) * 1024;
  } catch {
    /* exited */
  }
  return { rss, pss };
}

/** pids of the CLI, of the browser whose command line names the call's profile, and of all
 * that browser's descendants (a headless shell's zygotes, renderer, GPU and network processes
 * do not repeat --user-data-dir; with a session host the browser is not the CLI's child). */
async function callPids(cliPid: number, profileDir: string): Promise<number[]> {
  const pids = [cliPid];
  const children = new Map<number, number[]>();
  const browsers: number[] = [];
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    const stat = await readFile(`/proc/${name}/stat`, 'utf8').catch(() => '');
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (ppid) children.set(ppid, [...(children.get(ppid) ?? []), pid]);
    const cmd = await readFile(`/proc/${name}/cmdline`, 'utf8').catch(() => '');
    if (cmd.includes(`--user-data-dir=${profileDir}`)) browsers.push(pid);
  }
  const stack = [...browsers];
  while (stack.length) {
    const pid = stack.pop()!;
    if (pids.includes(pid)) continue;
    pids.push(pid);
    stack.push(...(children.get(pid) ?? []));
  }
  return pids;
}

interface CallStats {
  ms: number;
  peakRss: number;
  peakPss: number;
}

async function oneCall(env: NodeJS.ProcessEnv, home: string, key: string, url: string): Promise<CallStats> {
  const profileDir = sessionPaths(slugFor(key), { GSTACK_HOME: home }).profileDir;
  const script = `
    const pg = await openTab(${JSON.stringify(url)});
    const s = await snapshot(pg, { interactive: true });
    console.log("TITLE=" + await pg.title() + " REFS=" + (s.tree.match(/ref=/g) || []).length);
    await closeTab(pg);
    console.log("GSTACK_STEP_OK");`;
  const run = startCli(['run', '--session', key, script], { env });
  let peakRss = 0;
  let peakPss = 0;
  let running = true;
  const sampler = (async () => {
    while (running) {
      let rss = 0;
      let pss = 0;
      for (const pid of await callPids(run.pid, profileDir)) {
        const m = await memOf(pid);
        rss += m.rss;
        pss += m.pss;
      }
      peakRss = Math.max(peakRss, rss);
      peakPss = Math.max(peakPss, pss);
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  const r = await run.done;
  running = false;
  await sampler;
  if (r.code !== 0) throw new Error(`call ${key} failed (${r.code}):\n${r.stdout}\n${r.stderr}`);
  return { ms: r.endedAt - r.startedAt, peakRss, peakPss };
}

async function main(): Promise<void> {
  const server = await startFixtureServer();
  const home = await tempHome();
  const env = cliEnv(home);
  const url = (i: number) => `${server.origin}/form.html?i=${i}`;
  const mib = (b: number) => (b / 1048576).toFixed(0);
  try {
    // Warm the OS page cache and create the profiles once, so rounds compare like with like.
    await Promise.all(Array.from({ length: N }, (_, i) => oneCall(env, home, `bench-${i}`, url(i))));

    const alone: number[] = [];
    const parallel: number[] = [];
    const serial: number[] = [];
    const perCallMs: number[] = [];
    const rssPeaks: number[] = [];
    const pssPeaks: number[] = [];
    for (let rep = 0; rep < REPS; rep++) {
      const a = await oneCall(env, home, 'bench-0', url(0));
      alone.push(a.ms);
      rssPeaks.push(a.peakRss);
      pssPeaks.push(a.peakPss);

      let t0 = Date.now();
      const par = await Promise.all(Array.from({ length: N }, (_, i) => oneCall(env, home, `bench-${i}`, url(i))));
      parallel.push(Date.now() - t0);
      perCallMs.push(...par.map((c) => c.ms));

      t0 = Date.now();
      await Promise.all(Array.from({ length: N }, (_, i) => oneCall(env, home, 'bench-0', url(i))));
      serial.push(Date.now() - t0);
    }
    const one = median(alone);
    console.log(`machine: ${cpus().length} cores, node ${process.version}; N=${N}, ${REPS} rounds (medians)`);
    console.log(`one call alone                      ${one.toFixed(0)} ms`);
    console.log(`${N} calls at once, ${N} sessions        ${median(parallel).toFixed(0)} ms wall  (x${(median(parallel) / one).toFixed(2)} of one call; ${N} serial calls would be x${N})`);
    console.log(`   each of those calls              ${median(perCallMs).toFixed(0)} ms (median per call)`);
    console.log(`${N} calls at once, ONE session         ${median(serial).toFixed(0)} ms wall  (x${(median(serial) / one).toFixed(2)}: serialized by the profile lock)`);
    console.log(`peak memory per call (CLI+browser)  RSS sum ${mib(median(rssPeaks))} MiB, PSS sum ${mib(median(pssPeaks))} MiB`);
  } finally {
    await server.close();
    await rm(home, { recursive: true, force: true });
  }
}

await main();
