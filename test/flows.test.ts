// Saved flows, the pure parts (no build, no browser): the header block written and read back,
// `--param` declarations into a JSON schema and a run's values checked against it, the
// expectations a run's lines give and how two runs' evidence differ, and the `params` prelude
// the Aside engine gets. The end-to-end behaviour is test/flows.e2e.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import vm from 'node:vm';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { formatHeader, parseFlowFile, FlowHeaderError, type FlowHeader } from '../driver/flows/header.js';
import { declareParams, givenParams, paramsForScript, resolveFlowParams, savedParams } from '../driver/flows/params.js';
import { compareEvidence, evidenceOf, withoutOutCopies } from '../driver/flows/expect.js';
import { recordInputs, savedInputs } from '../driver/cli/flows.js';
import { CommandError } from '../driver/command-errors.js';
import { withParamsPrelude } from '../driver/engines/aside.js';
import { GstackError } from '../driver/errors.js';
import { routeInvocation } from '../driver/hosts/route.js';

const header = (over: Partial<FlowHeader> = {}): FlowHeader => ({
  name: 'signup',
  description: 'Signs up',
  params: { url: { type: 'string', default: 'http://127.0.0.1:8080/' }, email: { type: 'string', examples: ['a@example.com'] } },
  required: ['email'],
  created: '2026-12-01T11:00:00.000Z',
  gstack: '0.1.0',
  engine: 'chromium',
  inputs: [],
  expect: ['HEADING=Welcome'],
  ...over,
});

test('a header is written as a block comment and read back whole, whatever text its values hold', () => {
  const h = header({
    description: 'ends a comment */ and\nspans lines',
    params: { q: { type: 'string', default: 'a */ b' }, n: { type: 'integer', default: 3 } },
    required: [],
    inputs: ['fixtures/a */ b.json', 'in.json'],
    expect: ['TITLE=x */ y', 'TEXT_START\nline one\n"quoted" \u2028 line\nTEXT_END'],
  });
  const script = 'console.log("GSTACK_STEP_OK");\n';
  const file = formatHeader(h, '.gstack/flows/signup.js') + script;
  // Still one script: the header is a comment a parser skips.
  assert.doesNotThrow(() => new vm.Script(`(async () => {\n${file}\n})`));
  const back = parseFlowFile(file);
  assert.equal(back.script, script);
  assert.deepEqual(back.header, { ...h, description: 'ends a comment * / and spans lines' });
  assert.match(file, /^ \* {3}gstack flows run signup$/m, 'the usage note names the flow');
});

test('the usage note shows the parameters a run must give', () => {
  const file = formatHeader(header(), '.gstack/flows/signup.js');
  assert.match(file, /^ \* {3}gstack flows run signup --param email=a@example\.com$/m);
  assert.match(file, /^ \* or: gstack run -f \.gstack\/flows\/signup\.js --params '\{"email":"a@example\.com"\}'$/m);
  // A secret parameter goes in a file, never on the command line, and is never written here
  // (trial V8: the line read --params '{}', which fails for the missing password).
  const secret = formatHeader(header({ params: { email: { type: 'string', examples: ['a@example.com'] }, password: { type: 'string', writeOnly: true } }, required: ['email', 'password'] }), '.gstack/flows/signup.js');
  assert.match(secret, /^ \* {3}gstack flows run signup --param @params\.json$/m);
  assert.match(secret, /^ \* or: gstack run -f \.gstack\/flows\/signup\.js --params @params\.json$/m);
  assert.match(secret, /^ \* \(params\.json: a file of yours, mode 0600, holding \{"email":"a@example\.com","password":"…"\}\)$/m);
});

