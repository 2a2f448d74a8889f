// Fit and finish of browse (issue 28), live on fixture pages shaped like the widgets agents
// tripped on: a grid header filter that reacts to key presses only, an empty Quill-like
// editor, a long API reference in sections, and a file form fed by `--in`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, cliWith, expectExit, tempHome } from './helpers/cli.js';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';

let server: FixtureServer;
let home: string;
let cwd: string;
const gstack = cliWith(() => ({ cwd, env: { GSTACK_HOME: home, GSTACK_SESSION_KEY: 'browse-finish' }, timeoutMs: 120_000 }));

before(async () => {
  server = await startFixtureServer();
  home = tempHome('gstack-browse-finish-');
  cwd = mkdtempSync(join(tmpdir(), 'gstack-browse-finish-cwd-'));
});
after(async () => {
  await gstack(['sessions', 'stop']).catch(() => undefined);
  await server.close();
  rmSync(home, { recursive: true, force: true });
  rmSync(cwd, { recursive: true, force: true });
});

const textBlock = (out: string) => /TEXT_START\n([\s\S]*?)\nTEXT_END/.exec(out)?.[1] ?? '';

test('flow: `type` filters a key-driven grid header input where `fill` does not', async () => {
  const run = (action: string) =>
    gstack(['cookbook', 'flow', '--url', `${server.url}grid-filter.html`, '--params', JSON.stringify({ steps: [{ action, role: 'textbox', name: 'Filter Name', value: 'ad' }] })]);
  const filled = await run('fill');
  expectExit(filled, 0);
  assert.doesNotMatch(filled.stdout, /2 rows/, 'fill is expected to filter nothing on this grid');
  const typed = await run('type');
  expectExit(typed, 0);
  assert.match(typed.stdout, /^STEP 1 type "Filter Name" ref=e\d+$/m);
  assert.match(/DIFF_START\n([\s\S]*?)DIFF_END/.exec(typed.stdout)?.[1] ?? '', /2 rows/);
});

test('an empty rich-text editor is found by role textbox and typed into', async () => {
  const script = `const pg = await openTab(${JSON.stringify(server.url + 'editor.html')});
const editor = pg.getByRole("textbox", { name: "Message" });
console.log("EMPTY=" + JSON.stringify(await editor.innerText()));
await editor.click();
await pg.keyboard.type("Hello from gstack");
await pg.getByRole("button", { name: "Send" }).click();
console.log("STATUS=" + (await pg.getByRole("status").innerText()));
await closeTab(pg);
console.log("GSTACK_STEP_OK");`;
  const res = await cliWith(() => ({ cwd, env: { GSTACK_HOME: home, GSTACK_SESSION_KEY: 'browse-finish' }, input: script, timeoutMs: 120_000 }))(['run', '-']);
  expectExit(res, 0);
  assert.match(res.stdout, /^EMPTY=""$/m);
  assert.match(res.stdout, /^STATUS=Sent: Hello from gstack$/m);
});

test('read with selector and maxChars prints one section of a long page, cut and marked', async () => {
  const whole = await gstack(['cookbook', 'read', '--url', `${server.url}api-long.html`, '--params', '{"maxChars":100000}']);
  expectExit(whole, 0);
  assert.ok(textBlock(whole.stdout).length > 50_000, 'the page is long');
  const part = await gstack(['cookbook', 'read', '--url', `${server.url}api-long.html`, '--params', '{"selector":"#pagination-section","maxChars":3000}']);
  expectExit(part, 0);
  const text = textBlock(part.stdout);
  assert.match(text, /^Pagination\n/);
  assert.doesNotMatch(text, /Authentication|Errors paragraph/);
  assert.match(text, /\[text cut at 3000 of \d+ characters\]$/);
  assert.ok(part.stdout.length < 6_000, `one section, not the page: ${part.stdout.length} bytes`);
  const none = await gstack(['cookbook', 'read', '--url', `${server.url}api-long.html`, '--params', '{"selector":"#no-such"}']);
  expectExit(none, 1);
  assert.match(none.stdout, /No element matches the selector "#no-such"/);
});

