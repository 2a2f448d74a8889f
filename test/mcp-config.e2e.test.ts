// End-to-end: `gstack skills install --mcp CLIENT` writes an entry each client's format reads,
// keeps the file's other entries, refuses a file it cannot rewrite, prints the snippet with
// --print, and the entry it writes starts a working `gstack mcp` (the SDK client lists its tools).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { cliEnv, runCli, tempHome } from './helpers/cli.js';
import { connectMcpCommand } from './helpers/mcp.js';

const dir = tempHome('gstack-mcp-config-');
const env = cliEnv(dir, { HOME: dir });
after(() => rm(dir, { recursive: true, force: true }));

test('install --mcp: merged into the client file, each client its format, and the entry starts the server', { timeout: 60_000 }, async () => {
  const cursor = join(dir, 'cursor.json');
  writeFileSync(cursor, JSON.stringify({ mcpServers: { other: { command: 'other-server' } }, theme: 'dark' }));
  const r = await runCli(['skills', 'install', '--mcp', 'cursor', '--config', cursor], { env, cwd: dir });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, new RegExp(`^MCP_CONFIG ${cursor} client=cursor server=gstack command=`));
  const written = JSON.parse(readFileSync(cursor, 'utf8'));
  assert.deepEqual(written.mcpServers.other, { command: 'other-server' });
  assert.equal(written.theme, 'dark');
  const entry = written.mcpServers.gstack as { command: string; args: string[] };
  assert.deepEqual(entry.args.slice(1), ['mcp']);

  // VS Code: `servers`, with the transport named; the default file is the folder's .vscode/mcp.json.
  const v = await runCli(['skills', 'install', '--mcp', 'vscode', '--allow-scripts'], { env, cwd: dir });
  assert.equal(v.code, 0, v.stderr);
  const vs = JSON.parse(readFileSync(join(dir, '.vscode', 'mcp.json'), 'utf8'));
  assert.equal(vs.servers.gstack.type, 'stdio');
  assert.deepEqual(vs.servers.gstack.args.slice(1), ['mcp', '--allow-scripts']);

  // Claude Desktop's file on Linux, printed rather than written.
  const p = await runCli(['skills', 'install', '--mcp', 'claude-desktop', '--print'], { env, cwd: dir });
  assert.equal(p.code, 0, p.stderr);
  assert.deepEqual(Object.keys(JSON.parse(p.stdout).mcpServers), ['gstack']);

  // A file with comments is left alone, and the message says how to add the entry by hand.
  const jsonc = join(dir, 'with-comments.json');
  writeFileSync(jsonc, '{ // mine\n "mcpServers": {} }');
  const bad = await runCli(['skills', 'install', '--mcp', 'cursor', '--config', jsonc], { env, cwd: dir });
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /not plain JSON.*--print/);
  assert.equal(readFileSync(jsonc, 'utf8'), '{ // mine\n "mcpServers": {} }');

  // The entry as written starts the server.
  const c = await connectMcpCommand(entry.command, entry.args, env);
  try {
    const names = (await c.client.listTools()).tools.map((t) => t.name);
    assert.ok(names.includes('cookbook_read') && !names.includes('run'), names.join(' '));
  } finally {
    await c.disconnect();
  }
});
