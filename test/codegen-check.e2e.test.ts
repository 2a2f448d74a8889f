// `npm run gen -- --check` on temporary copies of the repo's sources (never the real tree):
// fresh passes, and any change to the catalog, a template or generated/ that was not
// regenerated fails with STALE lines and exit 1. Also: two runs give identical bytes.
// The first test runs the command itself; the others run the copy's own generator in this
// process (its `main`, which the command calls): the copy's modules are its own, since they sit
// at other paths, and a process per run cost about 2 CPU s of start-up.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const ROOT = join(import.meta.dirname, '..');
// What the generator reads: its templates, the catalog (and its loader), the cookbook.
// What the codegen reads: the templates and the cookbook, the catalog (and the code generated from
// it, which the cookbook's errors import), and the files it writes.
const SOURCES = ['templates', 'generated', 'cookbook', 'driver/catalog.json', 'driver/catalog.schema.json', 'driver/catalog.ts', 'driver/catalog.gen.ts', 'driver/errors.ts', 'package.json'];

function copyRepo(t: { after: (fn: () => void) => void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'gstack-codegen-'));
  for (const rel of SOURCES) cpSync(join(ROOT, rel), join(dir, rel), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** `npm run gen` in its own process, as a user runs it. */
function genCommand(dir: string, ...args: string[]) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'templates/gen.ts', ...args], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, out: r.stdout + r.stderr, lines: r.stdout.split('\n').filter(Boolean) };
}

/** The copy's generator, in-process: what genCommand runs, without the process. Imported after
 * the test's edits, so an edited cookbook module is the one loaded. */
async function gen(dir: string, ...args: string[]) {
  const { main } = (await import(pathToFileURL(join(dir, 'templates', 'gen.ts')).href)) as typeof import('../templates/gen.js');
  const lines: string[] = [];
  const code = main(args, (l) => lines.push(l));
  return { code, out: lines.join('\n'), lines };
}

function edit(dir: string, rel: string, change: (s: string) => string): void {
  const before = readFileSync(join(dir, rel), 'utf8');
  const after = change(before);
  assert.notEqual(after, before, `the edit of ${rel} changed nothing`);
  writeFileSync(join(dir, rel), after);
}

function hashes(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string) => {
    for (const e of readdirSync(join(dir, rel), { withFileTypes: true })) {
      const p = `${rel}/${e.name}`;
      if (e.isDirectory()) walk(p);
      else out[p] = createHash('sha256').update(readFileSync(join(dir, p))).digest('hex');
    }
  };
  walk('generated');
  return out;
}

test('--check passes on a fresh copy and prints FRESH for every generated file', (t) => {
  const dir = copyRepo(t);
  const r = genCommand(dir, '--check');
  assert.equal(r.code, 0, r.out);
  // Every file under generated/, and the code generated from the catalog.
  const expected = [...Object.keys(hashes(dir)), 'driver/catalog.gen.ts'].sort();
  assert.deepEqual(r.lines.map((l) => l.replace(/^FRESH: /, '')).sort(), expected);
  assert.ok(r.lines.every((l) => l.startsWith('FRESH: ')), r.out);
});

test('--check fails after a catalog change that was not regenerated', async (t) => {
  const dir = copyRepo(t);
  edit(dir, 'driver/catalog.json', (s) => s.replace('Waits `ms` milliseconds (', 'Waits `ms` milliseconds, changed ('));
  const r = await gen(dir, '--check');
  assert.equal(r.code, 1, r.out);
  // The description lives in the full reference; the core's one-line table does not carry it.
  assert.ok(r.lines.includes('STALE: generated/browse/REFERENCE.md'), r.out);
  assert.ok(r.lines.includes('FRESH: generated/browse/SKILL.md'), r.out);
  assert.ok(r.lines.includes('STALE: generated/script-api.d.ts'), r.out);
  assert.ok(r.lines.includes('FRESH: generated/cookbook/read.js'), r.out);
  assert.match(r.lines.at(-1)!, /^\[error\] generated\/ is stale: run `npm run gen`/);
  // Regenerating makes it fresh again.
  assert.equal((await gen(dir)).code, 0);
  assert.equal((await gen(dir, '--check')).code, 0);
});

