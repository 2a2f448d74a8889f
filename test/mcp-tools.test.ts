// Unit: the tools of `gstack mcp` (bin/mcp/tools.ts) from the catalog and the cookbook: which
// tools exist, their input schemas, the `gstack` command line each call becomes, and argument
// errors that name the field. No build, no browser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadCatalog } from '../driver/catalog.js';
import { SHAPES } from '../cookbook/index.js';
import { buildTools, checkArguments, ToolArgumentsError, type ToolDef } from '../bin/mcp/tools.js';

const catalog = loadCatalog();
const all = buildTools(catalog, SHAPES, { allowScripts: true });
const tool = (name: string): ToolDef => {
  const t = all.find((x) => x.name === name);
  assert.ok(t, `no tool ${name}`);
  return t;
};
const refusal = (name: string, args: Record<string, unknown>): string => {
  try {
    checkArguments(tool(name), args);
  } catch (err) {
    assert.ok(err instanceof ToolArgumentsError, String(err));
    return err.message;
  }
  assert.fail(`${name} accepted ${JSON.stringify(args)}`);
};

test('the tools: run and flows_save only with --allow-scripts, one tool per cookbook shape, each catalog tool once', () => {
  const safe = buildTools(catalog, SHAPES, { allowScripts: false }).map((t) => t.name);
  assert.ok(!safe.includes('run'));
  assert.deepEqual(all.map((t) => t.name).filter((n) => n !== 'run' && n !== 'flows_save'), safe);
  assert.deepEqual(
    safe.filter((n) => n.startsWith('cookbook_')),
    SHAPES.map((s) => `cookbook_${s.name.replace(/-/g, '_')}`),
  );
  for (const t of all) {
    assert.match(t.name, /^[a-z][a-z0-9_]{0,63}$/, 'a tool name every MCP client accepts');
    assert.ok(t.description.length > 40, t.name);
    assert.equal(t.inputSchema.type, 'object');
  }
  // Descriptions come from the catalog: the run tool's names the risk it carries.
  assert.equal(tool('run').description, catalog.mcp!.tools.find((t) => t.name === 'run')!.description);
});

test('a cookbook shape tool: the shape schema plus session arguments; its call is `gstack cookbook <shape> --params`', () => {
  const t = tool('cookbook_element_shot');
  const shape = SHAPES.find((s) => s.name === 'element-shot')!;
  assert.deepEqual(t.inputSchema.required, shape.params.required);
  for (const k of [...Object.keys(shape.params.properties), 'session', 'timeout', 'engine']) assert.ok(k in t.inputSchema.properties, k);
  const args = checkArguments(t, { url: 'http://127.0.0.1:1/', selector: 'h1', timeout: 5000 });
  // Pass 41 (A41): the parameters on stdin, never on the child's command line (`ps`).
  assert.deepEqual(t.argv(args), { argv: ['cookbook', 'element-shot', '--params', '@-', '--timeout', '5000'], stdin: '{"url":"http://127.0.0.1:1/","selector":"h1"}' });
});

test('run: the script goes through stdin (no argv length limit, never read as a flag)', () => {
  const t = tool('run');
  const script = '-- not a flag';
  assert.deepEqual(t.argv(checkArguments(t, { script, engine: 'chromium' })), { argv: ['run', '-', '--engine', 'chromium'], stdin: script });
});

test('render, pdf, diagram: positionals first, flags by their names, false booleans as --no-, render steps in order', () => {
  const render = tool('render');
  const steps = [{ screenshot: '/o/a.png', width: 400, 'viewport-only': true }, { pdf: '/o/a.pdf', paper: 'a4', 'page-numbers': false }, { eval: 'document.title' }];
  assert.deepEqual(render.argv(checkArguments(render, { file: '/in/a.html', 'wait-selector': 'main', steps })).argv, [
    'render', '/in/a.html', '--wait-selector', 'main',
    '--screenshot', '/o/a.png', '--width', '400', '--viewport-only',
    '--pdf', '/o/a.pdf', '--paper', 'a4', '--no-page-numbers',
    '--eval', 'document.title',
  ]);
  const pdf = tool('pdf');
  assert.deepEqual(pdf.argv(checkArguments(pdf, { input: '/in/a.md', output: '/o/a.pdf', toc: true, outline: false })).argv, ['pdf', '/in/a.md', '/o/a.pdf', '--toc', '--no-outline']);
  const diagram = tool('diagram');
  assert.deepEqual(diagram.argv(checkArguments(diagram, { inputs: ['/in/a.mmd', '/in/b.mmd'], svg: ['/o/a.svg', '/o/b.svg'] })).argv, ['diagram', '/in/a.mmd', '/in/b.mmd', '--svg', '/o/a.svg', '--svg', '/o/b.svg']);
});

