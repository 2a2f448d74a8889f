// Saved flows end to end (issue 26, acceptance 1-5): `gstack flows save|run|list|show|check`
// and `gstack run -f FILE --params JSON` through the compiled CLI, a real Chromium and a sign-up
// page served on 127.0.0.1 that the tests change between save and check. Also the same saved
// flow on the Aside engine (test double), where `params` comes from a prelude.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';
import { ROOT, cliEnv, expectExit, runCli, tempHome, type CliResult } from './helpers/cli.js';

const SESSION = ['--session', 'flows-e2e'];

/** The sign-up page; `heading` and `button` are what the drift tests change. */
function signupPage(heading = 'Newsletter', button = true): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sign up</title></head><body>
<h1>${heading}</h1>
<label for="email">Email</label> <input id="email" type="email">
${button ? '<button type="button" onclick="document.getElementById(\'result\').textContent = \'Welcome, \' + document.getElementById(\'email\').value">Sign up</button>' : ''}
<p id="result" role="status"></p>
</body></html>`;
}

/** Four steps: open, fill, click, read; its inputs come from `params`. */
const FLOW = `const { url, email, pause } = params;
const pg = await openTab(url);
console.log("HEADING=" + (await pg.textContent("h1")));
await pg.getByLabel("Email").fill(email);
await sleep(pause);
await pg.getByRole("button", { name: "Sign up" }).click({ timeout: 3000 });
console.log("WELCOME=" + (await pg.textContent("#result")));
console.log("URL=" + pg.url());
await closeTab(pg);
console.log("GSTACK_STEP_OK");
`;

let site: FixtureServer;
let home: string;
let repo: string;
let subdir: string;
let outside: string;

before(async () => {
  site = await startFixtureServer();
  site.setPage('/signup', signupPage());
  home = tempHome('gstack-flows-');
  repo = mkdtempSync(join(tmpdir(), 'gstack-flows-repo-'));
  execFileSync('git', ['init', '-q', repo]);
  subdir = join(repo, 'src', 'deep');
  mkdirSync(subdir, { recursive: true });
  outside = mkdtempSync(join(tmpdir(), 'gstack-flows-outside-'));
  writeFileSync(join(repo, 'signup.js'), FLOW);
});
after(async () => {
  await site.close();
  // This suite's own session host only (never --all: other suites' hosts may be running).
  await runCli(['sessions', 'stop', 'flows-e2e'], { env: cliEnv(home) });
  for (const dir of [repo, outside, home]) rmSync(dir, { recursive: true, force: true });
});

const gstack = (args: string[], cwd = repo, env: NodeJS.ProcessEnv = {}, input?: string): Promise<CliResult> =>
  runCli([...args, ...SESSION], { cwd, env: cliEnv(home, env), input });
const last = (r: CliResult) => r.lines[r.lines.length - 1];
const flowFile = () => join(repo, '.gstack', 'flows', 'signup.js');

test('1. a 4-step flow with url and email is saved with its header and expectations, listed, and re-run with another email', async () => {
  const url = `${site.origin}/signup`;
  const saved = await gstack(['flows', 'save', 'signup', '-f', 'signup.js', '--describe', 'Signs up for the newsletter', '--param', `url=${url}`, '--param', 'email=a@example.com', '--required', 'email', '--param', 'pause:number=0']);
  expectExit(saved, 0);
  assert.match(saved.stdout, /^WELCOME=Welcome, a@example\.com$/m);
  assert.equal(last(saved), `FLOW_SAVED name=signup file=${flowFile()} params=url,email,pause expectations=3`);

  const file = readFileSync(flowFile(), 'utf8');
  assert.ok(file.startsWith('/* gstack-flow\n * name: signup\n * description: Signs up for the newsletter\n'), file);
  assert.match(file, new RegExp(`^ \\* param: url \\{"type":"string","default":"${url.replace(/[.]/g, '\\.')}"\\}$`, 'm'));
  assert.match(file, /^ \* param: email \(required\) \{"type":"string","examples":\["a@example\.com"\]\}$/m);
  assert.match(file, /^ \* param: pause \{"type":"number","default":0\}$/m);
  assert.match(file, /^ \* gstack: \d+\.\d+\.\d+$/m);
  assert.match(file, /^ \* engine: chromium$/m);
  assert.match(file, /^ \* created: \d{4}-\d\d-\d\dT/m);
  assert.match(file, /^ \* expect: "HEADING=Newsletter"$/m);
  assert.match(file, /^ \* expect: "WELCOME=Welcome, a@example\.com"$/m);
  assert.ok(file.endsWith(FLOW), 'the script follows the header unchanged');

  const list = await gstack(['flows', 'list']);
  expectExit(list, 0);
  assert.match(list.stdout, new RegExp(`^FLOW signup where=project file=${flowFile()} lastPass=\\d{4}-\\S+ lastFailure=never lastCheck=never description="Signs up for the newsletter"$`, 'm'));
  assert.match(list.stdout, /^ {2}PARAM url string default="http:\/\/127\.0\.0\.1:\d+\/signup"$/m);
  assert.match(list.stdout, /^ {2}PARAM email string required$/m);
  assert.match(list.stdout, /^ {2}PARAM pause number default=0$/m);
  assert.match(last(list), /^FLOWS=1 project=\S+ global=/);

  const show = await gstack(['flows', 'show', 'signup']);
  expectExit(show, 0);
  assert.equal(show.stdout, file);

  const again = await gstack(['flows', 'run', 'signup', '--param', 'email=b@example.com']);
  expectExit(again, 0);
  assert.deepEqual(again.lines, ['HEADING=Newsletter', 'WELCOME=Welcome, b@example.com', `URL=${url}`, 'GSTACK_STEP_OK']);

  // Saving over it needs --force.
  const twice = await gstack(['flows', 'save', 'signup', '-f', 'signup.js', '--param', `url=${url}`]);
  expectExit(twice, 2);
  assert.match(twice.stderr, /already saved .*--force/);
});

test('2. a missing, ill-typed or unknown parameter exits 2 and names it and the rule', async () => {
  const missing = await gstack(['flows', 'run', 'signup']);
  expectExit(missing, 2);
  assert.match(missing.stderr, /parameter "email" is missing \(rule: required\)/);
  assert.equal(missing.stdout, '', 'nothing ran');

  const typed = await gstack(['flows', 'run', 'signup', '--param', 'email=b@example.com', '--param', 'pause=soon']);
  expectExit(typed, 2);
  assert.match(typed.stderr, /parameter "pause" must be a number, got a string \(rule: type number\)/);

  const unknown = await gstack(['flows', 'run', 'signup', '--param', 'email=b@example.com', '--param', 'emial=x']);
  expectExit(unknown, 2);
  assert.match(unknown.stderr, /parameter "emial" is not one of the flow's/);
  assert.match(unknown.stderr, /It takes: url string default=.*; email string required; pause number default=0/);

  const list = await gstack(['flows', 'list']);
  assert.match(list.stdout, /^FLOW signup .*lastFailure=never/m, 'a refused call is no run of the flow');
});

test('3. check: PASS, then DRIFT with before/after when the heading changes, then DRIFT with the failure evidence when the button is gone', async () => {
  const pass = await gstack(['flows', 'check']);
  expectExit(pass, 0);
  assert.deepEqual(pass.lines, ['PASS signup expectations=3 engine=chromium', 'CHECKED flows=1 pass=1 drift=0 skip=0']);
  assert.match((await gstack(['flows', 'list'])).stdout, /^FLOW signup .*lastCheck=pass@\d{4}-/m);

  try {
    site.setPage('/signup', signupPage('Newsletter (spring edition)'));
    const heading = await gstack(['flows', 'check', 'signup']);
    expectExit(heading, 1);
    assert.deepEqual(heading.lines, [
      'DRIFT signup changed=1 expectations=3',
      '  EXPECT HEADING= before="Newsletter" after="Newsletter (spring edition)"',
      'CHECKED flows=1 pass=0 drift=1 skip=0',
    ]);
    // A drift is the flow's failure in its history, though the run itself exited 0.
    const drifted = await gstack(['flows', 'list']);
    assert.match(drifted.stdout, /^FLOW signup .*lastFailure=\d{4}-\S+ lastCheck=drift@\d{4}-/m);
    // A later run that exits 0 is a pass of the script, not of the check (trial V4): the list
    // still says the last check drifted.
    expectExit(await gstack(['flows', 'run', 'signup', '--param', 'email=later@example.com']), 0);
    assert.match((await gstack(['flows', 'list'])).stdout, /^FLOW signup .*lastCheck=drift@/m);

    site.setPage('/signup', signupPage('Newsletter', false));
    const gone = await gstack(['flows', 'check']);
    expectExit(gone, 1);
    assert.match(gone.lines[0], /^DRIFT signup failed exit=1 error=".*Sign up.*"$/);
    // The failed run's own lines: how far it got, and its [error] line.
    assert.ok(gone.lines.includes('  | HEADING=Newsletter'), gone.stdout);
    assert.ok(gone.lines.some((l) => l.startsWith('  | [error]')), gone.stdout);
    assert.equal(last(gone), 'CHECKED flows=1 pass=0 drift=1 skip=0');

    const list = await gstack(['flows', 'list']);
    assert.match(list.stdout, /^FLOW signup .*lastFailure=\d{4}-/m);
  } finally {
    site.setPage('/signup', signupPage());
  }
});

// Red-team pass 13: page text padded up to --max-output pushed a changed line past the cut at
// save time, so it was never kept, and check passed the changed page.
test('3b. a run whose output was cut at --max-output is never saved and never passes check', async () => {
  const save = await gstack(['flows', 'save', 'signup-cut', '-f', 'signup.js', '--param', `url=${site.url}signup`, '--param', 'email=a@example.com', '--param', 'pause:number=0', '--max-output', '60']);
  expectExit(save, 1);
  assert.match(save.stderr, /Not saved: a limit cut the flow's output \(\[truncated \d+ bytes\]\)/);
  assert.ok(!existsSync(join(repo, '.gstack', 'flows', 'signup-cut.js')), 'nothing saved');

  const cut = await gstack(['flows', 'check', 'signup', '--max-output', '60']);
  expectExit(cut, 1);
  assert.match(cut.stdout, /^DRIFT signup changed=\d+ expectations=3$/m);
  assert.match(cut.stdout, /^  EXPECT OUTPUT before=null after="\[truncated \d+ bytes\]"$/m);
});

test('3c. a broken flow file is that flow\'s drift, and the other flows are still checked', async () => {
  const broken = join(repo, '.gstack', 'flows', 'broken.js');
  writeFileSync(broken, `/* gstack-flow\n * name: broken\n * param: u ${'{"anyOf":['.repeat(5000)}{}${']}'.repeat(5000)}\n */\nconsole.log("GSTACK_STEP_OK");\n`);
  try {
    const r = await gstack(['flows', 'check']);
    expectExit(r, 1);
    assert.match(r.stdout, /^DRIFT broken failed exit=2 error=".*nests deeper than 64 levels/m);
    assert.match(r.stdout, /^PASS signup expectations=3/m);
    assert.match(r.stdout, /^CHECKED flows=2 pass=1 drift=1 skip=0$/m);
  } finally {
    rmSync(broken, { force: true });
  }
});

test('3d. a flow file past the script limit is that flow\'s problem and a FIFO named like a flow is no flow: list, show and check end, reading no more than the limit', async () => {
  const big = join(repo, '.gstack', 'flows', 'huge.js');
  const fifo = join(repo, '.gstack', 'flows', 'pipe.js');
  writeFileSync(big, `console.log("GSTACK_STEP_OK");\n//${'x'.repeat(5 * 1024 * 1024)}\n`);
  execFileSync('mkfifo', [fifo]);
  try {
    const listed = await gstack(['flows', 'list']);
    expectExit(listed, 0);
    assert.match(listed.stdout, /^FLOW huge .*description=".*larger than a flow script may be/m);
    // A FIFO is not a flow file: not listed, and never opened.
    assert.doesNotMatch(listed.stdout, /^FLOW pipe /m);
    const shown = await gstack(['flows', 'show', 'huge']);
    assert.notEqual(shown.code, 0, shown.stdout);
    assert.match(shown.stderr, /larger than a flow script may be/);
    const checked = await gstack(['flows', 'check']);
    expectExit(checked, 1);
    assert.match(checked.stdout, /^DRIFT huge /m);
    assert.match(checked.stdout, /^PASS signup expectations=3/m);
    // Pass 30 (C30): `flows save` under the FIFO's name opened it to see whether it exists, and
    // hung past --timeout; it is looked at, not opened.
    const saved = await gstack(['flows', 'save', 'pipe', '-f', 'signup.js', '--timeout', '5000']);
    expectExit(saved, 2);
    assert.match(saved.stderr, /A flow "pipe" is already saved at .*pipe\.js/);
    // Pass 31 (C31): a name longer than a file name ran the whole flow, then failed with Node's
    // ENAMETOOLONG (exit 1). It is refused before anything runs.
    const long = await gstack(['flows', 'save', 'n'.repeat(253), '-f', 'signup.js']);
    expectExit(long, 2);
    assert.match(long.stderr, /A flow name is at most 100 characters \(this one has 253\)/);
    assert.doesNotMatch(long.stdout, /GSTACK_STEP_OK/);
  } finally {
    rmSync(big, { force: true });
    rmSync(fifo, { force: true });
  }
});

