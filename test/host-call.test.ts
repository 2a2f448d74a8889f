// The call a session host is handed (driver/hosts/route.ts, driver/hosts/call.ts,
// driver/hosts/call-target.ts), without a build or a browser: the client's quick reading of a command
// line is the CLI's yargs reading of it, a line it does not read is left to yargs, the target
// decides host and profile once, and the host's edge refuses a call that is not well formed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { readHostCall, routeInvocation } from '../driver/hosts/route.js';
import { parseResolvedCall, type HostCall } from '../driver/hosts/call.js';
import { resolveCallTarget } from '../driver/hosts/call-target.js';
import { parseClientMessage } from '../driver/hosts/wire.js';
import { runCli } from '../bin/cli.js';
import type { CliIo } from '../driver/cli/process-io.js';

const HOME = '/nonexistent-gstack-home';
const ENV = { GSTACK_SKIP_ASIDE: '1', GSTACK_HOME: HOME, GSTACK_SESSION_KEY: 'k', PATH: '/nonexistent' };

/** What the CLI's yargs layer makes of a command line: the call it dispatches, or its error. */
async function viaYargs(argv: string[]): Promise<{ call?: HostCall; code: number; err: string }> {
  let call: HostCall | undefined;
  let err = '';
  const io: CliIo = {
    argv,
    exitCode: 0,
    inHost: true,
    env: ENV,
    cwd: '/',
    signal: new AbortController().signal,
    out: () => undefined,
    err: (t) => void (err += t),
    readStdin: async () => '',
    dispatch: async (c) => void (call = c),
  };
  const code = await runCli(io);
  return { call, code, err };
}

// Plain lines: the quick reader reads each, and reads it as yargs does (flags, defaults, lists,
// positionals, `-` for stdin).
const PLAIN: string[][] = [
  ['run', 'console.log(1)'],
  ['run', '-'],
  ['run', '-f', 'flow.js'],
  ['run', '--file=flow.js', '--json'],
  ['run', 'x', '--timeout', '5000', '--lock-timeout=100', '--max-output', '999'],
  ['run', 'x', '--no-evidence', '--session', 'qa one', '--out', 'dir'],
  ['run', 'x', '--engine', 'chromium', '--profile', 'p', '--headed', '--allow-file-urls'],
  ['run', '-f', 'flow.js', '--in', 'a.png', 'b.pdf'],
  ['run', '--in', 'a.png', '--in', 'b.pdf', '-f', 'flow.js'],
  ['run', 'x', '--params', '{"a":1}', '--json=false'],
  ['run', 'x', '--ephemeral'],
  ['run', 'x', '--connect', 'ws://127.0.0.1:1/'],
  ['cookbook', 'read', '--url', 'http://127.0.0.1/', '--params', '{"selector":"h1"}'],
  ['cookbook', 'form', '--url=http://127.0.0.1/', '--json', '--session=s'],
  ['flows', 'save', 'signup', '-f', 'flow.js', '--param', 'url=http://x/', '--param', 'n:number=3', '--required', 'email', '--describe', 'Signs up'],
  ['flows', 'save', 'signup', '-'],
  ['flows', 'run', 'signup', '--param', 'email=a@b.c', '--global', '--force'],
  ['flows', 'check'],
  ['flows', 'check', 'a', 'b', '--json'],
];

test('the quick reader reads every plain command line as the CLI\'s yargs layer does', async () => {
  for (const argv of PLAIN) {
    const quick = readHostCall(argv);
    assert.ok(quick, `read quickly: ${argv.join(' ')}`);
    const slow = await viaYargs(argv);
    assert.equal(slow.err, '', `yargs accepts: ${argv.join(' ')}`);
    assert.deepEqual(quick, slow.call, argv.join(' '));
  }
});

// Lines the quick reader leaves to yargs: help, mistakes yargs words itself, and forms whose
// yargs reading is its own (repeated flags, `--`, a following true/false, camelCase, groups).
const LEFT_TO_YARGS: string[][] = [
  ['run', 'x', '--help'],
  ['run', 'x', '--bogus'],
  ['run', 'x', 'y'],
  ['run', 'x', '--timeout', 'soon'],
  ['run', 'x', '--timeout'],
  ['run', 'x', '--timeout', '1', '--timeout', '2'],
  ['run', 'x', '--engine', 'firefox'],
  ['run', 'x', '--json', 'false'],
  ['run', 'x', '--lockTimeout', '5'],
  ['run', '--', 'x'],
  ['run', '-f', '-'],
  ['run', 'x', '--session='],
  ['run', 'x', '--no-timeout'],
  ['cookbook', 'list'],
  ['cookbook', 'read', '--url', 'http://x/', '--print'],
  ['cookbook', 'nonsense'],
  ['flows', 'list'],
  ['flows', 'show', 'signup'],
  ['probe'],
  ['sessions', 'list'],
];

test('a line the quick reader does not read is left to yargs, which reads it or says what is wrong', async () => {
  for (const argv of LEFT_TO_YARGS) assert.equal(readHostCall(argv), undefined, argv.join(' '));
  // yargs still words the mistakes (exit 2), as before the quick reader.
  for (const argv of [['run', 'x', '--bogus'], ['run', 'x', 'y'], ['run', 'x', '--engine', 'firefox'], ['cookbook', 'nonsense']]) {
    const slow = await viaYargs(argv);
    assert.equal(slow.code, 2, argv.join(' '));
    assert.match(slow.err, /^\[error\] /, argv.join(' '));
    assert.equal(slow.call, undefined);
  }
  // A plain form yargs reads (camelCase) still becomes the same call the host is handed.
  const camel = await viaYargs(['run', 'x', '--lockTimeout', '5']);
  assert.equal(camel.call?.flags.lockTimeout, 5);
});

