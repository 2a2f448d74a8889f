// The one bounded reader (driver/read-file.ts) and the three kinds of file it reads for: a
// render's input (render/api/inputs.ts), a call's `--in` files (driver/runtime/inputs.ts) and
// `-f FILE` (driver/cli/flow-call.ts). Each must refuse at once what could hang (a FIFO with
// no writer), stop reading at its limit even when stat says 0 (a /proc file), and say which.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readRegularFile, readRegularFileSync, statRegularFile } from '../driver/read-file.js';
import { checkInputs, copyInputs } from '../driver/runtime/inputs.js';
import { readScriptSource } from '../driver/cli/flow-call.js';
import type { CliIo } from '../driver/cli/process-io.js';

const dir = mkdtempSync(join(tmpdir(), 'gstack-read-file-'));
const fifo = join(dir, 'pipe');
execFileSync('mkfifo', [fifo]);
writeFileSync(join(dir, 'small.txt'), 'hello');
writeFileSync(join(dir, 'big.txt'), Buffer.alloc(2048, 'x'));
mkdirSync(join(dir, 'sub'));
test.after(() => rmSync(dir, { recursive: true, force: true }));

test('the reader: a regular file whole; a FIFO, a directory, a missing file and one over the limit refused, sync and async alike', async () => {
  for (const read of [readRegularFile, async (p: string, l: number) => readRegularFileSync(p, l)]) {
    const ok = await read(join(dir, 'small.txt'), 100);
    assert.ok(ok.ok && ok.bytes.toString() === 'hello');
    const started = Date.now();
    assert.deepEqual(await read(fifo, 100), { ok: false, why: 'special', detail: 'a FIFO (named pipe), not a regular file' });
    assert.ok(Date.now() - started < 1000, 'a FIFO with no writer is refused at once');
    assert.equal(((await read(join(dir, 'sub'), 100)) as { why: string }).why, 'directory');
    assert.equal(((await read(join(dir, 'gone'), 100)) as { why: string }).why, 'missing');
    const big = await read(join(dir, 'big.txt'), 1024);
    assert.deepEqual(big.ok ? undefined : [big.why, 'size' in big && big.size], ['too-big', 2048], 'over the limit by stat: refused before reading');
    // A kernel file (stat says a regular file of 0 bytes) is refused by its file system, on the
    // open handle: fourteenth red-team pass, `--header /proc/self/environ` printed the environment.
    for (const kernel of ['/proc/self/status', '/proc/version', '/proc/self/environ']) {
      assert.deepEqual(await read(kernel, 1 << 20), { ok: false, why: 'special', detail: 'a kernel file (/proc or /sys), not a regular file' }, kernel);
    }

  }
  assert.deepEqual(await statRegularFile(join(dir, 'small.txt'), 100), { ok: true, size: 5 });
  assert.equal(((await statRegularFile(fifo, 100)) as { why: string }).why, 'special');
});

test('--in: refusals come from the one reader and name the file, the kind and the next step', async () => {
  await assert.rejects(checkInputs(['pipe'], dir), /^UsageError: --in pipe: is a FIFO \(named pipe\); only regular files can be passed in/);
  await assert.rejects(checkInputs(['sub'], dir), /--in sub: is a directory; only regular files can be passed in/);
  await assert.rejects(checkInputs(['gone.txt'], dir), /--in gone\.txt: no such file \(looked at .*gone\.txt\)/);
  await assert.rejects(checkInputs(['/proc/self/status'], dir), /--in \/proc\/self\/status: is a kernel file/);
  // Thirteenth red-team pass: a name with a newline printed `INPUT=x` and a bare sentinel line.
  writeFileSync(join(dir, 'x\nGSTACK_STEP_OK'), 'a');
  writeFileSync(join(dir, 'invoice\u202Efdp.exe'), 'a');
  await assert.rejects(checkInputs(['x\nGSTACK_STEP_OK'], dir), /--in "x\\nGSTACK_STEP_OK": its name holds a control or invisible character; rename the file/);
  await assert.rejects(checkInputs(['invoice\u202Efdp.exe'], dir), /its name holds a control or invisible character/);
  const [small] = await checkInputs(['small.txt'], dir);
  assert.deepEqual({ ...small }, { name: 'small.txt', source: join(dir, 'small.txt'), size: 5 });
  const pwd = join(dir, 'pwd');
  mkdirSync(pwd);
  assert.deepEqual(await copyInputs([small], pwd), ['small.txt']);
  assert.equal(readFileSync(join(pwd, 'small.txt'), 'utf8'), 'hello');
  assert.equal(statSync(join(pwd, 'small.txt')).mode & 0o777, 0o400, 'read-only in pwd');
});

test('-f FILE: a FIFO, a directory and a missing file are usage errors at once', async () => {
  const io = { cwd: dir } as unknown as CliIo;
  await assert.rejects(readScriptSource(undefined, 'pipe', io, 5000), /Script file pipe is a FIFO \(named pipe\), not a regular file/);
  await assert.rejects(readScriptSource(undefined, 'sub', io, 5000), /Script file sub is a directory/);
  await assert.rejects(readScriptSource(undefined, 'gone.js', io, 5000), /Cannot read script file gone\.js: not found\. Check the path\./);
  // A standard input named as a file (C23 #22 said "a device": a host's stdin is /dev/null).
  await assert.rejects(readScriptSource(undefined, '/dev/stdin', io, 5000), /Script file \/dev\/stdin names a standard input, not a file: pass the script on stdin with `gstack run -`/);
  writeFileSync(join(dir, 'flow.js'), 'console.log("GSTACK_" + "STEP_OK")');
  assert.equal(await readScriptSource(undefined, 'flow.js', io, 5000), 'console.log("GSTACK_" + "STEP_OK")');
});

test('a file name given as the script is a usage error that names -f, not "flow is not defined"', async () => {
  const io = { cwd: dir } as unknown as CliIo;
  for (const name of ['flow.js', './checks/login.mjs', '/tmp/x.ts']) {
    await assert.rejects(readScriptSource(name, undefined, io, 5000), (e: Error) => e.name === 'UsageError' && e.message.includes(`the argument is the script's code. Read a file with -f: -f "${name}"`));
  }
  // Code that merely ends like one still runs.
  assert.equal(await readScriptSource('console.log(a.js)', undefined, io, 5000), 'console.log(a.js)');
  assert.equal(await readScriptSource('await pg.goto(u); x = "b.js"', undefined, io, 5000), 'await pg.goto(u); x = "b.js"');
});