// Sixteenth red-team pass (A16): page text spelling `ASIDE_DIR=<an absolute path>` on a line
// of its own was left out of what flows save keeps, so a changed status passed check.
test('3e. page text that spells ASIDE_DIR= with a path is compared on Chromium', async () => {
  const page = (status: string) => `<!doctype html><title>Order</title><h1>Checkout</h1><h2>ASIDE_DIR=/orders/42/payment-${status}</h2>`;
  site.setPage('/order', page('accepted'));
  writeFileSync(join(repo, 'headings.js'), `const pg = await openTab(params.url);\nconsole.log((await pg.locator("h1, h2").allInnerTexts()).join("\\n"));\nawait closeTab(pg);\nconsole.log("GSTACK_STEP_OK");\n`);
  const flow = join(repo, '.gstack', 'flows', 'headings.js');
  try {
    expectExit(await gstack(['flows', 'save', 'headings', '-f', 'headings.js', '--param', `url=${site.origin}/order`]), 0);
    assert.match(readFileSync(flow, 'utf8'), /payment-accepted/);
    site.setPage('/order', page('DECLINED-card-refused'));
    const checked = await gstack(['flows', 'check', 'headings']);
    expectExit(checked, 1);
    assert.match(checked.stdout, /^DRIFT headings changed=1/m);
  } finally {
    rmSync(flow, { force: true });
  }
});