test('a file without a header is a plain script; a broken header says what is wrong', () => {
  assert.deepEqual(parseFlowFile('console.log(1)'), { script: 'console.log(1)' });
  assert.throws(() => parseFlowFile('/* gstack-flow\n * name: x\n'), (e: Error) => e instanceof FlowHeaderError && /never ends/.test(e.message));
  assert.throws(() => parseFlowFile('/* gstack-flow\n * param: x {nope}\n */\n'), (e: Error) => e instanceof FlowHeaderError && /param x is not valid JSON/.test(e.message));
  assert.throws(() => parseFlowFile('/* gstack-flow\n * param: x-y {}\n */\n'), (e: Error) => e instanceof FlowHeaderError && /param: NAME/.test(e.message));
  // Fourteenth red-team pass: a 20,000-deep schema overflowed the stack when ajv compiled it.
  const deep = '{"anyOf":['.repeat(20_000) + '{}' + ']}'.repeat(20_000);
  assert.throws(() => parseFlowFile(`/* gstack-flow\n * param: u ${deep}\n */\n`), (e: Error) => e instanceof FlowHeaderError && /param u nests deeper than 64 levels/.test(e.message));
  // Eighteenth pass (C18): a schema that refers to itself overflowed the stack (exit 1).
  for (const schema of ['{"$ref":"#/properties/u"}', '{"not":{"\\u0024ref":"#"}}', '{"$ref":"file:///etc/passwd"}']) {
    assert.throws(() => parseFlowFile(`/* gstack-flow\n * param: u ${schema}\n */\n`), (e: Error) => e instanceof FlowHeaderError && /param u uses "\$ref"/.test(e.message), schema);
  }
});

test('--param declarations become typed defaults; --required keeps the value for the save run and check only', () => {
  const d = declareParams(['url=http://x/?a=b=c', 'count:number=2.5', 'n:integer=3', 'on:boolean=false', 'email=a@example.com'], ['email']);
  assert.deepEqual(d.params, {
    url: { type: 'string', default: 'http://x/?a=b=c' },
    count: { type: 'number', default: 2.5 },
    n: { type: 'integer', default: 3 },
    on: { type: 'boolean', default: false },
    email: { type: 'string', examples: ['a@example.com'] },
  });
  assert.deepEqual(d.values, { url: 'http://x/?a=b=c', count: 2.5, n: 3, on: false, email: 'a@example.com' });
  assert.deepEqual(savedParams(d), d.values);
  const bad = (decls: string[], req: string[], re: RegExp) =>
    assert.throws(() => declareParams(decls, req), (e: Error) => e instanceof GstackError && e.exitCode === 2 && re.test(e.message), `${decls} ${req}`);
  bad(['count:number=many'], [], /--param count: its value is not a number/);
  bad(['n:integer=1.5'], [], /--param n: its value is not an integer/);
  bad(['x:date=1'], [], /type "date" is not one of string, number, integer, boolean/);
  bad(['x'], [], /does not read name=value/);
  bad(['a=1', 'a=2'], [], /given twice/);
  bad(['a=1'], ['b'], /--required b: declare it with --param b=VALUE/);
});