test('one target per call: the session host of the local Chromium profile, or this process', () => {
  const route = (argv: string[], env: NodeJS.ProcessEnv = ENV) => routeInvocation(argv, env, '/');
  const session = route(['run', 'x']);
  assert.ok(session && 'call' in session, 'a plain run goes to the session host');
  assert.equal(session.target.kind, 'session');
  assert.equal(session.target.profileDir, join(HOME, 'profiles', session.call.target.key.slug));
  assert.equal(session.call.target.profileDir, session.target.profileDir, 'the host\'s profile is the call\'s');
  assert.deepEqual(session.call.target.host, session.target);
  assert.equal(session.call.target.engine !== 'probe' && session.call.target.engine.engine, 'chromium');
  const byProfile = route(['run', 'x', '--profile', 'rel/p']);
  assert.equal(byProfile?.target.kind === 'session' ? byProfile.target.profileDir : '', '/rel/p', '--profile is taken from the cwd');
  for (const argv of [['run', 'x', '--ephemeral'], ['run', 'x', '--connect', 'ws://h/'], ['run', 'x', '--cdp', 'http://h/'], ['run', 'x', '--engine', 'aside'], ['run', 'x', '--bogus']]) {
    assert.equal(route(argv), undefined, argv.join(' '));
  }
  assert.equal(route(['run', 'x'], { ...ENV, GSTACK_NO_HOST: '1' }), undefined, 'GSTACK_NO_HOST');
  // No `aside` command: Chromium without a probe (and the fallback note), on the host.
  const t = resolveCallTarget({ engine: 'auto', ephemeral: false }, { ...ENV, GSTACK_SKIP_ASIDE: '' }, '/', { hosts: true });
  assert.ok(t.host);
  assert.equal(t.engine !== 'probe' && t.engine.probe?.outcome, 'NEEDS_ASIDE');
  // An `aside` command on PATH: only its probe decides, so the call runs in this process.
  const bin = mkdtempSync(join(tmpdir(), 'gstack-aside-bin-'));
  try {
    writeFileSync(join(bin, 'aside'), '#!/bin/sh\nexit 1\n', { mode: 0o755 });
    const probing = resolveCallTarget({ engine: 'auto', ephemeral: false }, { ...ENV, GSTACK_SKIP_ASIDE: '', PATH: bin }, '/', { hosts: true });
    assert.deepEqual([probing.engine, probing.host], ['probe', undefined]);
    assert.equal(route(['run', 'x'], { ...ENV, GSTACK_SKIP_ASIDE: '', PATH: bin }), undefined);
    assert.ok(route(['run', 'x', '--engine', 'chromium'], { ...ENV, GSTACK_SKIP_ASIDE: '', PATH: bin }), '--engine chromium never probes');
  } finally {
    rmSync(bin, { recursive: true, force: true });
  }
  const remote = resolveCallTarget({ engine: 'auto', ephemeral: true, connect: 'ws://h/' }, ENV, '/', { hosts: true });
  assert.deepEqual([remote.remote, remote.ephemeral, remote.profileDir, remote.host], [true, false, null, undefined]);
});

test('the host\'s edge takes a resolved call only whole and well formed', () => {
  const handOff = routeInvocation(['run', 'x', '--in', 'a.png'], ENV, '/');
  assert.ok(handOff && 'call' in handOff);
  const wire = JSON.parse(JSON.stringify(handOff.call));
  assert.deepEqual(parseResolvedCall(wire), wire);
  const msg = { t: 'call', env: {}, cwd: '/', trace: false, pid: 1, build: 'b' };
  assert.deepEqual(parseClientMessage({ ...msg, call: wire }), { ...msg, columns: undefined, call: wire });
  assert.deepEqual(parseClientMessage({ ...msg, argv: ['render', 'x.html'] }), { ...msg, columns: undefined, argv: ['render', 'x.html'] });
  const bad = (mutate: (c: any) => void) => {
    const c = JSON.parse(JSON.stringify(handOff.call));
    mutate(c);
    return parseResolvedCall(c);
  };
  assert.equal(bad((c) => (c.call.flags.timeout = '5')), undefined, 'a number flag as a string');
  assert.equal(bad((c) => (c.call.flags.engine = 'firefox')), undefined, 'a choice not in the catalog');
  assert.equal(bad((c) => (c.call.flags.in = 'a.png')), undefined, 'a list flag as one value');
  assert.equal(bad((c) => (c.call.flags.extra = true)), undefined, 'a flag the catalog does not have');
  assert.equal(bad((c) => (c.call.command = 'sessions')), undefined, 'a command no host runs');
  assert.equal(bad((c) => (c.call = { command: 'cookbook', shape: 'list', flags: {} })), undefined, 'cookbook list');
  assert.equal(bad((c) => delete c.target.key), undefined, 'no session key');
  assert.equal(bad((c) => (c.target.host = { kind: 'render' })), undefined, 'a render host as the target');
  assert.equal(parseClientMessage({ ...msg, call: wire, argv: ['run'] }), undefined, 'both a call and argv');
  assert.equal(parseClientMessage({ ...msg }), undefined, 'neither');
});