test('--check fails after a template change that was not regenerated', async (t) => {
  const dir = copyRepo(t);
  edit(dir, 'templates/partials/driving-rules.hbs', (s) => s.replace('Open your own tabs only.', 'Open only your own tabs.'));
  const r = await gen(dir, '--check');
  assert.equal(r.code, 1, r.out);
  assert.ok(r.lines.includes('STALE: generated/browse/SKILL.md'), r.out);
  assert.ok(r.lines.includes('STALE: generated/qa/SKILL.md'), r.out);
});

test('--check fails after a cookbook shape change that was not regenerated', async (t) => {
  const dir = copyRepo(t);
  edit(dir, 'cookbook/links.ts', (s) => s.replace('default: 100,', 'default: 50,'));
  const r = await gen(dir, '--check');
  assert.equal(r.code, 1, r.out);
  assert.ok(r.lines.includes('STALE: generated/cookbook/links.js'), r.out);
});

test('--check fails on a hand edit, a missing file and a file no longer generated', async (t) => {
  const dir = copyRepo(t);
  edit(dir, 'generated/qa/SKILL.md', (s) => s + '\nhand edit\n');
  unlinkSync(join(dir, 'generated/cookbook/perf.js'));
  writeFileSync(join(dir, 'generated/cookbook/old-shape.js'), '// gone\n');
  const r = await gen(dir, '--check');
  assert.equal(r.code, 1, r.out);
  assert.ok(r.lines.includes('STALE: generated/qa/SKILL.md'), r.out);
  assert.ok(r.lines.includes('STALE: generated/cookbook/perf.js (missing)'), r.out);
  assert.ok(r.lines.includes('STALE: generated/cookbook/old-shape.js (no longer generated)'), r.out);
  // `npm run gen` repairs all three.
  const g = await gen(dir);
  assert.equal(g.code, 0, g.out);
  assert.ok(g.lines.includes('REMOVED: generated/cookbook/old-shape.js'), g.out);
  assert.deepEqual(hashes(dir), hashes(ROOT));
});

test('--check fails with exit 1 on a template error', async (t) => {
  const dir = copyRepo(t);
  edit(dir, 'templates/partials/exit-codes.hbs', (s) => s.replace('{{name}}', '{{nmae}}'));
  const r = await gen(dir, '--check');
  assert.equal(r.code, 1, r.out);
  assert.match(r.out, /\[error\] template templates\/skills\/\S+\.md\.hbs: "nmae" not defined/);
});

test('a SKILL.md description over 1024 characters is a template error', async (t) => {
  const dir = copyRepo(t);
  edit(dir, 'templates/skills/diagram/SKILL.md.hbs', (s) => s.replace(/^description: (.*)$/m, (_m, d) => `description: ${d} ${'x'.repeat(1024)}`));
  const r = await gen(dir, '--check');
  assert.equal(r.code, 1, r.out);
  assert.match(r.out, /generated\/diagram\/SKILL\.md: description is \d+ characters; the limit is 1024/);
});

