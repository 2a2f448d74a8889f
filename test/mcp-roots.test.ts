// Unit: confining the renders' path arguments to the client's roots (bin/mcp/roots.ts), and the
// catalog naming every path argument of render, pdf and diagram. Real folders and symlinks in a
// temp dir; no build, no browser, no server (test/mcp.e2e.test.ts drives the same through MCP).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadCatalog, commandSpec } from '../driver/catalog.js';
import { SHAPES } from '../cookbook/index.js';
import { buildTools, type ToolDef } from '../bin/mcp/tools.js';
import { confinePaths, PathOutsideRootsError, Roots, rootDirs, type AllowedRoots } from '../bin/mcp/roots.js';

const catalog = loadCatalog();
const tools = buildTools(catalog, SHAPES, { allowScripts: true });
const tool = (name: string): ToolDef => tools.find((t) => t.name === name)!;

let base: string;
let root: string;
let outside: string;
let allowed: AllowedRoots;

before(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'gstack-roots-')));
  root = join(base, 'project');
  outside = join(base, 'home');
  mkdirSync(join(root, 'docs'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(root, 'docs', 'a.md'), '# A\n');
  writeFileSync(join(outside, '.bashrc'), 'echo hi\n');
  symlinkSync(outside, join(root, 'home-link'));
  symlinkSync(join(outside, '.bashrc'), join(root, 'bashrc-link'));
  symlinkSync(join(outside, 'not-yet'), join(root, 'dangling'));
  allowed = { dirs: [root], source: 'client' };
});
after(() => rmSync(base, { recursive: true, force: true }));

const refusal = (name: string, args: Record<string, unknown>, cwd = root): string => {
  try {
    confinePaths(tool(name), args, allowed, cwd);
  } catch (err) {
    assert.ok(err instanceof PathOutsideRootsError, String(err));
    return err.message;
  }
  assert.fail(`${name} accepted ${JSON.stringify(args)}`);
};

test('paths inside the roots pass, resolved: relative from the cwd, new files by their folder', () => {
  const out = confinePaths(tool('pdf'), { input: 'docs/a.md', output: join(root, 'out', 'new', 'a.pdf'), toc: true }, allowed, root);
  assert.deepEqual(out, { input: join(root, 'docs', 'a.md'), output: join(root, 'out', 'new', 'a.pdf'), toc: true });
  const steps = confinePaths(tool('render'), { file: join(root, 'docs', 'a.md'), steps: [{ screenshot: join(root, 's.png'), width: 300 }, { eval: 'document.title', out: join(root, 't.txt') }] }, allowed, root);
  assert.deepEqual(steps.steps, [{ screenshot: join(root, 's.png'), width: 300 }, { eval: 'document.title', out: join(root, 't.txt') }]);
});

test('outside the roots: refused, naming the field, the path and the roots', () => {
  assert.match(refusal('pdf', { input: '/etc/passwd' }), new RegExp(`^\`input\` /etc/passwd is outside the folders this MCP server may read and write, the client's roots: ${root}\\.`));
  assert.match(refusal('render', { file: join(root, 'docs', 'a.md'), steps: [{ eval: '"x"', out: join(outside, '.bashrc') }] }), /^`steps\[0\]\.out` .*\.bashrc is outside/);
  assert.match(refusal('diagram', { inputs: [join(root, 'docs', 'a.md')], svg: [join(root, 'a.svg'), join(outside, 'b.svg')] }), /^`svg\[1\]` /);
  assert.match(refusal('diagram', { inputs: [join(root, 'docs', 'a.md')], 'out-dir': '../home' }), /^`out-dir` \.\.\/home is outside/);
  assert.match(refusal('render', { file: join(root, 'docs', 'a.md'), 'serve-root': '/', steps: [{ eval: '1' }] }), /^`serve-root` \/ is outside/);
});

