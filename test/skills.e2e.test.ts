// `gstack skills list | get NAME [--full] | install [--dir DIR]`, run from the outside: what an
// agent is given (the core, or the core and its reference), what lands in a skills folder, that
// the `gstack` shim written next to the skills runs this installation, that a folder someone
// else made is never replaced, and (the slow one, ~25 s here) the whole path of a new user: an
// `npm pack` tarball installed into an empty project under a fresh HOME, `npx gstack skills
// install`, then a real flow through the shim it wrote.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, ROOT, runCli, runCommand, tempHome, TEST_HOST_IDLE_MS } from './helpers/cli.js';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';

const SKILLS = ['browse', 'diagram', 'make-pdf', 'qa'];
const generated = (skill: string, file: string) => readFileSync(join(ROOT, 'generated', skill, file), 'utf8');

let work: string;
let site: FixtureServer;
before(async () => {
  work = tempHome('gstack-skills-');
  site = await startFixtureServer();
});
after(async () => {
  await site.close();
  rmSync(work, { recursive: true, force: true });
});

test('list names every skill with its core and reference', async () => {
  const r = await runCli(['skills', 'list']);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(r.lines.map((l) => l.split(' ').slice(0, 3).join(' ')), SKILLS.map((s) => `SKILL ${s} files=SKILL.md,REFERENCE.md`));
  const browse = r.lines.find((l) => l.startsWith('SKILL browse '))!;
  assert.match(browse, /Drive a real web browser/);
});

test('get prints the core; --full adds the reference; an unknown name is a usage error naming the skills', async () => {
  for (const skill of SKILLS) {
    const core = await runCli(['skills', 'get', skill]);
    assert.equal(core.code, 0, core.stderr);
    assert.equal(core.stdout, generated(skill, 'SKILL.md'), `${skill}: get prints the core, byte for byte`);
    assert.ok(Buffer.byteLength(core.stdout) <= 12288, `${skill}: the core an agent gets fits 12 KB`);
    const full = await runCli(['skills', 'get', skill, '--full']);
    assert.equal(full.code, 0, full.stderr);
    assert.equal(full.stdout, generated(skill, 'SKILL.md') + '\n' + generated(skill, 'REFERENCE.md'), `${skill}: --full is the core, then the reference`);
  }
  const bad = await runCli(['skills', 'get', 'brwose']);
  assert.equal(bad.code, 2);
  assert.equal(bad.stdout, '');
  assert.match(bad.stderr, /^\[error\] No skill named "brwose"\. `gstack skills list` names them: browse, diagram, make-pdf, qa\.$/m);
  const none = await runCli(['skills', 'get']);
  assert.equal(none.code, 2);
  assert.match(none.stderr, /name the skill/);
});

test('install --dir copies each skill (core and reference) and a gstack shim that runs this installation', async () => {
  const dir = join(work, 'agent-skills');
  const home = join(work, 'home-install');
  const r = await runCli(['skills', 'install', '--dir', dir], { env: { HOME: home, PATH: process.env.PATH } });
  assert.equal(r.code, 0, r.stderr);
  for (const skill of SKILLS) {
    assert.ok(r.lines.includes(`INSTALLED ${skill} ${join(dir, skill, 'SKILL.md')}`), r.stdout);
    for (const f of ['SKILL.md', 'REFERENCE.md']) assert.equal(readFileSync(join(dir, skill, f), 'utf8'), generated(skill, f), `${skill}/${f}`);
  }
  const shim = join(dir, 'gstack-driver', 'bin', 'gstack');
  assert.ok(r.lines.includes(`SHIM ${shim}`), r.stdout);
  accessSync(shim, constants.X_OK);
  // Not on PATH (no ~/.local/bin there): stderr says how to reach it.
  assert.match(r.stderr, /`gstack` is not on PATH: add .*gstack-driver\/bin to PATH, or call .*gstack-driver\/bin\/gstack by its path/);

  const probe = spawnSync(shim, ['probe'], { encoding: 'utf8', env: { ...process.env, GSTACK_SKIP_ASIDE: '1', GSTACK_HOME: join(home, '.gstack') }, timeout: 60_000 });
  assert.equal(probe.status, 0, probe.stdout + probe.stderr);
  assert.match(probe.stdout, /^ENGINE=chromium$/m);
  assert.match(probe.stdout, /^CHROMIUM=\//m);

  // Installing again replaces its own folders, and drops a file an older version had left.
  writeFileSync(join(dir, 'browse', 'OLD.md'), 'from an older version\n');
  const again = await runCli(['skills', 'install', '--dir', dir], { env: { HOME: home, PATH: process.env.PATH } });
  assert.equal(again.code, 0, again.stderr);
  assert.deepEqual(readdirSync(join(dir, 'browse')).filter((f) => f.endsWith('.md')).sort(), ['REFERENCE.md', 'SKILL.md']);
});

test('a shim whose installation is gone says so and how to reinstall', async () => {
  const dir = join(work, 'moved');
  const r = await runCli(['skills', 'install', '--dir', dir], { env: { HOME: join(work, 'home-moved'), PATH: process.env.PATH } });
  assert.equal(r.code, 0, r.stderr);
  const shim = join(dir, 'gstack-driver', 'bin', 'gstack');
  const text = readFileSync(shim, 'utf8');
  assert.ok(text.includes(BIN), 'the shim points at this installation');
  writeFileSync(shim, text.replaceAll(BIN, join(work, 'deleted-project', 'dist', 'bin', 'gstack.cjs')));
  const gone = spawnSync(shim, ['probe'], { encoding: 'utf8' });
  assert.equal(gone.status, 3);
  assert.match(gone.stderr, /^\[error\] gstack-driver is no longer installed at .*deleted-project.*\. Install it again \(npm install gstack-driver\) and run: npx gstack skills install$/m);
});

test('install refuses to replace a folder it did not create, and writes nothing then', async () => {
  for (const theirs of ['browse', 'gstack-driver']) {
    const dir = join(work, `theirs-${theirs}`);
    mkdirSync(join(dir, theirs), { recursive: true });
    writeFileSync(join(dir, theirs, 'SKILL.md'), 'the user\'s own skill\n');
    const r = await runCli(['skills', 'install', '--dir', dir], { env: { HOME: join(work, 'home-theirs'), PATH: process.env.PATH } });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stderr, new RegExp(`^\\[error\\] ${join(dir, theirs).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} exists and was not installed by gstack-driver; not replacing it\\. Move it away, or install elsewhere with --dir DIR\\.$`, 'm'));
    assert.equal(readFileSync(join(dir, theirs, 'SKILL.md'), 'utf8'), 'the user\'s own skill\n');
    assert.deepEqual(readdirSync(dir), [theirs], 'nothing else was written');
  }
});