// Pass 42 (A42): the script prints the page's history whole; two of its lines start like labels.
// The page reverses them ("charged, then refunded" as "refunded, then charged"): each label's
// lines still match, and check passed. The order of the evidence is compared too.
test('3f. page lines that start like labels and change places drift as ORDER', async () => {
  const page = (events: string[]) => `<!doctype html><title>Order 42</title><h1>Order 42</h1><ul>${events.map((e) => `<li>${e}</li>`).join('')}</ul>`;
  site.setPage('/history', page(['CHARGED 49.00 EUR', 'REFUNDED 49.00 EUR']));
  writeFileSync(join(repo, 'history.js'), `const pg = await openTab(params.url);\nconsole.log(await pg.locator("ul").innerText());\nawait closeTab(pg);\nconsole.log("GSTACK_STEP_OK");\n`);
  const flow = join(repo, '.gstack', 'flows', 'history.js');
  try {
    expectExit(await gstack(['flows', 'save', 'history', '-f', 'history.js', '--param', `url=${site.origin}/history`]), 0);
    expectExit(await gstack(['flows', 'check', 'history']), 0);
    site.setPage('/history', page(['REFUNDED 49.00 EUR', 'CHARGED 49.00 EUR']));
    const checked = await gstack(['flows', 'check', 'history']);
    expectExit(checked, 1);
    assert.match(checked.stdout, /^DRIFT history changed=1/m);
    assert.match(checked.stdout, /^  EXPECT ORDER before="CHARGED 49\.00 EUR \| REFUNDED 49\.00 EUR" after="REFUNDED 49\.00 EUR \| CHARGED 49\.00 EUR" line=1$/m);
  } finally {
    rmSync(flow, { force: true });
  }
});

test('4. a flow saved in a repository is found from its subfolders and not from outside it', async () => {
  const list = await gstack(['flows', 'list'], subdir);
  expectExit(list, 0);
  assert.match(list.stdout, new RegExp(`^FLOW signup where=project file=${flowFile()} `, 'm'));

  const run = await gstack(['flows', 'run', 'signup', '--param', 'email=c@example.com'], subdir);
  expectExit(run, 0);
  assert.match(run.stdout, /^WELCOME=Welcome, c@example\.com$/m);

  const away = await gstack(['flows', 'run', 'signup', '--param', 'email=c@example.com'], outside);
  expectExit(away, 2);
  assert.match(away.stderr, /No saved flow "signup" in \(no repository here\) and /);
  const awayList = await gstack(['flows', 'list'], outside);
  assert.match(last(awayList), /^FLOWS=0 project=none global=/);

  // Outside a repository a flow is saved only with --global (here from stdin), and is then found from anywhere.
  const params = ['--param', `url=${site.origin}/signup`, '--param', 'email=g@example.com', '--param', 'pause:number=0'];
  const noRepo = await gstack(['flows', 'save', 'mine', '-', ...params], outside, {}, FLOW);
  expectExit(noRepo, 2);
  assert.match(noRepo.stderr, /in no git repository.*--global/);
  // `-f -` is stdin as well (pass 34, C34: it was read as a script given twice).
  const global = await gstack(['flows', 'save', 'mine', '-f', '-', '--global', ...params], outside, {}, FLOW);
  expectExit(global, 0);
  assert.match(last(global), /^FLOW_SAVED name=mine file=\S+\/flows\/mine\.js params=url,email,pause expectations=3$/);
  assert.ok(existsSync(join(home, 'flows', 'mine.js')));
  const both = await gstack(['flows', 'list'], subdir);
  assert.match(both.stdout, /^FLOW signup where=project /m);
  assert.match(both.stdout, /^FLOW mine where=global /m);
});