test('symlinks are followed: a link out of the roots, `link/..`, and a dangling link are refused', () => {
  assert.match(refusal('pdf', { input: join(root, 'docs', 'a.md'), output: join(root, 'home-link', '.bashrc') }), /^`output` .* \(it resolves to .*home\/\.bashrc\) is outside/);
  assert.match(refusal('pdf', { input: join(root, 'docs', 'a.md'), output: join(root, 'bashrc-link') }), /resolves to .*home\/\.bashrc/);
  // Lexically `project/home-link/../x` is `project/x`; the OS opens `home/../x`, i.e. base/x.
  assert.match(refusal('pdf', { input: join(root, 'docs', 'a.md'), output: `${root}/home-link/../x.pdf` }), /is outside/);
  assert.match(refusal('pdf', { input: 'home-link/../home/.bashrc' }), /^`input` home-link\/\.\.\/home\/\.bashrc \(it resolves to .*home\/\.bashrc\) is outside/, 'a relative path resolves the same way');
  // ... and the command gets the path the OS opens, not the client's text.
  assert.equal(confinePaths(tool('pdf'), { input: 'home-link/../project/docs/a.md' }, allowed, root).input, join(root, 'docs', 'a.md'));
  assert.match(refusal('pdf', { input: join(root, 'docs', 'a.md'), output: join(root, 'dangling') }), /^`output`: .*dangling is a symlink whose target does not exist/);
});

test('a header or footer is checked only when it names a file, as the CLI reads it', () => {
  assert.match(refusal('pdf', { input: join(root, 'docs', 'a.md'), header: '/etc/passwd' }), /^`header` \/etc\/passwd is outside/);
  assert.match(refusal('render', { file: join(root, 'docs', 'a.md'), steps: [{ pdf: join(root, 'a.pdf'), footer: join(outside, '.bashrc') }] }), /^`steps\[0\]\.footer`/);
  const html = '<span class="pageNumber"></span>';
  assert.equal(confinePaths(tool('pdf'), { input: join(root, 'docs', 'a.md'), header: html, footer: 'DRAFT' }, allowed, root).header, html);
});

test('no roots from the client: the working directory, and the error says so', () => {
  const cwdOnly: AllowedRoots = { dirs: [join(root, 'docs')], source: 'cwd' };
  assert.throws(() => confinePaths(tool('pdf'), { input: join(root, 'docs', 'a.md'), output: join(root, 'a.pdf') }, cwdOnly, join(root, 'docs')), /the server's working directory .*docs \(the client declared no roots\)/);
});

test('the client roots: file URIs that are folders here; the cwd without the capability; asked again after list_changed', async () => {
  assert.deepEqual(rootDirs([pathToFileURL(root).href, 'https://example.com/', pathToFileURL(join(base, 'gone')).href, pathToFileURL(root + '/').href]), [root]);
  let asked = 0;
  let list = [pathToFileURL(root).href];
  let declared = false;
  const roots = new Roots({ cwd: outside, declared: () => declared, list: async () => (asked++, list), log: () => undefined });
  assert.deepEqual(await roots.allowed(), { dirs: [outside], source: 'cwd' });
  declared = true;
  roots.changed();
  assert.deepEqual(await roots.allowed(), { dirs: [root], source: 'client' });
  assert.deepEqual(await roots.allowed(), { dirs: [root], source: 'client' });
  assert.equal(asked, 1, 'asked once until the client says its roots changed');
  list = [pathToFileURL(outside).href];
  roots.changed();
  assert.deepEqual((await roots.allowed()).dirs, [outside]);
});

test('the catalog names every path argument of render, pdf and diagram (a new one cannot slip through)', () => {
  const fileish = /FILE|DIR|OUT|PATH/;
  for (const name of ['render', 'pdf', 'diagram']) {
    const spec = catalog.mcp!.tools.find((t) => t.name === name)!;
    const cmd = commandSpec(name, catalog);
    const t = tool(name);
    const offered = new Set([...Object.keys(t.inputSchema.properties), ...Object.keys((t.inputSchema.properties.steps as { items?: { properties: object } } | undefined)?.items?.properties ?? {})]);
    const pathish = [...(cmd.positionals ?? []).map((p) => p.name), ...[...cmd.flags, ...(catalog.flagGroups?.print ?? [])].filter((f) => fileish.test(f.placeholder ?? '')).map((f) => f.name)];
    for (const p of pathish.filter((n) => offered.has(n))) assert.ok(spec.paths?.includes(p), `${name}: "${p}" names a file but is not in the catalog's mcp paths`);
    for (const p of spec.paths ?? []) assert.ok(offered.has(p), `${name}: paths names "${p}", which is not an argument of the tool`);
  }
});
