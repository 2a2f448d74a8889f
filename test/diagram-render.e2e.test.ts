// `gstack diagram` end to end: the compiled CLI, a real Chromium, the mermaid bundled from
// node_modules (the render blocks every non-loopback request, so a CDN load would fail), and
// the SVG/PNG files read back. Needs `npx tsc` (npm test builds).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findChromium } from '../driver/browser/chromium-find.js';
import { collectDiagrams, planOutputs } from '../render/mermaid/diagram.js';
import { BIN, ROOT, cliWith } from './helpers/cli.js';
import { pngSize } from './helpers/inspect.js';

const FIXTURES = join(ROOT, 'test', 'fixtures', 'diagrams');
let work: string;
let launchLog: string;
let env: NodeJS.ProcessEnv;

before(async () => {
  assert.ok(existsSync(BIN), 'dist/bin/gstack.cjs is missing: run `npx tsc -p tsconfig.json` (npm test builds first)');
  work = await mkdtemp(join(tmpdir(), 'gstack-diagram-test-'));
  launchLog = join(work, 'launches.log');
  const wrapper = join(work, 'chromium-counting');
  await writeFile(wrapper, `#!/bin/sh\necho launch >> '${launchLog}'\nexec '${findChromium().path}' "$@"\n`);
  await chmod(wrapper, 0o755);
  env = { ...process.env, GSTACK_SKIP_ASIDE: '1', GSTACK_CHROMIUM: wrapper };
});
after(async () => {
  await rm(work, { recursive: true, force: true });
});

const gstack = cliWith(() => ({ cwd: work, env, exactEnv: true }));

async function launches(): Promise<number> {
  return existsSync(launchLog) ? (await readFile(launchLog, 'utf8')).split('\n').filter(Boolean).length : 0;
}

/** Share of pixels that are not near-white, from a decoded PNG... without a PNG decoder: the
 * compressed size of a blank image of that size is tiny, so a drawn diagram is clearly bigger. */
function looksDrawn(buf: Buffer): boolean {
  const { width, height } = pngSize(buf);
  return buf.length > 2000 && width > 50 && height > 30;
}

const KINDS = [
  { file: 'flowchart.mmd', role: 'flowchart-v2', labels: ['Start here', 'Ready to ship?', 'Ship it', 'Fix the bugs', 'Yes', 'No'] },
  { file: 'sequence.mmd', role: 'sequence', labels: ['Agent', 'Browser', 'open the report', 'snapshot with refs', 'click e12'] },
  { file: 'class.mmd', role: 'classDiagram', labels: ['RenderSpec', 'PdfStep', 'string file', 'boolean tagged', 'steps'] },
  { file: 'state.mmd', role: 'stateDiagram', labels: ['Idle', 'Rendering', 'Written', 'Failed', 'render called', 'page error'] },
];

