// Every flag the catalog gives a command, its shared flags included, is accepted by that
// command's CLI (yargs is strict: an unknown flag exits 2), and `--session` works on the
// commands the docs tell an agent to pass it to on each call.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliEnv, isolatedEnv, runCli } from './helpers/cli.js';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';
import { loadCatalog, resolveCommand } from '../driver/catalog.js';

const catalog = loadCatalog();
let server: FixtureServer;
let env: NodeJS.ProcessEnv;
before(async () => {
  server = await startFixtureServer();
  // This file's own GSTACK_HOME and runtime dir (test/helpers/cli.ts).
  env = cliEnv(isolatedEnv().GSTACK_HOME);
});
after(async () => {
  await runCli(['sessions', 'stop', 'K'], { env });
  await runCli(['sessions', 'stop', '--render'], { env });
  await server.close();
});

// An option line of its own (`  --session  ...`), not a mention in another flag's prose.
const optionLine = (name: string, alias?: string) => new RegExp(`^\\s+${alias ? `-${alias}, ` : ''}--${name}\\b`, 'm');

test('every command accepts every flag the catalog (and so its docs) gives it', async () => {
  for (const c of catalog.commands.map((x) => resolveCommand(x, catalog))) {
    const r = await runCli([c.name, '--help'], { env });
    assert.equal(r.code, 0, `${c.name} --help: ${r.stderr}`);
    for (const f of c.flags) assert.match(r.stdout, optionLine(f.name, f.alias), `gstack ${c.name} --help lacks --${f.name}`);
  }
});

test('--session on probe, cookbook and the renders: accepted, and probe names the session', async () => {
  const probe = await runCli(['probe', '--session', 'K'], { env });
  assert.equal(probe.code, 0, probe.stdout + probe.stderr);
  assert.match(probe.stdout, /^SESSION=K-[0-9a-f]+ key="K" source=flag profile=\S+ host=no$/m);

  const dir = mkdtempSync(join(tmpdir(), 'gstack-shared-'));
  try {
    writeFileSync(join(dir, 'p.html'), '<!doctype html><h1>hi</h1>');
    writeFileSync(join(dir, 'd.md'), '# Hi\n\ntext\n');
    writeFileSync(join(dir, 'f.mmd'), 'graph TD; A-->B\n');
    for (const args of [
      ['cookbook', 'read', '--url', server.url, '--session', 'K'],
      ['render', 'p.html', '--screenshot', 'p.png', '--session', 'K'],
      ['pdf', 'd.md', 'd.pdf', '--session', 'K'],
      ['diagram', 'f.mmd', '--svg', 'f.svg', '--session', 'K'],
    ]) {
      const r = await runCli(args, { env, cwd: dir });
      assert.equal(r.code, 0, `${args.join(' ')}: ${r.stdout}${r.stderr}`);
      // Right after the cookbook call: the renders after it can take longer than a test host's
      // 8 s of idle time on a loaded machine, and the host then ends, as it should.
      if (args[0] === 'cookbook') {
        const after = await runCli(['probe', '--session', 'K'], { env });
        assert.match(after.stdout, /^SESSION=K-\S+ .* host=pid:\d+$/m, 'the cookbook call started the session host, and probe sees it');
      }
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