test('5. the saved file run with `gstack run -f FILE --params JSON` behaves as `flows run`', async () => {
  const viaFlows = await gstack(['flows', 'run', 'signup', '--param', 'email=d@example.com']);
  const viaRun = await gstack(['run', '-f', flowFile(), '--params', '{"email":"d@example.com"}'], outside);
  expectExit(viaFlows, 0);
  expectExit(viaRun, 0);
  assert.deepEqual(viaRun.lines, viaFlows.lines);

  // Its schema holds there too: the required email, and the type of pause.
  const missing = await gstack(['run', '-f', flowFile()], outside);
  expectExit(missing, 2);
  assert.match(missing.stderr, /parameter "email" is missing \(rule: required\)/);
  const typed = await gstack(['run', '-f', flowFile(), '--params', '{"email":"d@example.com","pause":"0"}'], outside);
  expectExit(typed, 2);
  assert.match(typed.stderr, /parameter "pause" must be a number/);

  // Any script gets `params`: {} without --params.
  const plain = await gstack(['run', 'console.log("P=" + JSON.stringify(params)); console.log("GSTACK_STEP_OK")', '--params', '{"n":1}'], outside);
  expectExit(plain, 0);
  assert.equal(plain.lines[0], 'P={"n":1}');

  // `--params @FILE` (trial V1): a test password out of the command line, which `ps` shows every
  // user; read like -f (relative to the caller, a regular file only).
  const paramsFile = join(repo, 'signup-params.json');
  writeFileSync(paramsFile, '{"email":"d@example.com"}', { mode: 0o600 });
  const viaFile = await gstack(['run', '-f', flowFile(), '--params', `@${paramsFile}`], outside);
  expectExit(viaFile, 0);
  assert.deepEqual(viaFile.lines, viaFlows.lines);
  const cookbookFile = join(repo, 'read-params.json');
  writeFileSync(cookbookFile, JSON.stringify({ url: site.url + '/signup', maxChars: 100 }));
  const shape = await gstack(['cookbook', 'read', '--params', `@${cookbookFile}`], outside);
  expectExit(shape, 0);
  assert.match(shape.stdout, /^URL=.*\/signup$/m);
  for (const [arg, why] of [['@', /--params @ names no file/], [`@${join(repo, 'nope.json')}`, /--params @.*nope\.json: not found\. Give the path of a JSON file/], [`@${repo}`, /: a directory\./], ['@/dev/fd/63', /process substitution\), which gstack does not read\. Pipe the JSON to --params @- \(stdin\)/]] as const) {
    const bad = await gstack(['run', 'console.log("GSTACK_STEP_OK")', '--params', arg], outside);
    expectExit(bad, 2);
    assert.match(bad.stderr, why);
  }
  // `--params @-` (trial V3): the JSON on stdin, unless the script is there itself.
  const viaStdin = await gstack(['run', '-f', flowFile(), '--params', '@-'], outside, {}, '{"email":"d@example.com"}');
  expectExit(viaStdin, 0);
  assert.deepEqual(viaStdin.lines, viaFlows.lines);
  const shapeStdin = await gstack(['cookbook', 'read', '--params', '@-'], outside, {}, JSON.stringify({ url: site.url + '/signup', maxChars: 100 }));
  expectExit(shapeStdin, 0);
  // Pass 41 (A41): --print read `@FILE` as JSON text.
  const printed = await gstack(['cookbook', 'read', '--print', '--params', `@${cookbookFile}`], outside);
  expectExit(printed, 0);
  assert.match(printed.stdout, /"maxChars": 100/);
  const both = await gstack(['run', '-', '--params', '@-'], outside, {}, 'console.log("GSTACK_STEP_OK")');
  expectExit(both, 2);
  assert.match(both.stderr, /--params @-: stdin holds the script\. Give the script with -f FILE/);
});

// Trial agent (Swagger UI): a flow saved with --out recorded the ARTIFACT lines naming its copies
// there, which no later run prints (check passes no --out), so its first check drifted.
// Pass 42 (C42): `flows save -f f.js -- NAME` said "Name the flow", and `run -- SCRIPT` "No
// script given": yargs put the words after `--` aside.
test('words after -- are positionals: flows save -f FILE -- NAME, run -- SCRIPT', async () => {
  writeFileSync(join(repo, 'dashes.js'), 'console.log("DASHES=1");\nconsole.log("GSTACK_STEP_OK");\n');
  const flow = join(repo, '.gstack', 'flows', 'dashes.js');
  try {
    // The session flag before `--` (the helper's gstack() adds it at the end).
    const dashed = (args: string[]) => runCli(args, { cwd: repo, env: cliEnv(home) });
    // --description is --describe (the header says `description:`; pass 44, B44).
    const saved = await dashed(['flows', 'save', ...SESSION, '-f', 'dashes.js', '--description', 'prints dashes', '--', 'dashes']);
    expectExit(saved, 0);
    assert.match(saved.stdout, /^FLOW_SAVED name=dashes /m);
    assert.match((await gstack(['flows', 'list'])).stdout, /^FLOW dashes .* description="prints dashes"$/m);
    assert.ok(existsSync(flow));
    const ran = await dashed(['run', ...SESSION, '--', 'console.log("GSTACK_STEP_OK")']);
    expectExit(ran, 0);
  } finally {
    rmSync(flow, { force: true });
  }
});