test('flowchart, sequence, class and state diagrams render to SVG (labels present) and PNG, all in one browser session', async () => {
  const args = ['diagram', ...KINDS.map((k) => join(FIXTURES, k.file))];
  for (const k of KINDS) args.push('--svg', join(work, k.file.replace('.mmd', '.svg')), '--png', join(work, k.file.replace('.mmd', '.png')));
  const before = await launches();
  const r = await gstack(args);
  assert.equal(r.code, 0, r.stderr);
  assert.equal((await launches()) - before, 1, 'four diagrams, one browser launch');
  const expected = KINDS.flatMap((k) => [join(work, k.file.replace('.mmd', '.svg')), join(work, k.file.replace('.mmd', '.png'))]);
  assert.deepEqual(r.stdout.trim().split('\n').sort(), expected.sort(), 'stdout lists exactly the written files');
  assert.match(r.stderr, /4 of 4 diagram\(s\) rendered on chromium/);

  for (const k of KINDS) {
    const svg = await readFile(join(work, k.file.replace('.mmd', '.svg')), 'utf8');
    assert.match(svg, /^<\?xml version="1.0" encoding="UTF-8"\?>\n<svg [^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    assert.match(svg, new RegExp(`aria-roledescription="${k.role}"`), `${k.file} is not a ${k.role} diagram`);
    assert.match(svg, /<\/svg>\s*$/);
    for (const label of k.labels) assert.ok(svg.includes(label), `${k.file}: label "${label}" missing from the SVG`);
    assert.doesNotMatch(svg, /Syntax error in text/);
    const png = await readFile(join(work, k.file.replace('.mmd', '.png')));
    assert.ok(looksDrawn(png), `${k.file}: PNG looks empty (${png.length} bytes, ${JSON.stringify(pngSize(png))})`);
    // The PNG is the SVG's declared size at the default 2x device scale: sharp enough to print.
    const w = Number(/<svg [^>]*width="(\d+)"/.exec(svg)?.[1]);
    assert.equal(pngSize(png).width, 2 * w, `${k.file}: PNG width ${pngSize(png).width} vs SVG width ${w} (expected 2x)`);
  }
});

test('--width sets the diagram width (PNG pixels = width x --scale); --out-dir and --format both name files after the inputs', async () => {
  const dir = join(work, 'sized');
  const r = await gstack(['diagram', join(FIXTURES, 'flowchart.mmd'), join(FIXTURES, 'state.mmd'), '--out-dir', dir, '--format', 'both', '--width', '640', '--scale', '3']);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(r.stdout.trim().split('\n'), ['flowchart.svg', 'flowchart.png', 'state.svg', 'state.png'].map((f) => join(dir, f)));
  for (const name of ['flowchart', 'state']) {
    assert.equal(pngSize(await readFile(join(dir, name + '.png'))).width, 1920);
    assert.match(await readFile(join(dir, name + '.svg'), 'utf8'), /<svg [^>]*width="640"/);
  }
});

test('a syntax error exits 1 with mermaid\'s message and line; the valid diagrams are still written', async () => {
  const dir = join(work, 'broken');
  const r = await gstack(['diagram', join(FIXTURES, 'broken.mmd'), join(FIXTURES, 'sequence.mmd'), '--out-dir', dir]);
  assert.equal(r.code, 1);
  assert.equal(r.stdout.trim(), join(dir, 'sequence.svg'));
  assert.ok(!existsSync(join(dir, 'broken.svg')));
  assert.match(r.stderr, /gstack diagram: broken\.mmd: Parse error on line 3:\n.*B -->> C \(\(\n-+\^\nExpecting /);
  const last = r.stderr.trim().split('\n').pop()!;
  assert.match(last, /^\[error\] 1 of 2 diagram\(s\) failed; broken\.mmd: Parse error on line 3: Expecting .*got 'TAGEND'\. Fix the mermaid syntax and run again\.$/);
});

test('a Markdown input contributes each mermaid fence; errors point at the line in the file', async () => {
  const dir = join(work, 'md');
  const r = await gstack(['diagram', join(FIXTURES, 'two-fences.md'), '--out-dir', dir, '--format', 'png']);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(r.stdout.trim().split('\n'), [join(dir, 'two-fences-1.png'), join(dir, 'two-fences-2.png')]);

  const bad = join(work, 'bad-fence.md');
  await writeFile(bad, '# Doc\n\ntext\n\n```mermaid\nflowchart TD\n  A --> B\n  B -->> C ((\n```\n');
  const b = await gstack(['diagram', bad, '--out-dir', dir]);
  assert.equal(b.code, 1);
  assert.match(b.stderr, /bad-fence\.md#1: Parse error on line 3 \(line 8 of the file\):/);
});

test('usage errors: missing input, too many output paths, clashing outputs, bad width', async () => {
  const missing = await gstack(['diagram', join(work, 'nope.mmd')]);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /\[error\] input file not found: .*nope\.mmd/);
  const many = await gstack(['diagram', join(FIXTURES, 'state.mmd'), '--svg', 'a.svg', '--svg', 'b.svg']);
  assert.equal(many.code, 2);
  assert.match(many.stderr, /2 output paths for 1 diagram/);
  const width = await gstack(['diagram', join(FIXTURES, 'state.mmd'), '--width', '0']);
  assert.equal(width.code, 2);
  assert.match(width.stderr, /--width 0: use a whole number of CSS pixels/);
  await assert.rejects(
    async () => planOutputs(await collectDiagrams([join(FIXTURES, 'state.mmd'), join(FIXTURES, 'state.mmd')]), { inputs: [], outDir: work }),
    /two diagrams would both write/,
  );
});


// Trial V18: a pie of spending in a PDF, its first slices mermaid's near-white #ECECFF and
// #FFFFDE, told apart from the paper by their edges only.
test('a pie in the default theme has slices in colours that read on paper; a diagram\'s own init still chooses its own', async () => {
  const pie = join(work, 'pie.mmd');
  const own = join(work, 'pie-own.mmd');
  await writeFile(pie, 'pie title Spending\n  "Bills" : 165\n  "Food" : 191.6\n  "General" : 129.83\n');
  await writeFile(own, '%%{init: {"themeVariables": {"pie1": "#123456"}}}%%\npie title Mine\n  "A" : 1\n  "B" : 2\n');
  const r = await gstack(['diagram', pie, own, '--svg', join(work, 'pie.svg'), '--svg', join(work, 'pie-own.svg')]);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const fills = (svg: string) => [...svg.matchAll(/class="pieCircle"[^>]*fill="(#[0-9A-Fa-f]+)"|fill="(#[0-9A-Fa-f]+)"[^>]*class="pieCircle"/g)].map((m) => (m[1] ?? m[2]).toUpperCase());
  const slices = fills(await readFile(join(work, 'pie.svg'), 'utf8'));
  assert.deepEqual(slices.sort(), ['#66C2A5', '#8DA0CB', '#FC8D62'], 'the three slices take the print palette');
  assert.ok(fills(await readFile(join(work, 'pie-own.svg'), 'utf8')).includes('#123456'), "the diagram's own pie1 wins");
});