test('a run\'s parameters: CLI words read as the schema\'s types, defaults filled, each bad one named with its rule', () => {
  const h = { name: 'signup', params: { email: { type: 'string' as const, examples: ['a@x'] }, pause: { type: 'number' as const, default: 0 } }, required: ['email'] };
  assert.deepEqual(resolveFlowParams(h, givenParams(['email=b@x', 'pause=250']), { coerce: true }), { email: 'b@x', pause: 250 });
  assert.deepEqual(resolveFlowParams(h, givenParams(['email=b@x']), { coerce: true }), { email: 'b@x', pause: 0 });
  const fails = (given: Record<string, unknown>, coerce: boolean, re: RegExp) =>
    assert.throws(() => resolveFlowParams(h, given, { coerce }), (e: Error) => e instanceof GstackError && e.exitCode === 2 && re.test(e.message), JSON.stringify(given));
  fails({}, true, /^Invalid parameters for flow "signup": parameter "email" is missing \(rule: required\)\. It takes: email string required; pause number default=0\./);
  fails({ email: 'b@x', pause: 'soon' }, true, /parameter "pause" must be a number, got a string \(rule: type number\)/);
  fails({ email: 'b@x', pause: '5' }, false, /parameter "pause" must be a number, got a string/);
  fails({ email: 'b@x', emial: 'c' }, true, /parameter "emial" is not one of the flow's \(rule: additionalProperties false\)/);
  // A red-team pass: `--param __proto__=x` set the prototype, vanished and the run went on.
  fails(givenParams(['email=b@x', '__proto__=x']), true, /parameter "__proto__" is not one of the flow's/);
  // Pass 34 (C35): an integer past 2^53 arrived rounded (1.2345678901234568e+29).
  const ids = { name: 'card', params: { pin: { type: 'integer' as const, default: 1 } }, required: [] };
  assert.throws(() => resolveFlowParams(ids, givenParams(['pin=123456789012345678901234567890']), { coerce: true }), /parameter "pin" is an integer past 9007199254740991, which JavaScript cannot hold exactly \(rule: safe integer\)\. .*--param pin:string=…/);
  assert.throws(() => resolveFlowParams(ids, { pin: 2 ** 60 }, { coerce: false }), /rule: safe integer/);
  assert.deepEqual(resolveFlowParams(ids, givenParams(['pin=9007199254740991']), { coerce: true }), { pin: 9007199254740991 });
});

test('gstack run --params: a flow file is checked against its schema, any other script gets the object as given', () => {
  const flow = formatHeader(header(), 'f.js') + 'console.log(params.email);\n';
  assert.deepEqual(paramsForScript(flow, '{"email":"b@x"}'), { url: 'http://127.0.0.1:8080/', email: 'b@x' });
  assert.throws(() => paramsForScript(flow, undefined), /parameter "email" is missing/);
  assert.deepEqual(paramsForScript('console.log(1)', '{"any":[1]}'), { any: [1] });
  assert.equal(paramsForScript('console.log(1)', undefined), undefined);
  assert.throws(() => paramsForScript('x', '[1]'), /--params must be a JSON object/);
  assert.throws(() => paramsForScript('x', '{nope'), /--params is not valid JSON .*, or read a file with --params @params\.json\.$/);
  // A file's name without its @ (trial V7).
  assert.throws(() => paramsForScript('x', 'p.json'), /^UsageError: --params p\.json is a file's name, read as JSON text: give --params @p\.json to read the file\.$/);
});

test('expectations: labelled lines and whole blocks, without the lines that change on every run', () => {
  const pwd = '/home/u/.gstack/sessions/s/artifacts/20261201-110000-abc';
  const lines = [
    'URL=http://127.0.0.1:8080/',
    'just a note',
    'HEADING=Welcome',
    'STEP 1 click "Sign up" ref=e7',
    'TEXT_START',
    'Welcome',
    'a@example.com',
    'TEXT_END',
    `SCREENSHOT=${pwd}/a.png`,
    `ASIDE_DIR=${pwd}`,
    'NAV={"ttfb":3}',
    `SHOT=${pwd}/b.png`,
    'GSTACK_STEP_OK',
  ];
  assert.deepEqual(evidenceOf(lines, pwd), ['URL=http://127.0.0.1:8080/\njust a note', 'HEADING=Welcome', 'STEP 1 click "Sign up" ref=e7', 'TEXT_START\nWelcome\na@example.com\nTEXT_END', 'SCREENSHOT=<pwd>/a.png', 'NAV={"ttfb":0}', 'SHOT=<pwd>/b.png']);
});

// Pass 42 (A42): a page's history printed whole, two of its lines starting like labels; the
// page reversed them ("charged, then refunded" became "refunded, then charged") and `flows
// check` passed, since each label's lines matched. The order of the evidence is compared too.
test('expectations: lines of different labels that change places drift as ORDER', () => {
  const run = (history: string[]) => ['URL=http://shop/orders/42', 'Order 42', ...history, 'TOTAL=0.00 EUR', 'GSTACK_STEP_OK'];
  const saved = evidenceOf(run(['CHARGED 49.00 EUR', 'REFUNDED 49.00 EUR']));
  assert.deepEqual(compareEvidence(saved, evidenceOf(run(['CHARGED 49.00 EUR', 'REFUNDED 49.00 EUR']))), []);
  const drift = compareEvidence(saved, evidenceOf(run(['REFUNDED 49.00 EUR', 'CHARGED 49.00 EUR'])));
  assert.equal(drift.length, 1, JSON.stringify(drift));
  assert.equal(drift[0].label, 'ORDER');
  assert.equal(drift[0].before, 'CHARGED 49.00 EUR | REFUNDED 49.00 EUR | TOTAL=0.00 EUR');
  assert.equal(drift[0].after, 'REFUNDED 49.00 EUR | CHARGED 49.00 EUR | TOTAL=0.00 EUR');
  assert.equal(drift[0].line, 2, 'the evidence entry (1-based) where the orders part');
  // A changed value is reported by its label alone, not again as an order.
  const changed = compareEvidence(saved, evidenceOf(run(['REFUNDED 49.00 EUR', 'CHARGED 99.00 EUR'])));
  assert.ok(changed.every((d) => d.label !== 'ORDER'), JSON.stringify(changed));
});

// Ninth red-team pass: page text that spells a block's end (`TEXT_END`) pushed the lines after
// it out of the block, where no expectation looked; a changed total passed `flows check`.
test('expectations: every printed line is compared, also what page text pushed out of a block or under a volatile label', () => {
  const run = (total: string) => ['URL=http://x/', 'TEXT_START', 'Order status: confirmed', 'TEXT_END', total, 'TEXT_END', 'SCREENSHOT=/tmp/a.png', 'after the shot ' + total, 'GSTACK_STEP_OK'];
  const saved = evidenceOf(run('Total due: 10 EUR'));
  assert.ok(compareEvidence(saved, saved).length === 0);
  const drift = compareEvidence(saved, evidenceOf(run('Total due: 9999 EUR (payment FAILED)')));
  assert.equal(drift.length, 2, JSON.stringify(drift));
  assert.ok(drift.every((d) => d.after?.includes('9999')), JSON.stringify(drift));
  assert.deepEqual(evidenceOf(['page text first', 'URL=http://x/']), ['OUTPUT\npage text first', 'URL=http://x/']);
  // Eleventh pass: page text that spells a volatile label (`NAV=`) is compared like any text.
  const nav = (r: string) => evidenceOf(['RESULT=Saved', `NAV=${r}`, 'NAV={"ttfb":12}', 'SCREENSHOT=/tmp/x.png']);
  assert.equal(compareEvidence(nav('Total: 10 items'), nav('ERROR payment failed')).length, 1);
  assert.deepEqual(compareEvidence(evidenceOf(['NAV={"status":200,"ttfb":12,"load":80}']), evidenceOf(['NAV={"status":200,"ttfb":40,"load":95}'])), []);
  // Twelfth pass: page text that spells a volatile label with a value of its shape.
  const spelled = (l: string) => evidenceOf(['URL=http://x/', l], '/run/pwd');
  assert.equal(compareEvidence(spelled('SCREENSHOT=/orders/42/paid'), spelled('SCREENSHOT=/orders/42/PAYMENT-DECLINED')).length, 1);
  assert.equal(compareEvidence(spelled('NAV={"declined":0,"charged":4999}'), spelled('NAV={"declined":1,"charged":0}')).length, 1);
  // Fourteenth pass: a file name under pwd the page chose (a status read into it) is compared;
  // only the folder, which changes on every run, is not.
  assert.equal(compareEvidence(spelled('SCREENSHOT=/run/pwd/Payment-accepted.png'), spelled('SCREENSHOT=/run/pwd/Payment-DECLINED.png')).length, 1);
  assert.deepEqual(compareEvidence(evidenceOf(['SCREENSHOT=/run/one/a.png'], '/run/one'), evidenceOf(['SCREENSHOT=/run/two/a.png'], '/run/two')), []);
  assert.deepEqual(compareEvidence(evidenceOf(['ASIDE_DIR=/run/one', 'X=1'], '/run/one'), evidenceOf(['ASIDE_DIR=/run/two', 'X=1'], '/run/two')), []);
  assert.deepEqual(compareEvidence(evidenceOf(['ASIDE_DIR=/aside/one', 'X=1']), evidenceOf(['ASIDE_DIR=/aside/two', 'X=1'])), []);
  // Sixteenth pass (A16): page text spelling the label after the script's own ASIDE_DIR= line
  // (`ASIDE_DIR=/orders/42/payment-DECLINED`) is compared whole, on Chromium (the first line is
  // then page text too) and after Aside's own line.
  const pageSpelt = (status: string) => ['Checkout', `ASIDE_DIR=/orders/42/payment-${status}`, 'GSTACK_STEP_OK'];
  assert.equal(compareEvidence(evidenceOf(['ASIDE_DIR=/aside/one', ...pageSpelt('accepted')]), evidenceOf(['ASIDE_DIR=/aside/two', ...pageSpelt('DECLINED')])).length, 1);
  assert.equal(compareEvidence(evidenceOf(pageSpelt('accepted'), '/run/one'), evidenceOf(pageSpelt('DECLINED'), '/run/two')).length, 1);
  assert.deepEqual(
    compareEvidence(spelled('RESOURCES=[{"url":"/a.js","status":200,"duration":5},{"url":"/b.css","status":200,"duration":9}]'), spelled('RESOURCES=[{"url":"/b.css","status":200,"duration":3},{"url":"/a.js","status":200,"duration":7}]')),
    [],
  );
});

test('drift: each changed, missing or new expectation with before and after; a block names its first differing line', () => {
  const saved = ['URL=http://x/', 'HEADING=Welcome', 'STEP 1 click "Save"', 'STEP 2 fill "Email"', 'TEXT_START\nA\nB\nTEXT_END'];
  assert.deepEqual(compareEvidence(saved, saved), []);
  const now = ['URL=http://x/', 'HEADING=Welcome back', 'STEP 1 click "Save"', 'TEXT_START\nA\nC\nTEXT_END', 'EXTRA=1'];
  assert.deepEqual(compareEvidence(saved, now), [
    { label: 'HEADING=', before: 'Welcome', after: 'Welcome back' },
    { label: 'STEP', before: '2 fill "Email"', after: null },
    { label: 'TEXT_START', before: 'B', after: 'C', line: 2 },
    { label: 'EXTRA=', before: null, after: '1' },
  ]);
});

test('the Aside prelude declares params on the script\'s first line, and a script\'s own params still compiles', async () => {
  const run = async (script: string) => {
    const lines: string[] = [];
    await new vm.Script(`(async () => {\n${script}\n})()`).runInNewContext({ console: { log: (...a: unknown[]) => lines.push(a.map(String).join(' ')) } });
    return lines;
  };
  const script = 'const { email } = params;\nconsole.log(email, Object.isFrozen(params), new Error().stack.split("\\n")[1].includes(":3:"));';
  const withPrelude = withParamsPrelude(script, { email: 'a@x' });
  assert.equal(withPrelude.split('\n').length, script.split('\n').length + 1, 'the prelude adds no line before the script');
  assert.equal((await run(withPrelude)).join(' '), 'a@x true true');
  assert.equal(withParamsPrelude('console.log(1)', undefined), 'console.log(1)', 'a script that does not use params goes unchanged');
  assert.deepEqual(await run(withParamsPrelude('console.log(JSON.stringify(params))', undefined)), ['{}']);
  assert.deepEqual(await run(withParamsPrelude('const params = 5; console.log(String(params))', { a: 1 })), ['5']);
  // Parameter text cannot break out of the literal.
  assert.deepEqual(await run(withParamsPrelude('console.log(params.x)', { x: '"); throw 1; ("\u2028*/' })), ['"); throw 1; ("\u2028*/']);
});

test('flows save, run and check go to the session host as run does; list and show, and Aside or --ephemeral calls, do not', () => {
  const env = { GSTACK_SKIP_ASIDE: '1', GSTACK_HOME: '/nonexistent-gstack-home', GSTACK_SESSION_KEY: 'k' };
  for (const action of ['save', 'run', 'check']) assert.equal(routeInvocation(['flows', action, 'signup'], env, '/')?.target.kind, 'session', action);
  for (const action of ['list', 'show']) assert.equal(routeInvocation(['flows', action, 'signup'], env, '/'), undefined, action);
  assert.equal(routeInvocation(['flows', 'run', 'signup', '--ephemeral'], env, '/'), undefined);
  assert.equal(routeInvocation(['flows', 'run', 'signup', '--engine', 'aside'], env, '/'), undefined);
});

// Eleventh red-team pass: `flows save --param __proto__=x` said the name was given twice.
test('a parameter named like a built-in of every object is refused, saying so', async () => {
  const { declareParams } = await import('../driver/flows/params.js');
  for (const d of ['__proto__=x', 'constructor=y', 'toString=z']) assert.throws(() => declareParams([d], []), /a name every JavaScript object has/);
});

// Sixteenth red-team pass (A17): padding past read's maxChars, a snapshot's or diff's size limit
// or links' maxLinks hid a changed result, and the cut line read the same in both runs.
test('a run cut by a snapshot, diff, read or links limit counts as cut, like one cut at --max-output', async () => {
  const { truncationOf } = await import('../driver/flows/expect.js');
  for (const line of ['[truncated 12 bytes]', '[snapshot truncated: showing 1037 of 6003 lines — narrow it with { interactive: true }]', '[diff truncated: showing 461 of 1417 lines — narrow it]', '[text cut at 20000 of 21627 characters]', '[links cut at 100 of 101]']) {
    assert.equal(truncationOf(['URL=http://x/', line, 'GSTACK_STEP_OK']), line);
  }
  assert.equal(truncationOf(['URL=http://x/', 'text cut at 5', 'GSTACK_STEP_OK']), undefined);
});

// Twenty-sixth red-team pass (A26): a line withheld whole (escapes nested past the decoder)
// printed the same in a run whose page said "accepted" and in one that said "DECLINED".
test('a run with a line withheld for its escapes counts as cut: never saved, never a pass', async () => {
  const { truncationOf } = await import('../driver/flows/expect.js');
  const { cutSeenSecrets, forgetSecrets, learnSecrets } = await import('../driver/runtime/output.js');
  forgetSecrets();
  learnSecrets(['c5f1a9e0b7d2']);
  let deep = '%41';
  for (let i = 0; i < 40; i++) deep = deep.replace(/%/g, '%25');
  const line = cutSeenSecrets('STATUS=Payment accepted' + deep);
  forgetSecrets();
  assert.equal(truncationOf(['URL=http://x/', line, 'GSTACK_STEP_OK']), line);
});

test('--in files: recorded relative to the repository, outside ones not; passed again only inside it and only when there', () => {
  const root = '/repo';
  assert.deepEqual(recordInputs(['in.json', '../repo/data/x.json', '/tmp/secret.json', '../other/y.json'], '/repo', root), {
    recorded: ['in.json', 'data/x.json'],
    outside: ['/tmp/secret.json', '../other/y.json'],
    hidden: [],
  });
  assert.deepEqual(recordInputs(['in.json'], '/home/u', undefined), { recorded: ['/home/u/in.json'], outside: [], hidden: [] }, 'a global flow keeps absolute paths');
  const dir = mkdtempSync(join(tmpdir(), 'gstack-flow-in-'));
  writeFileSync(join(dir, 'in.json'), '{}');
  const dirs = { project: join(dir, '.gstack', 'flows'), global: '/home/u/.gstack/flows' };
  const loc = { name: 'f', where: 'project' as const, file: join(dir, '.gstack/flows/f.js') };
  assert.deepEqual(savedInputs({ inputs: [] }, loc, header({ inputs: ['in.json'] }), dirs), [join(dir, 'in.json')]);
  assert.equal(savedInputs({ inputs: ['mine.json'] }, loc, header({ inputs: ['in.json'] }), dirs), undefined, '--in given wins');
  assert.equal(savedInputs({ inputs: [] }, loc, header(), dirs), undefined);
  // A header from someone else's commit cannot reach a file outside the repository.
  for (const bad of ['../../etc/passwd', '/etc/passwd', '.']) {
    assert.throws(() => savedInputs({ inputs: [] }, loc, header({ inputs: [bad] }), dirs), (e: unknown) => e instanceof CommandError && e.code === 'FLOW_INVALID' && /not a file inside the repository/.test(e.message), bad);
  }
  assert.throws(() => savedInputs({ inputs: [] }, loc, header({ inputs: ['gone.json'] }), dirs), /saved with --in gone\.json, and .*gone\.json is gone\. Put the file back, or pass --in FILE/);
  // Pass 21 (C21): a link in the repository to a file outside it, or a linked folder, is outside.
  const secret = join(mkdtempSync(join(tmpdir(), 'gstack-flow-secret-')), 'id_key');
  writeFileSync(secret, 'KEY');
  symlinkSync(secret, join(dir, 'fixture.json'));
  symlinkSync(dirname(secret), join(dir, 'sub'));
  assert.deepEqual(recordInputs(['fixture.json', 'sub/id_key', 'in.json'], dir, dir), { recorded: ['in.json'], outside: ['fixture.json', 'sub/id_key'], hidden: [] });
  // Pass 34 (C35): a hidden file of the repository (`.env`, `.git/config`, or a link to one) is
  // never recorded, and a header naming one is refused.
  mkdirSync(join(dir, '.git'), { recursive: true });
  writeFileSync(join(dir, '.git', 'config'), '[core]');
  writeFileSync(join(dir, '.env'), 'TOKEN=x');
  symlinkSync(join(dir, '.env'), join(dir, 'env.json'));
  assert.deepEqual(recordInputs(['.env', '.git/config', 'env.json', 'in.json'], dir, dir), { recorded: ['in.json'], outside: [], hidden: ['.env', '.git/config', 'env.json'] });
  for (const hidden of ['.env', '.git/config', 'env.json']) {
    assert.throws(() => savedInputs({ inputs: [] }, loc, header({ inputs: [hidden] }), dirs), /names a hidden file of the repository/, hidden);
  }
  // Pass 41 (C41): a global flow recorded `.env` by its absolute path and handed it to every run.
  assert.deepEqual(recordInputs(['.env', '.git/config', 'env.json', 'in.json'], dir, undefined), { recorded: [join(dir, 'in.json')], outside: [], hidden: ['.env', '.git/config', 'env.json'] });
  const globalLoc = { ...loc, where: 'global' as const };
  assert.throws(() => savedInputs({ inputs: [] }, globalLoc, header({ inputs: [join(dir, '.env')] }), dirs), /names a hidden file \(a name starting with "\." on its path\)/);
  for (const linked of ['fixture.json', 'sub/id_key']) {
    assert.throws(() => savedInputs({ inputs: [] }, loc, header({ inputs: [linked] }), dirs), /leads outside the repository .* through a link/, linked);
  }
  rmSync(dirname(secret), { recursive: true, force: true });
  rmSync(dir, { recursive: true, force: true });
});

// Red-team pass 23 (B23): a page-given --param value with Unicode tags, a zero-width space and an
// RLO was written raw into the header of a file meant to be reviewed and committed; `cat` and
// `git diff` showed the person nothing of it.
test('the header writes characters a reader of the file would not see as \\u escapes, and reads them back', () => {
  const v = 'http://x/#ok\u{E0074}\u{E0068}\u{E0065}\u200B\u202Efdp.exe\u0085\u2028';
  const h: FlowHeader = { name: 'f', description: '', params: { url: { type: 'string', default: v, examples: [v] } }, required: ['url'], created: 'c', gstack: 'g', engine: 'e', inputs: [], expect: [`URL=${v}`] };
  const text = formatHeader(h, 'f.js');
  assert.doesNotMatch(text, /[\u200B\u202E\u0085\u2028]|[\u{E0000}-\u{E007F}]/u, text);
  assert.match(text, /\\u202efdp\.exe/);
  const back = parseFlowFile(text + 'console.log(1);\n').header!;
  assert.equal(back.params.url.default, v);
  assert.deepEqual(back.expect, [`URL=${v}`]);
});

test('withoutOutCopies leaves out only the closing ARTIFACT lines naming the run\'s own copies', () => {
  const copies = ['/o/a.png', '/o/b.png'];
  const lines = ['ARTIFACT /o/a.png', 'HEADING=x', 'ARTIFACT /o/zz.png', 'ARTIFACT /o/a.png', 'ARTIFACT /o/b.png', 'GSTACK_STEP_OK'];
  assert.deepEqual(withoutOutCopies(lines, copies), ['ARTIFACT /o/a.png', 'HEADING=x', 'ARTIFACT /o/zz.png', 'GSTACK_STEP_OK']);
  assert.deepEqual(withoutOutCopies(['A=1', 'GSTACK_STEP_OK'], copies), ['A=1', 'GSTACK_STEP_OK']);
});

// Pass 29 (A29): Chromium cut a padded dialog message at 10,240 characters, so a changed end
// read the same in both runs of flows check.
test('a DIALOG line the browser cut counts as cut: never saved, never a pass', async () => {
  const { truncationOf } = await import('../driver/flows/expect.js');
  const line = `DIALOG alert "${'x'.repeat(20)}" [the browser cut this message at 10240 characters]`;
  assert.equal(truncationOf(['URL=http://x/', line, 'GSTACK_STEP_OK']), line);
  assert.equal(truncationOf(['DIALOG alert "the browser cut this message at 10240 characters"']), undefined, 'page text saying so is not the mark');
});