test('a flow saved with --out checks clean: the ARTIFACT lines of the copies are not expectations', async () => {
  const out = mkdtempSync(join(tmpdir(), 'gstack-flows-out-'));
  try {
    const script = `const pg = await openTab(${JSON.stringify(site.url + '/signup')});
console.log("HEADING=" + (await pg.textContent("h1")));
await pg.screenshot({ path: "signup.png" });
await closeTab(pg);
console.log("GSTACK_STEP_OK");
`;
    writeFileSync(join(repo, 'shot.js'), script);
    const saved = await gstack(['flows', 'save', 'shot', '-f', 'shot.js', '--out', out]);
    expectExit(saved, 0);
    assert.ok(existsSync(join(out, 'signup.png')), saved.stdout);
    const file = readFileSync(join(repo, '.gstack', 'flows', 'shot.js'), 'utf8');
    assert.doesNotMatch(file, /ARTIFACT/, file);
    const check = await gstack(['flows', 'check', 'shot']);
    expectExit(check, 0);
    assert.match(check.lines[0], /^PASS shot /);
  } finally {
    rmSync(out, { recursive: true, force: true });
    rmSync(join(repo, '.gstack', 'flows', 'shot.js'), { force: true });
  }
});

// Trial t26 (Swagger UI): `--param pass=… --required pass` wrote the user's test password into
// the flow three times (its examples, the run line, the --params line), and the page's echo of it
// became an expectation.
test('a parameter named as a secret (password) is never written in the flow, is cut from output, and check is given it', async () => {
  const pw = 'Tr1al-Pw-26-Zebra!';
  site.setPage('/try', `<!doctype html><title>Try</title><label>User <input id="u"></label> <label>Word <input id="w"></label>
<button type="button" onclick="document.getElementById('out').textContent = 'curl -u ' + u.value + ':' + w.value + ' http://api.test/'">Try it</button><pre id="out"></pre>`);
  const script = `const pg = await openTab(params.url);
await pg.getByLabel("User").fill(params.user);
await pg.getByLabel("Word").fill(params.password);
await pg.getByRole("button", { name: "Try it" }).click();
console.log("CURL=" + (await pg.textContent("#out")));
await closeTab(pg);
console.log("GSTACK_STEP_OK");
`;
  writeFileSync(join(repo, 'try.js'), script);
  const file = join(repo, '.gstack', 'flows', 'try.js');
  try {
    const saved = await gstack(['flows', 'save', 'try', '-f', 'try.js', '--param', `url=${new URL("/try", site.url).href}`, '--param', 'user=qa-bot', '--param', `password=${pw}`, '--json']);
    expectExit(saved, 0);
    assert.ok(!saved.stdout.includes(pw), `the save printed the password\n${saved.stdout}`);
    assert.ok(saved.stdout.includes('curl -u qa-bot:[redacted]'), saved.stdout);
    // Pass 36 (A36): what a cut covers is not compared; the save says so.
    assert.match(saved.stderr, /\d+ saved expectations? holds? \[redacted\]: what the cut covers is never compared/);
    const text = readFileSync(file, 'utf8');
    assert.ok(!text.includes(pw) && !text.includes('Zebra'), `the flow holds the password:\n${text}`);
    assert.match(text, /param: password \(required\) \{"type":"string","writeOnly":true\}/);
    // The usage note names a 0600 file for it, never a value on a command line (trial V8).
    assert.match(text, /gstack flows run try --param @params\.json$/m);
    assert.match(text, /\(params\.json: a file of yours, mode 0600, holding \{"password":"…"\}\)/);
    const list = await gstack(['flows', 'list']);
    assert.match(list.stdout, /PARAM password string required secret/);
    const without = await gstack(['flows', 'check', 'try']);
    expectExit(without, 1);
    assert.match(without.stdout + without.stderr, /secret parameter password, which is never saved\. Give it to check as --param password=VALUE/);
    // Checking every flow (a CI step, trial V1): a flow that cannot run without its secret is
    // skipped on a line of its own, and does not fail the check; named, it stays an error.
    const all = await gstack(['flows', 'check']);
    expectExit(all, 0);
    assert.match(all.stdout, /^SKIP try error="takes the secret parameter password, which is never saved\. Give it to check as --param password=VALUE"$/m);
    assert.match(all.stdout, /^CHECKED flows=\d+ pass=\d+ drift=0 skip=1$/m);
    const allJson = JSON.parse((await gstack(['flows', 'check', '--json'])).stdout);
    assert.deepEqual([allJson.ok, allJson.skip, allJson.flows.find((f: { name: string }) => f.name === 'try').status], [true, 1, 'skip']);
    const checked = await gstack(['flows', 'check', 'try', '--param', `password=${pw}`]);
    expectExit(checked, 0);
    assert.match(checked.lines[0], /^PASS try /);
    // Pass 31 (A31): check hands --param password to every flow it checks; a flow that does not
    // take it printed it (a page that kept the password), and so did its saved expectation.
    site.setPage('/kept', `<!doctype html><title>Kept</title><p id="note">Notice v1. Your hint: ${pw}</p>`);
    writeFileSync(join(repo, 'kept.js'), 'const pg = await openTab(params.url);\nconsole.log("NOTE=" + await pg.textContent("#note"));\nawait closeTab(pg);\nconsole.log("GSTACK_STEP_OK");\n');
    expectExit(await gstack(['flows', 'save', 'kept', '-f', 'kept.js', '--param', `url=${new URL('/kept', site.url).href}`]), 0);
    site.setPage('/kept', `<!doctype html><title>Kept</title><p id="note">Notice v2. Your hint: ${pw}</p>`);
    for (const args of [['flows', 'check', '--param', `password=${pw}`], ['flows', 'check', 'kept', '--param', `password=${pw}`, '--json']]) {
      const both = await gstack(args);
      expectExit(both, 1);
      assert.ok(!(both.stdout + both.stderr).includes('Zebra'), `check printed the password\n${both.stdout}${both.stderr}`);
      assert.match(both.stdout, /Notice v2\. Your hint: \[redacted\]/, both.stdout);
    }
    rmSync(join(repo, '.gstack', 'flows', 'kept.js'), { force: true });
    const other = await gstack(['flows', 'run', 'try', '--param', 'password=another-Secret-77']);
    expectExit(other, 0);
    assert.match(other.stdout, /CURL=curl -u qa-bot:\[redacted\] /);
    // Pass 39 (A39): off the command line, where `ps` shows it: --param @FILE and @- (stdin),
    // which `gstack mcp` uses; a file that is not a JSON object is a usage error quoting nothing.
    writeFileSync(join(repo, 'pw.json'), JSON.stringify({ password: pw }), { mode: 0o600 });
    const fromFile = await gstack(['flows', 'check', 'try', '--param', '@pw.json']);
    expectExit(fromFile, 0);
    assert.match(fromFile.lines[0], /^PASS try /);
    // flows save takes them from a file too (trial V8: only from argv, which ps shows).
    writeFileSync(join(repo, 'save.json'), JSON.stringify({ url: new URL('/try', site.url).href, user: 'file-bot', password: pw }), { mode: 0o600 });
    const savedFromFile = await gstack(['flows', 'save', 'try-file', '-f', 'try.js', '--param', '@save.json']);
    expectExit(savedFromFile, 0);
    const fileText = readFileSync(join(repo, '.gstack', 'flows', 'try-file.js'), 'utf8');
    assert.ok(!fileText.includes('Zebra'), fileText);
    assert.match(fileText, /param: password \(required\) \{"type":"string","writeOnly":true\}/);
    assert.match(fileText, /param: user \{"type":"string","default":"file-bot"\}/);
    rmSync(join(repo, '.gstack', 'flows', 'try-file.js'), { force: true });
    const fromStdin = await gstack(['flows', 'run', 'try', '--param', '@-', '--param', 'user=stdin-bot'], repo, {}, JSON.stringify({ password: 'stdin-Secret-88' }));
    expectExit(fromStdin, 0);
    assert.match(fromStdin.stdout, /CURL=curl -u stdin-bot:\[redacted\] /);
    writeFileSync(join(repo, 'bad.json'), `{"password": "${pw}",}`);
    const bad = await gstack(['flows', 'run', 'try', '--param', '@bad.json']);
    expectExit(bad, 2);
    assert.match(bad.stderr, /--param @bad\.json: not JSON\. Give a JSON object of parameters/);
    const stdinTwice = await gstack(['flows', 'run', 'try', '--param', '@-', '--param', '@-'], repo, {}, '{}');
    expectExit(stdinTwice, 2);
    assert.match(stdinTwice.stderr, /--param @- is given twice/);
    assert.ok(!bad.stderr.includes('Zebra'), bad.stderr);
    // Pass 27 (A27): no message about a bad parameter quotes its value, and a value copied into
    // another parameter would be written in the flow as that one's default.
    const twice = await gstack(['flows', 'run', 'try', '--param', `password=${pw}`, '--param', 'password=Kiwi9Mango42o']);
    expectExit(twice, 2);
    assert.ok(!(twice.stdout + twice.stderr).includes('Zebra') && !(twice.stdout + twice.stderr).includes('Kiwi9'), twice.stderr);
    const typed = await gstack(['flows', 'save', 'typed', '-f', 'try.js', '--param', `password:integer=${pw}`]);
    expectExit(typed, 2);
    assert.ok(!typed.stderr.includes('Zebra'), typed.stderr);
    const copied = await gstack(['flows', 'save', 'copied', '-f', 'try.js', '--param', `url=${new URL('/try', site.url).href}?token=${pw}`, '--param', 'user=qa-bot', '--param', `password=${pw}`]);
    expectExit(copied, 2);
    assert.match(copied.stderr, /--param url's value holds the value of the secret parameter password/);
    assert.ok(!copied.stderr.includes('Zebra'), copied.stderr);
    // Pass 28 (A28): a spelling of it in another parameter (%-encoded, upper-cased), in
    // --describe, or in the script itself (a comment) would be written in the flow too.
    for (const [args, says] of [
      [['--param', `url=${new URL('/try', site.url).href}?pw=${encodeURIComponent(pw)}`], /--param url's value holds the value of the secret parameter password/],
      [['--param', `url=${new URL('/try', site.url).href}`, '--param', `note=${pw.toUpperCase()}`], /--param note's value holds the value of the secret parameter password/],
      [['--param', `url=${new URL('/try', site.url).href}`, '--describe', `Signs in with ${pw}`], /--describe holds the value of the secret parameter password/],
    ] as const) {
      const r = await gstack(['flows', 'save', 'spelled', '-f', 'try.js', '--param', 'user=qa-bot', '--param', `password=${pw}`, ...args]);
      expectExit(r, 2);
      assert.match(r.stderr, says);
    }
    // Pass 34 (C34): the flow's name, another parameter's name and an --in path are written in
    // the file too (and the name printed by save and check). A password that is a plain name.
    const pn = 'Zq8wPlm42xQ7';
    writeFileSync(join(repo, `${pn}.json`), '{}');
    for (const [name, extra, says] of [
      [pn, [], /the flow's name holds the value of the secret parameter password/],
      ['named', ['--param', `${pn}=1`], /a parameter's name holds the value of the secret parameter password/],
      ['inpath', ['--in', `${pn}.json`], /an --in path holds the value of the secret parameter password/],
    ] as const) {
      const r = await gstack(['flows', 'save', name, '-f', 'try.js', '--param', `url=${new URL('/try', site.url).href}`, '--param', 'user=qa-bot', '--param', `password=${pn}`, ...extra]);
      expectExit(r, 2);
      assert.match(r.stderr, says);
      assert.ok(!(r.stdout + r.stderr).includes(pn), r.stdout + r.stderr);
    }
    assert.ok(!readdirSync(join(repo, '.gstack', 'flows')).some((f) => f.includes(pn)), 'no flow saved under the name');
    // Pass 41 (A41): an ordinary parameter whose value the save run typed into a password field
    // would be written in the header as its default (or, --required, as its example).
    site.setPage('/signin-a41', '<!doctype html><title>Login</title><label>Username <input id=u></label><label>Password <input type=password id=p></label><p id=r>ready</p>');
    writeFileSync(join(repo, 'signin.js'), 'const [user, pass] = params.account.split(":");\nconst pg = await openTab(params.url);\nawait pg.getByLabel("Username").fill(user);\nawait pg.getByLabel("Password").fill(pass);\nconsole.log("R=" + await pg.locator("#r").innerText());\nawait closeTab(pg);\nconsole.log("GSTACK_STEP_OK");\n');
    for (const extra of [[], ['--required', 'account']]) {
      const typed = await gstack(['flows', 'save', 'signin', '-f', 'signin.js', '--param', `url=${new URL('/signin-a41', site.url).href}`, '--param', 'account=alice:Xy9wQ3tL8nB2', ...extra]);
      expectExit(typed, 2);
      assert.match(typed.stderr, /Not saved: the value of --param account was seen in a secret field during the save run .* Give it under a secret name/);
      assert.ok(!(typed.stdout + typed.stderr).includes('Xy9wQ3tL8nB2'), typed.stdout + typed.stderr);
      assert.ok(!existsSync(join(repo, '.gstack', 'flows', 'signin.js')), 'not saved');
    }
    // A flow named so by hand: check cuts the name it prints.
    copyFileSync(file, join(repo, '.gstack', 'flows', `${pn}.js`));
    const byHand = await gstack(['flows', 'check', pn, '--param', `password=${pn}`]);
    assert.ok(!(byHand.stdout + byHand.stderr).includes(pn), byHand.stdout + byHand.stderr);
    assert.match(byHand.stdout, /^(PASS|DRIFT) \[redacted\] /m);
    rmSync(join(repo, '.gstack', 'flows', `${pn}.js`));
    rmSync(join(repo, `${pn}.json`));
    writeFileSync(join(repo, 'try-lit.js'), `// local default: ${pw}\n${script}`);
    const literal = await gstack(['flows', 'save', 'spelled', '-f', 'try-lit.js', '--param', `url=${new URL('/try', site.url).href}`, '--param', 'user=qa-bot', '--param', `password=${pw}`]);
    expectExit(literal, 2);
    assert.match(literal.stderr, /the script itself holds the value of the secret parameter password/);
    assert.ok(!existsSync(join(repo, '.gstack', 'flows', 'spelled.js')));
    const nested = await gstack(['run', '-f', 'try.js', '--params', JSON.stringify({ url: new URL('/try', site.url).href, user: 'qa-bot', password: [pw] })]);
    assert.ok(!nested.stdout.includes('Zebra'), nested.stdout);
  } finally {
    rmSync(file, { force: true });
  }
});

// Pass 27 (A27): an ad frame of another origin held "accepted" in a password field, so the
// page's "Payment accepted" printed as "Payment [redacted]", and still did once both said
// DECLINED: flows check passed a declined payment.
test('a line cut by a field of another origin\'s frame is never saved: it would read the same whatever the page says', async () => {
  const ad = new URL('/ad', site.url.replace('127.0.0.1', 'localhost')).href;
  site.setPage('/ad', '<form style="opacity:0"><input type="password" value="accepted"></form>');
  site.setPage('/shop', `<div id="s">Payment accepted</div><iframe src="${ad}"></iframe>`);
  writeFileSync(join(repo, 'shop.js'), `const pg = await openTab(params.url);
await pg.frames()[1]?.waitForLoadState();
await snapshot(pg);
const status = await pg.locator("#s").innerText();
if (!status.includes("accepted")) throw new Error("not accepted: " + status);
console.log("STATUS=" + status);
await closeTab(pg);
console.log("GSTACK_STEP_OK");
`);
  const saved = await gstack(['flows', 'save', 'shop', '-f', 'shop.js', '--param', `url=${new URL('/shop', site.url).href}`]);
  expectExit(saved, 1);
  assert.match(saved.stderr, /Not saved: a printed line holds words that a frame of another origin \(an ad, a widget\) holds in a secret field/);
  assert.ok(!existsSync(join(repo, '.gstack', 'flows', 'shop.js')));
  // Pass 28 (A28): the frame's words in a list it names secret, or in a select named password,
  // which the snapshot learns from the iframe's lines.
  for (const [name, frame] of [
    ['list', '<ul aria-label="Recovery codes"><li>declined</li><li>accepted</li></ul>'],
    ['select', '<select name="password"><option>declined</option><option>accepted</option></select>'],
  ] as const) {
    site.setPage('/ad', frame);
    const r = await gstack(['flows', 'save', 'shop', '-f', 'shop.js', '--param', `url=${new URL('/shop', site.url).href}`]);
    expectExit(r, 1);
    assert.match(r.stderr, /a frame of another origin/, `${name}: ${r.stdout}${r.stderr}`);
  }
});

test('the saved flow runs on the Aside engine (test double) with params from the prelude', async () => {
  const env = { PATH: join(ROOT, 'test', 'doubles') + delimiter + (process.env.PATH ?? ''), GSTACK_SKIP_ASIDE: undefined, ASIDE_DOUBLE_MODE: undefined };
  const r = await gstack(['flows', 'run', 'signup', '--engine', 'aside', '--param', 'email=e@example.com'], repo, env);
  expectExit(r, 0);
  assert.deepEqual(r.lines.filter((l) => !l.startsWith('ASIDE_DIR=')), ['HEADING=Newsletter', 'WELCOME=Welcome, e@example.com', `URL=${site.origin}/signup`, 'GSTACK_STEP_OK']);
  // A script that declares its own `params` still compiles there.
  const own = await gstack(['run', '--engine', 'aside', 'const params = 5; console.log("OWN=" + params); console.log("GSTACK_STEP_OK")'], repo, env);
  expectExit(own, 0);
  assert.equal(own.lines[0], 'OWN=5');
});

test('flows save, run and check are handed to the session host like run; list and show run in the caller', async () => {
  const trace = { GSTACK_TRACE: '1' };
  const run = await gstack(['flows', 'run', 'signup', '--param', 'email=h@example.com', '--json'], repo, trace);
  expectExit(run, 0);
  assert.match(run.stderr, /handed to host pid \d+/);
  const result = JSON.parse(run.stdout) as { ok: boolean; engine: string; lines: string[] };
  assert.equal(result.ok, true);
  assert.ok(result.lines.includes('WELCOME=Welcome, h@example.com'), run.stdout);

  const check = await gstack(['flows', 'check', 'signup', '--json'], repo, trace);
  expectExit(check, 0);
  assert.match(check.stderr, /handed to host pid \d+/);
  const summary = JSON.parse(check.stdout) as { ok: boolean; pass: number; drift: number };
  assert.deepEqual([summary.ok, summary.pass, summary.drift], [true, 1, 0]);

  const list = await gstack(['flows', 'list'], repo, trace);
  expectExit(list, 0);
  assert.doesNotMatch(list.stderr, /handed to host/);
});

test('a cookbook shape saved as a flow (its url from params) passes check: snapshot and text blocks compare stably', async () => {
  const printed = await gstack(['cookbook', 'read', '--url', site.url, '--print']);
  expectExit(printed, 0);
  // Saved as printed: its PARAMS take the flow's parameters (pass 43, A43: they held literals).
  writeFileSync(join(repo, 'read.js'), printed.stdout);
  const saved = await gstack(['flows', 'save', 'home-read', '-f', 'read.js', '--param', `url=${site.url}`]);
  expectExit(saved, 0);
  const file = readFileSync(join(repo, '.gstack', 'flows', 'home-read.js'), 'utf8');
  assert.match(file, /^ \* expect: "SNAPSHOT_START\\n/m);
  assert.match(file, /^ \* expect: "TEXT_START\\n/m);
  // The call's own folder is not an expectation; a file's name under it is (a page may choose it).
  assert.doesNotMatch(file, /expect: "ASIDE_DIR=/, 'the per-call folder is not an expectation');
  assert.match(file, /^ \* expect: "SCREENSHOT=<pwd>\/read\.png"$/m);
  assert.doesNotMatch(file, /artifacts\//, 'no per-call path is saved');
  const check = await gstack(['flows', 'check', 'home-read']);
  expectExit(check, 0);
  assert.match(check.lines[0], /^PASS home-read expectations=\d+ engine=chromium$/);
  const other = await gstack(['flows', 'run', 'home-read', '--param', `url=${site.url}form.html`]);
  expectExit(other, 0);
  assert.ok(other.lines.includes(`URL=${site.url}form.html`), other.stdout);
});

test('a flow saved with --in keeps its file: run and check pass it again from any folder of the repository; a gone file says what to do; --force with a plain script keeps the parameters', async () => {
  mkdirSync(join(repo, 'fixtures'), { recursive: true });
  writeFileSync(join(repo, 'fixtures', 'input.json'), '{"name":"from-file"}');
  const reads = `const { label } = params;
const data = JSON.parse(await fs.readFile(path.join(pwd, "input.json"), "utf8"));
console.log(label + "=" + data.name);
console.log("GSTACK_STEP_OK");`;
  writeFileSync(join(repo, 'reads.js'), reads);
  const saved = await gstack(['flows', 'save', 'reads', '-f', 'reads.js', '--param', 'label=NAME', '--in', 'fixtures/input.json']);
  expectExit(saved, 0);
  const text = readFileSync(join(repo, '.gstack', 'flows', 'reads.js'), 'utf8');
  assert.match(text, /^ \* in: "fixtures\/input\.json"$/m);
  // From a subfolder, with no --in: the recorded file, found from the repository's root.
  const run = await gstack(['flows', 'run', 'reads'], subdir);
  expectExit(run, 0);
  assert.ok(run.lines.includes('NAME=from-file'), run.stdout);
  const check = await gstack(['flows', 'check', 'reads'], subdir);
  expectExit(check, 0);
  assert.match(check.stdout, /^PASS reads expectations=\d+ /m);
  // --in given wins over the recorded file.
  writeFileSync(join(outside, 'input.json'), '{"name":"given"}');
  const given = await gstack(['flows', 'run', 'reads', '--in', join(outside, 'input.json')]);
  expectExit(given, 0);
  assert.ok(given.lines.includes('NAME=given'), given.stdout);
  // --force with the plain script and no --param: the replaced flow's parameters and file stay.
  const again = await gstack(['flows', 'save', 'reads', '-f', 'reads.js', '--force']);
  expectExit(again, 0);
  assert.match(again.stderr, /keeping the parameters of the flow it replaces \(label\)/);
  assert.match(readFileSync(join(repo, '.gstack', 'flows', 'reads.js'), 'utf8'), /^ \* param: label \{"type":"string","default":"NAME"\}$/m);
  // The file gone: check names it and says what to do, for that flow only.
  rmSync(join(repo, 'fixtures', 'input.json'));
  const gone = await gstack(['flows', 'check', 'reads']);
  expectExit(gone, 1);
  assert.match(gone.stdout, /^DRIFT reads failed exit=2 error=".*saved with --in fixtures\/input\.json, and .*input\.json is gone\. Put the file back, or pass --in FILE/m);
  rmSync(join(repo, '.gstack', 'flows', 'reads.js'));
});