test('a skill core over 12 KB, or one that does not link its reference, is a template error', async (t) => {
  const dir = copyRepo(t);
  edit(dir, 'templates/skills/diagram/SKILL.md.hbs', (s) => s + '\n' + 'Padding that belongs in the reference. '.repeat(300) + '\n');
  const big = await gen(dir, '--check');
  assert.equal(big.code, 1, big.out);
  assert.match(big.out, /\[error\] template generated\/diagram\/SKILL\.md is \d+ bytes; a skill's core is at most 12288: move detail to its REFERENCE\.md\./);

  const dir2 = copyRepo(t);
  edit(dir2, 'templates/skills/qa/SKILL.md.hbs', (s) => s.replaceAll('[REFERENCE.md](REFERENCE.md)', 'REFERENCE.md'));
  const unlinked = await gen(dir2, '--check');
  assert.equal(unlinked.code, 1, unlinked.out);
  assert.match(unlinked.out, /generated\/qa\/SKILL\.md: the core must link its reference as \[REFERENCE\.md\]\(REFERENCE\.md\)/);
});

test('two runs of npm run gen give identical bytes, equal to the committed files', async (t) => {
  const dir = copyRepo(t);
  rmSync(join(dir, 'generated'), { recursive: true });
  assert.equal((await gen(dir)).code, 0);
  const first = hashes(dir);
  assert.equal((await gen(dir)).code, 0);
  assert.deepEqual(hashes(dir), first);
  assert.deepEqual(first, hashes(ROOT));
});

test('a catalog change the code does not follow is a compile error (driver/catalog.gen.ts)', { timeout: 300_000 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'gstack-codegen-tsc-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  for (const rel of ['driver', 'bin', 'render', 'cookbook', 'templates', 'generated', 'tsconfig.json', 'package.json']) cpSync(join(ROOT, rel), join(dir, rel), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  // tsc on the files that use the four renamed names, and what they import (56 of the 135
  // files): the whole project took a third more CPU and proves nothing more here. The project's
  // own options (tsconfig.json), so an error here is one `npm run build` would report.
  const ROOTS = ['driver/cli/flow-call.ts', 'driver/runtime/sandbox.ts', 'bin/commands/skills.ts', 'driver/cli/login.ts'];
  writeFileSync(join(dir, 'tsconfig.rename.json'), JSON.stringify({ extends: './tsconfig.json', compilerOptions: { incremental: false }, include: [], files: ROOTS }));
  const tsc = () => spawnSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.rename.json', '--noEmit'], { cwd: dir, encoding: 'utf8', timeout: 240_000 });
  // A flag, a global, a positional and a command error renamed in the catalog, regenerated,
  // code unchanged. (One tsc run for all four: it is the slow part.)
  // (The commands that take the shared flag name it in their sharedFlags lists: a rename renames those.)
  edit(dir, 'driver/catalog.json', (s) =>
    s
      .replace('"name": "lock-timeout", "type": "number", "default": 60000', '"name": "lock-wait", "type": "number", "default": 60000')
      .replaceAll('"timeout", "lock-timeout", "max-output"', '"timeout", "lock-wait", "max-output"')
      .replace('"name": "sleep",', '"name": "pause",')
      // `gstack skills get NAME`: the positional `name` becomes `skill`.
      .replace('{ "name": "name", "description": "get: the skill to print', '{ "name": "skill", "description": "get: the skill to print')
      // `gstack login`'s NO_DISPLAY becomes NO_SCREEN.
      .replace('"name": "NO_DISPLAY"', '"name": "NO_SCREEN"'),
  );
  // The skill templates name the global too; they follow the rename (the docs are not what this test is about).
  edit(dir, 'templates/skills/browse/SKILL.md.hbs', (s) => s.replaceAll('{{sig "sleep"', '{{sig "pause"'));
  const g = await gen(dir);
  assert.equal(g.code, 0, g.out);
  const r = tsc();
  assert.notEqual(r.status, 0, 'tsc accepted code that disagrees with the catalog');
  assert.match(r.stdout, /Property 'lockTimeout' does not exist on type 'SharedFlags'/);
  assert.match(r.stdout, /'sleep' does not exist in type 'Implementations'/);
  // The positional: the command body still destructures `name` (before positionals were
  // generated, it read argv[name.name] through a cast, which compiled whatever the catalog said).
  assert.match(r.stdout, /bin\/commands\/skills\.ts\(\d+,\d+\): error TS\d+: Property 'name' does not exist on type 'SkillsPositionals'/);
  // The error name: the code still throws NO_DISPLAY, which `login` no longer lists.
  assert.match(r.stdout, /driver\/cli\/login\.ts\(\d+,\d+\): error TS\d+: [^\n]*"NO_DISPLAY"/);
});
