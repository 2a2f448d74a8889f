// Benchmark (not part of npm test): `gstack pdf` against md-to-pdf and `gstack diagram`
// against @mermaid-js/mermaid-cli, on the same inputs, in the same run, with the same Chromium.
// gstack runs twice per round: served by the render host (driver/hosts/, the normal case after
// a user's first render: a pooled browser, a fresh context per render) and with GSTACK_NO_HOST=1
// (every call in its own process). For PDFs it also prints each tool's page count and file size
// side by side.
//
//   npm run build && node --import tsx test/bench/pdf-diagram.ts [--runs 5] [--only pdf|diagram]
//
// The document is the README of uglify-js (test/fixtures/markdown/uglify-js): real prose, 66
// code blocks (md-to-pdf highlights them with highlight.js, as gstack does), tables, links.
// The peer tools, at the pinned versions below, are installed on demand into
// test/bench/.peers/pdf-diagram (git-ignored), outside the project's dependencies, with
// Puppeteer's browser download skipped: they are pointed at the Chromium gstack itself finds
// (findChromium: the headless shell where there is one), launched as a headless shell
// (`headless: 'shell'`) with the same flags (chromiumArgs).
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromiumArgs, findChromium } from '../../driver/browser/chromium-find.js';
import { hostAddress, hostLockTarget, openRuntimeDir } from '../../driver/hosts/address.js';
import { lockHolder } from '../../driver/sessions/lock.js';
import { pdfInfo } from '../helpers/inspect.js';

const ROOT = resolve(import.meta.dirname, '..', '..');
// Its own folder under the git-ignored .peers: other benchmarks install their peers beside it,
// and one npm prefix per benchmark keeps their installs from pruning each other.
const PEERS = join(ROOT, 'test', 'bench', '.peers', 'pdf-diagram');
const CLI = join(ROOT, 'dist', 'bin', 'gstack.cjs');
const runsArg = process.argv.indexOf('--runs');
const RUNS = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 5;
const onlyArg = process.argv.indexOf('--only'); // e.g. --only diagram
const ONLY = onlyArg > 0 ? process.argv[onlyArg + 1] : undefined;

/** The peers, pinned so that numbers from different days compare: each at its newest release
 * that runs on this project's Node 20 (mermaid-cli 12 needs Node >= 22.13). */
const PEER_VERSIONS: Record<string, string> = { 'md-to-pdf': '5.2.5', '@mermaid-js/mermaid-cli': '11.17.0' };

function installedVersion(pkg: string): string | undefined {
  try {
    return JSON.parse(readFileSync(join(PEERS, 'node_modules', pkg, 'package.json'), 'utf8')).version;
  } catch {
    return undefined;
  }
}

function ensurePeers(): void {
  const missing = Object.entries(PEER_VERSIONS).filter(([pkg, v]) => installedVersion(pkg) !== v);
  if (missing.length === 0) return;
  const specs = missing.map(([pkg, v]) => `${pkg}@${v}`);
  console.error(`bench: installing ${specs.join(', ')} into test/bench/.peers/pdf-diagram (once) ...`);
  mkdirSync(PEERS, { recursive: true });
  if (!existsSync(join(PEERS, 'package.json'))) writeFileSync(join(PEERS, 'package.json'), '{ "private": true }\n');
  const r = spawnSync('npm', ['install', '--prefix', PEERS, '--no-audit', '--no-fund', '--save-exact', ...specs], {
    stdio: 'inherit',
    env: { ...process.env, PUPPETEER_SKIP_DOWNLOAD: '1', PUPPETEER_SKIP_CHROMIUM_DOWNLOAD: '1' },
  });
  if (r.status !== 0) throw new Error('npm install of the peer tools failed');
}

if (!existsSync(CLI)) throw new Error('build first: npm run build');
ensurePeers();