// SLOW (~25 s on the 2-core machine: npm installs the packed tarball and its dependencies from
// the npm cache). It is the only test that sees the package as a user gets it, so it stays in
// `npm test`.
test('a new user: npm pack, install into an empty project with a fresh HOME, npx gstack skills install, a real flow through the shim', { timeout: 300_000 }, async () => {
  assert.ok(existsSync(BIN), 'build first (npm run build): the tarball ships dist/');
  const home = join(work, 'new-user-home');
  const project = join(work, 'new-user-project');
  const runtime = join(work, 'new-user-run');
  for (const d of [home, project, runtime]) mkdirSync(d, { recursive: true, mode: 0o700 });
  // A fresh HOME, but the machine's npm cache (the registry may be slow or offline here).
  const cache = spawnSync('npm', ['config', 'get', 'cache'], { encoding: 'utf8' }).stdout.trim();
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: home,
    npm_config_cache: cache,
    npm_config_update_notifier: 'false',
    XDG_RUNTIME_DIR: runtime,
    GSTACK_SKIP_ASIDE: '1',
    GSTACK_HOST_IDLE_MS: TEST_HOST_IDLE_MS,
  };

  const pack = await runCommand('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], { cwd: ROOT, env, timeoutMs: 180_000 });
  assert.equal(pack.code, 0, pack.stderr);
  const packed = JSON.parse(pack.stdout)[0] as { filename: string; files: Array<{ path: string }> };
  const shipped = new Set(packed.files.map((f) => f.path));
  for (const f of ['dist/bin/gstack.cjs', 'dist/bin/host.js', 'driver/catalog.json', 'generated/browse/SKILL.md', 'generated/browse/REFERENCE.md', 'generated/qa/REFERENCE.md', 'README.md']) {
    assert.ok(shipped.has(f), `the tarball ships ${f}`);
  }
  assert.ok(![...shipped].some((f) => f.startsWith('test/') || f.startsWith('templates/')), 'no tests or templates in the tarball');

  const install = await runCommand('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', join(work, packed.filename)], { cwd: project, env, timeoutMs: 180_000 });
  assert.equal(install.code, 0, install.stdout + install.stderr);

  const skills = await runCommand('npx', ['gstack', 'skills', 'install'], { cwd: project, env, timeoutMs: 180_000 });
  assert.equal(skills.code, 0, skills.stdout + skills.stderr);
  const skillsDir = join(home, '.claude', 'skills');
  assert.equal(readFileSync(join(skillsDir, 'browse', 'SKILL.md'), 'utf8'), generated('browse', 'SKILL.md'));
  assert.ok(existsSync(join(skillsDir, 'browse', 'REFERENCE.md')));
  const shim = join(skillsDir, 'gstack-driver', 'bin', 'gstack');
  assert.ok(skills.stdout.includes(`SHIM ${shim}`), skills.stdout);
  assert.ok(readFileSync(shim, 'utf8').includes(join(project, 'node_modules', 'gstack-driver', 'dist', 'bin', 'gstack.cjs')), 'the shim runs the installed package');

  const script = `const pg = await openTab(${JSON.stringify(site.url)});
console.log("TITLE=" + (await pg.title()));
await snapshot(pg, { interactive: true });
await pg.getByRole("button", { name: "Click me" }).click();
const s = await snapshot(pg, { interactive: true });
console.log("DIFF_START");
console.log(s.diff);
console.log("DIFF_END");
await closeTab(pg);
console.log("GSTACK_STEP_OK");`;
  try {
    const flow = await runCommand(shim, ['run', script, '--engine', 'chromium', '--session', 'new-user'], { cwd: project, env, timeoutMs: 180_000 });
    assert.equal(flow.code, 0, flow.stdout + flow.stderr);
    const lines = flow.stdout.split('\n').filter(Boolean);
    assert.ok(lines.includes('TITLE=Fixture Home'), flow.stdout);
    assert.ok(lines.some((l) => /^\+ .*button "Clicked 1"/.test(l)), flow.stdout);
    assert.equal(lines.at(-1), 'GSTACK_STEP_OK');
    assert.ok(existsSync(join(home, '.gstack', 'profiles')), 'the session profile lives in the new HOME');
  } finally {
    await runCommand(shim, ['sessions', 'stop', 'new-user'], { cwd: project, env, timeoutMs: 30_000 });
  }
});
