// Benchmark (not part of npm test): `gstack pdf` against md-to-pdf and `gstack diagram`
// against @mermaid-js/mermaid-cli, on the same inputs, in the same run, with the same Chromium.
// gstack runs twice per round: served by the warm worker (driver/warm/, the normal case after
// a user's first call) and with GSTACK_NO_WARM=1 (every call in its own process).
//
//   npx tsc -p tsconfig.json && node --import tsx test/bench/pdf-diagram.ts [--runs 5] [--only pdf|diagram]
//
// The peer tools are installed on demand into test/bench/.peers/pdf-diagram (git-ignored), outside the
// project's dependencies, with Puppeteer's browser download skipped: they are pointed at the
// Chromium gstack itself finds (findChromium) with the same launch flags (chromiumArgs).
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createRequire } from 'node:module';
import { chromiumArgs, findChromium } from '../../driver/chromium-find.js';
import { workerAddress } from '../../driver/warm/protocol.js';

const ROOT = resolve(import.meta.dirname, '..', '..');
// Its own folder under the git-ignored .peers: other benchmarks install their peers beside it,
// and one npm prefix per benchmark keeps their installs from pruning each other.
const PEERS = join(ROOT, 'test', 'bench', '.peers', 'pdf-diagram');
const CLI = join(ROOT, 'dist', 'bin', 'gstack.js');
const runsArg = process.argv.indexOf('--runs');
const RUNS = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 5;
const onlyArg = process.argv.indexOf('--only'); // e.g. --only diagram
const ONLY = onlyArg > 0 ? process.argv[onlyArg + 1] : undefined;

function ensurePeers(): void {
  const have = ['md-to-pdf', 'mmdc'].every((b) => existsSync(join(PEERS, 'node_modules', '.bin', b)));
  if (have) return;
  console.error('bench: installing md-to-pdf and @mermaid-js/mermaid-cli into test/bench/.peers/pdf-diagram (once) ...');
  mkdirSync(PEERS, { recursive: true });
  if (!existsSync(join(PEERS, 'package.json'))) writeFileSync(join(PEERS, 'package.json'), '{ "private": true }\n');
  const r = spawnSync('npm', ['install', '--prefix', PEERS, '--no-audit', '--no-fund', 'md-to-pdf', '@mermaid-js/mermaid-cli'], {
    stdio: 'inherit',
    env: { ...process.env, PUPPETEER_SKIP_DOWNLOAD: '1', PUPPETEER_SKIP_CHROMIUM_DOWNLOAD: '1' },
  });
  if (r.status !== 0) throw new Error('npm install of the peer tools failed');
}

if (!existsSync(CLI)) throw new Error('build first: npx tsc -p tsconfig.json');
ensurePeers();

const chromium = findChromium().path;
const launch = { executablePath: chromium, args: chromiumArgs() };
const work = mkdtempSync(join(tmpdir(), 'gstack-bench-pd-'));
const require = createRequire(import.meta.url);
const readme = join(work, 'README.md');
copyFileSync(join(resolve(require.resolve('sanitize-html'), '..'), 'README.md'), readme);
const fixtures = join(ROOT, 'test', 'fixtures', 'diagrams');
const flow = join(work, 'flowchart.mmd');
copyFileSync(join(fixtures, 'flowchart.mmd'), flow);
const four = join(work, 'four.md');
writeFileSync(
  four,
  ['flowchart', 'sequence', 'class', 'state']
    .map((k) => '```mermaid\n' + readFileSync(join(fixtures, `${k}.mmd`), 'utf8') + '```\n')
    .join('\n'),
);
const puppeteerConfig = join(work, 'puppeteer.json');
writeFileSync(puppeteerConfig, JSON.stringify(launch));
const bin = (name: string) => join(PEERS, 'node_modules', '.bin', name);
const gstackEnv = { ...process.env, GSTACK_SKIP_ASIDE: '1' };
const coldEnv = { ...gstackEnv, GSTACK_NO_WARM: '1' };

interface Case {
  name: string;
  gstack: string[];
  peer?: { label: string; cmd: string; args: string[] };
}

