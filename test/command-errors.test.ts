// Command errors named in the catalog (`commands[].errors`): each has code that throws it, and
// the exit code a CommandError carries is the catalog's (an unlisted name cannot be thrown).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CommandError } from '../driver/command-errors.js';
import { loadCatalog, PROJECT_ROOT } from '../driver/catalog.js';

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [readFileSync(join(dir, e.name), 'utf8')] : [],
  );
}

test('every catalog command error is thrown by name somewhere in the code', () => {
  const code = sources(join(PROJECT_ROOT, 'driver')).join('\n');
  const listed = loadCatalog().commands.flatMap((c) => (c.errors ?? []).map((e) => ({ command: c.name, ...e })));
  assert.ok(listed.length >= 10, 'login and sessions list their errors');
  for (const e of listed) assert.ok(code.includes(`'${e.name}'`), `${e.command} ${e.name} is in the catalog but nothing throws it`);
});

test('CommandError takes its exit code from the catalog and refuses names the catalog does not list', () => {
  const make = CommandError as unknown as new (command: string, code: string, message: string) => CommandError;
  for (const c of loadCatalog().commands) {
    for (const e of c.errors ?? []) assert.equal(new make(c.name, e.name, 'x').exitCode, e.exitCode, `${c.name} ${e.name}`);
  }
  // tsc refuses this call (test/codegen-check.e2e.test.ts); untyped code gets an error at once.
  // @ts-expect-error NOT_IN_CATALOG is not one of login's errors
  assert.throws(() => new CommandError('login', 'NOT_IN_CATALOG', 'x'), /command "login" lists no error NOT_IN_CATALOG/);
});