test('bad arguments: the error names the field and the arguments there are', () => {
  assert.match(refusal('run', {}), /`script` is required/);
  assert.match(refusal('run', { script: 'x', timeout: '5s' }), /`timeout` must be number/);
  assert.match(refusal('run', { script: 'x', engine: 'firefox' }), /`engine` must be equal to one of the allowed values \(one of "auto", "aside", "chromium"\)/);
  assert.match(refusal('run', { script: 'x', out: '/tmp' }), /`out` is not an argument of run\. Its arguments are: script, session, timeout, engine\./);
  assert.match(refusal('cookbook_read', {}), /`url` is required/);
  assert.match(refusal('render', { file: '/a.html', steps: [{ pdf: '/a.pdf', screenshot: '/a.png' }] }), /`steps\[0\]` needs exactly one of pdf, screenshot, eval \(it has pdf and screenshot\)/);
  assert.match(refusal('render', { file: '/a.html', steps: [{ pdf: '/a.pdf', quality: 80 }] }), /`steps\[0\]\.quality` is an option of a screenshot step/);
  assert.match(refusal('render', { file: '/a.html', steps: [{ pdf: 3 }] }), /`steps\[0\]\.pdf` must be string/);
  assert.match(refusal('sessions', { action: 'gc' }), /`action` must be equal to one of the allowed values/);
});

test('every catalog mcp tool names a command and arguments that exist', () => {
  const commands = new Set(catalog.commands.map((c) => c.name));
  for (const spec of catalog.mcp!.tools) assert.ok(commands.has(spec.command), spec.command);
  // buildTools throws on an argument that is neither a positional nor a flag of its command.
  const broken = structuredClone(catalog);
  broken.mcp!.tools.find((t) => t.name === 'pdf')!.arguments.push('no-such-flag');
  assert.throws(() => buildTools(broken, SHAPES, { allowScripts: false }), /"no-such-flag" is neither a positional nor a flag of `gstack pdf`/);
});

test('saved flows: list and run without --allow-scripts, save only with it; a run is `gstack flows run NAME --param @-` with its parameters on stdin', () => {
  const safe = buildTools(catalog, SHAPES, { allowScripts: false }).map((t) => t.name);
  assert.ok(safe.includes('flows_list') && safe.includes('flows_run'), safe.join(' '));
  assert.ok(!safe.includes('flows_save'), 'saving a flow stores code: --allow-scripts only');
  assert.match(tool('flows_save').description, /^CODE EXECUTION WITH THE USER'S RIGHTS/);
  assert.deepEqual(tool('flows_list').argv(checkArguments(tool('flows_list'), {})), { argv: ['flows', 'list'] });
  const run = tool('flows_run');
  assert.deepEqual(Object.keys(run.inputSchema.properties), ['name', 'params', 'session', 'timeout', 'engine']);
  assert.deepEqual(run.inputSchema.required, ['name']);
  const args = checkArguments(run, { name: 'signup', params: { email: 'a=b@example.com', count: 3, dry: false }, timeout: 5000 });
  // Pass 39 (A39): on stdin, never on the child's command line, where `ps` shows a password.
  assert.deepEqual(run.argv(args), { argv: ['flows', 'run', 'signup', '--param', '@-', '--timeout', '5000'], stdin: '{"email":"a=b@example.com","count":3,"dry":false}' });
  assert.deepEqual(run.argv(checkArguments(run, { name: 'home' })), { argv: ['flows', 'run', 'home'], stdin: undefined });
  // A name is never read as a flag or a path; a parameter is a plain value.
  assert.match(refusal('flows_run', { name: '--force' }), /`name` must match pattern/);
  assert.match(refusal('flows_run', { name: '../x' }), /`name` must match pattern/);
  assert.match(refusal('flows_run', { name: 'a', params: { nested: { x: 1 } } }), /`params\.nested` must be string,number,boolean/);
  assert.match(refusal('flows_run', { params: {} }), /`name` is required/);
  const save = tool('flows_save');
  const script = 'const { url } = params; console.log("GSTACK_STEP_OK")';
  assert.deepEqual(save.argv(checkArguments(save, { name: 'home', script, param: ['url=http://127.0.0.1:1/', 'n:number=2'], required: ['url'], global: true, describe: 'Opens home' })), {
    argv: ['flows', 'save', 'home', '-', '--param', 'url=http://127.0.0.1:1/', '--param', 'n:number=2', '--required', 'url', '--describe', 'Opens home', '--global'],
    stdin: script,
  });
});

test("the command's own usage errors in the tool's terms: flags as arguments, render steps as steps[i], no `--help` pointer", async () => {
  const { inMcpTerms } = await import('../bin/mcp/tools.js');
  assert.equal(inMcpTerms(tool('pdf'), '[error] --paper zz: use one of letter, a4'), '[error] `paper` zz: use one of letter, a4');
  assert.equal(inMcpTerms(tool('pdf'), '[error] pass --no-outline or --nope'), '[error] pass `outline` or --nope', 'only flags that are arguments of the tool');
  assert.equal(inMcpTerms(tool('render'), '[error] step 2 (--screenshot): --quality applies to JPEG only; add --jpeg or drop --quality'), '[error] steps[1] (screenshot): `quality` applies to JPEG only; add `jpeg` or drop `quality`');
  assert.equal(inMcpTerms(tool('render'), 'Run `gstack render --help` for usage.'), undefined);
  assert.equal(inMcpTerms(tool('run'), '[error] --timeout must be a whole number'), '[error] `timeout` must be a whole number');
  assert.equal(inMcpTerms(tool('flows_run'), 'It takes: url string. Give each as --param name=value.'), 'It takes: url string. Give each as `params` entries.');
  assert.equal(inMcpTerms(tool('flows_run'), '[error] No saved flow "x". `gstack flows list` shows the flows'), '[error] No saved flow "x". `flows_list` shows the flows');
  assert.equal(inMcpTerms(tool('run'), 'see http://x/--paper-trail and foo--timeout'), 'see http://x/--paper-trail and foo--timeout');
});