const chromium = findChromium().path;
// Puppeteer's 'shell' mode starts the binary as the headless shell it is (old headless), as
// gstack does; its default (the new headless mode of the full browser) would not fit this binary.
const launch = { executablePath: chromium, headless: 'shell', args: chromiumArgs() };
const work = mkdtempSync(join(tmpdir(), 'gstack-bench-pd-'));
const readme = join(work, 'README.md');
copyFileSync(join(ROOT, 'test', 'fixtures', 'markdown', 'uglify-js', 'README.md'), readme);
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
const coldEnv = { ...gstackEnv, GSTACK_NO_HOST: '1' };

interface Case {
  name: string;
  gstack: string[];
  peer?: { label: string; cmd: string; args: string[] };
  /** The PDFs the two tools wrote, compared by page count and size. */
  pdfs?: { gstack: string; peer?: string };
}

const cases: Case[] = [
  {
    name: 'pdf: uglify-js README (1.3k lines, 66 code blocks) -> PDF',
    gstack: [CLI, 'pdf', readme, join(work, 'g.pdf')],
    // md-to-pdf writes README.pdf next to README.md.
    peer: { label: 'md-to-pdf', cmd: bin('md-to-pdf'), args: [readme, '--launch-options', JSON.stringify(launch)] },
    pdfs: { gstack: join(work, 'g.pdf'), peer: join(work, 'README.pdf') },
  },
  {
    name: 'pdf: the same README with --toc --cover (two print passes; md-to-pdf has no TOC)',
    gstack: [CLI, 'pdf', readme, join(work, 'gt.pdf'), '--toc', '--cover'],
    pdfs: { gstack: join(work, 'gt.pdf') },
  },
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
/** gstack's time as a share of the peer's (the target for pdf is at most 0.5). */
const share = (ours: number, peer: number) => (ours / peer).toFixed(2);
const pages = (pdf: string) => Number(pdfInfo(pdf).Pages);
const kb = (file: string) => `${Math.round(statSync(file).size / 1024)} KB`;
let checkedHost = false;
for (const c of cases.filter((x) => !ONLY || x.name.startsWith(ONLY))) {
  const hosted: number[] = [];
  const cold: number[] = [];
  const p: number[] = [];
  // Warm-up (disk cache; the first one starts the render host), then interleave so every
  // variant sees the same machine load.
  time(process.execPath, c.gstack, gstackEnv);
  if (!checkedHost) {
    checkedHost = true;
    const dir = openRuntimeDir(gstackEnv);
    const socket = dir ? hostAddress(dir, { kind: 'render' }).socket : undefined;
    const up = dir && socket && existsSync(socket) && (await lockHolder(hostLockTarget({ kind: 'render' }, dir)));
    if (!up) console.log('(no render host came up: the "host" rows ran in-process)');
  }
  if (c.peer) time(c.peer.cmd, c.peer.args, process.env);
  for (let i = 0; i < RUNS; i++) {
    hosted.push(time(process.execPath, c.gstack, gstackEnv));
    cold.push(time(process.execPath, c.gstack, coldEnv));
    if (c.peer) p.push(time(c.peer.cmd, c.peer.args, process.env));
  }
  let line = `${c.name}\n  gstack (render host)    ${fmtRuns(hosted)}\n  gstack (GSTACK_NO_HOST) ${fmtRuns(cold)}`;
  if (c.peer) {
    line += `\n  ${c.peer.label.padEnd(22)} ${fmtRuns(p)}`;
    const target = c.name.startsWith('pdf') ? ' (target: at most 0.50)' : '';
    line += `\n  time gstack/${c.peer.label}: render host ${share(median(hosted), median(p))}, GSTACK_NO_HOST ${share(median(cold), median(p))}${target}`;
  }
  if (c.pdfs) {
    line += `\n  output: gstack ${pages(c.pdfs.gstack)} pages, ${kb(c.pdfs.gstack)}`;
    if (c.pdfs.peer && c.peer) line += `  |  ${c.peer.label} ${pages(c.pdfs.peer)} pages, ${kb(c.pdfs.peer)}`;
  }
  console.log(line);
}
rmSync(work, { recursive: true, force: true });