test('--in copies a file into pwd read-only, prints INPUT=, and setInputFiles uploads it', async () => {
  writeFileSync(join(cwd, 'note.txt'), 'first line of the note\nsecond\n');
  writeFileSync(
    join(cwd, 'upload.js'),
    `const pg = await openTab(${JSON.stringify(server.url + 'upload.html')});
await pg.setInputFiles("#file", path.join(pwd, "note.txt"));
await pg.waitForSelector("#got:not(:empty)");
console.log("PAGE=" + (await pg.locator("#got").innerText()));
console.log("MODE=" + ((await fs.stat(path.join(pwd, "note.txt"))).mode & 0o777).toString(8));
console.log("WRITE=" + (await fs.writeFile(path.join(pwd, "note.txt"), "x").then(() => "allowed", (e) => "refused")));
await closeTab(pg);
console.log("GSTACK_STEP_OK");`,
  );
  const r = await gstack(['run', '-f', 'upload.js', '--in', 'note.txt', '--out', 'out']);
  expectExit(r, 0);
  assert.equal(r.lines[0], 'INPUT=note.txt', 'INPUT= comes before the script prints anything');
  assert.match(r.stdout, /^PAGE=GOT note\.txt 30 first line of the note$/m);
  assert.match(r.stdout, /^MODE=400$/m, 'the input is read-only');
  // root writes through any mode; everyone else is refused.
  if (process.getuid?.() !== 0) assert.match(r.stdout, /^WRITE=refused$/m);
  assert.doesNotMatch(r.stdout, /ARTIFACT .*note\.txt/, 'an input is not an artifact');

  mkdirSync(join(cwd, 'adir'), { recursive: true });
  const dir = await gstack(['run', '-f', 'upload.js', '--in', 'adir']);
  expectExit(dir, 2);
  assert.match(dir.stdout + dir.stderr, /--in adir: is a directory; only regular files can be passed in/);
  const missing = await gstack(['run', '-f', 'upload.js', '--in', 'nope.txt']);
  expectExit(missing, 2);
  assert.match(missing.stdout + missing.stderr, /--in nope\.txt: no such file/);
  const dev = await gstack(['run', '-f', 'upload.js', '--in', '/dev/zero']);
  expectExit(dev, 2);
  assert.match(dev.stdout + dev.stderr, /is a device/);
  writeFileSync(join(cwd, 'secret.txt'), 'x');
  chmodSync(join(cwd, 'secret.txt'), 0o000);
  if (process.getuid?.() !== 0) {
    const denied = await gstack(['run', '-f', 'upload.js', '--in', 'secret.txt']);
    expectExit(denied, 2);
  }
});

test('--in on Aside (the test double): the files travel in the script and land in its pwd', async () => {
  writeFileSync(join(cwd, 'note.txt'), 'first line of the note\nsecond\n');
  const aside = cliWith(() => ({
    cwd,
    env: { GSTACK_HOME: home, GSTACK_SKIP_ASIDE: undefined, PATH: `${join(ROOT, 'test', 'doubles')}:${process.env.PATH}`, ASIDE_DOUBLE_HOME: join(home, 'aside') },
    timeoutMs: 120_000,
  }));
  const r = await aside(['run', '-f', 'upload.js', '--in', 'note.txt', '--engine', 'aside']);
  expectExit(r, 0);
  assert.equal(r.lines[0], 'INPUT=note.txt');
  assert.match(r.stdout, /^PAGE=GOT note\.txt 30 first line of the note$/m);
  writeFileSync(join(cwd, 'big.bin'), Buffer.alloc(300 * 1024));
  const big = await aside(['run', '-f', 'upload.js', '--in', 'big.bin', '--engine', 'aside']);
  expectExit(big, 2);
  assert.match(big.stdout + big.stderr, /on Aside they travel inside the script, at most 256 KB in all/);
});