const cases: Case[] = [
  {
    name: 'pdf: README (850 lines) -> PDF',
    gstack: [CLI, 'pdf', readme, join(work, 'g.pdf')],
    peer: { label: 'md-to-pdf', cmd: bin('md-to-pdf'), args: [readme, '--launch-options', JSON.stringify(launch)] },
  },
  { name: 'pdf: README -> PDF with --toc --cover (two print passes; md-to-pdf has no TOC)', gstack: [CLI, 'pdf', readme, join(work, 'gt.pdf'), '--toc', '--cover'] },
  {
    name: 'diagram: flowchart -> SVG',
    gstack: [CLI, 'diagram', flow, '--svg', join(work, 'g.svg')],
    peer: { label: 'mermaid-cli', cmd: bin('mmdc'), args: ['-q', '-i', flow, '-o', join(work, 'm.svg'), '-p', puppeteerConfig] },
  },
  {
    name: 'diagram: flowchart -> PNG',
    gstack: [CLI, 'diagram', flow, '--png', join(work, 'g.png')],
    peer: { label: 'mermaid-cli', cmd: bin('mmdc'), args: ['-q', '-i', flow, '-o', join(work, 'm.png'), '-p', puppeteerConfig] },
  },
  {
    name: 'diagram: 4 fences of one .md -> 4 SVGs',
    gstack: [CLI, 'diagram', four, '--out-dir', join(work, 'g4')],
    peer: { label: 'mermaid-cli', cmd: bin('mmdc'), args: ['-q', '-i', four, '-o', join(work, 'm4.md'), '-p', puppeteerConfig] },
  },
];

function time(cmd: string, args: string[], env: NodeJS.ProcessEnv): number {
  const t = performance.now();
  const r = spawnSync(cmd, args, { env, cwd: work, encoding: 'utf8' });
  const ms = performance.now() - t;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status}):\n${r.stderr}`);
  return ms;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

console.log(`bench: ${RUNS} runs each (after one warm-up), Chromium ${execFileSync(chromium, ['--version'], { encoding: 'utf8' }).trim()} for every tool`);
const fmtRuns = (xs: number[]) => `median ${median(xs).toFixed(0)} ms  [${xs.map((x) => x.toFixed(0)).join(', ')}]`;
const ratio = (peer: number, ours: number) => `${(peer / ours).toFixed(2)}x ${peer > ours ? '(gstack faster)' : '(gstack slower)'}`;
let waitedForWorker = false;
for (const c of cases.filter((x) => !ONLY || x.name.startsWith(ONLY))) {
  const warm: number[] = [];
  const cold: number[] = [];
  const p: number[] = [];
  // Warm-up (disk cache; the first one leaves the warm worker), then interleave so every
  // variant sees the same machine load.
  time(process.execPath, c.gstack, gstackEnv);
  if (!waitedForWorker) {
    waitedForWorker = true;
    const socket = workerAddress(gstackEnv)?.socket;
    for (let i = 0; i < 100 && socket && !existsSync(socket); i++) spawnSync('sleep', ['0.05']);
    if (!socket || !existsSync(socket)) console.log('(no warm worker came up: the "warm" rows ran in-process)');
  }
  if (c.peer) time(c.peer.cmd, c.peer.args, process.env);
  for (let i = 0; i < RUNS; i++) {
    warm.push(time(process.execPath, c.gstack, gstackEnv));
    cold.push(time(process.execPath, c.gstack, coldEnv));
    if (c.peer) p.push(time(c.peer.cmd, c.peer.args, process.env));
  }
  let line = `${c.name}\n  gstack (warm worker)   ${fmtRuns(warm)}\n  gstack (GSTACK_NO_WARM) ${fmtRuns(cold)}`;
  if (c.peer) {
    line += `\n  ${c.peer.label.padEnd(22)} ${fmtRuns(p)}`;
    line += `\n  ratio ${c.peer.label}/gstack: warm ${ratio(median(p), median(warm))}, GSTACK_NO_WARM ${ratio(median(p), median(cold))}`;
  }
  console.log(line);
}
rmSync(work, { recursive: true, force: true });
