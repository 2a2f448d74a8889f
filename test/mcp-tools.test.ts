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

test('the tools: run only with --allow-scripts, one tool per cookbook shape, each catalog tool once', () => {
  const safe = buildTools(catalog, SHAPES, { allowScripts: false }).map((t) => t.name);
  assert.ok(!safe.includes('run'));
  assert.deepEqual(all.map((t) => t.name).filter((n) => n !== 'run'), safe);
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
  assert.deepEqual(t.argv(args), { argv: ['cookbook', 'element-shot', '--params', '{"url":"http://127.0.0.1:1/","selector":"h1"}', '--timeout', '5000'] });
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
