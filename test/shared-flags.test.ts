// The shared flags the docs promise are the ones each command takes (catalog `sharedFlags`),
// and no skill hands an agent the user's tool for stopping everyone's hosts. Unit tier: the
// catalog and generated/ only (the CLI side is test/shared-flags.e2e.test.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { loadCatalog, resolveCommand, PROJECT_ROOT } from '../driver/catalog.js';

const catalog = loadCatalog();
const commands = catalog.commands.map((c) => resolveCommand(c, catalog));
const sharedNames = new Set((catalog.sharedFlags ?? []).map((f) => f.name));

function generatedDocs(dir = join(PROJECT_ROOT, 'generated')): Array<{ file: string; text: string }> {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return generatedDocs(p);
    return name.endsWith('.md') ? [{ file: p, text: readFileSync(p, 'utf8') }] : [];
  });
}

/** The `### \`gstack NAME\`` sections of the generated skills, by command. */
function commandSections(): Array<{ file: string; command: string; text: string }> {
  const out: Array<{ file: string; command: string; text: string }> = [];
  for (const { file, text } of generatedDocs()) {
    const parts = text.split(/^### `gstack (\w[\w-]*)`$/m);
    for (let i = 1; i < parts.length; i += 2) out.push({ file, command: parts[i], text: parts[i + 1].split(/^#{1,3} /m)[0] });
  }
  return out;
}

test('no generated skill tells an agent to stop every host (`stop --all`)', () => {
  const docs = generatedDocs();
  assert.ok(docs.length >= 8, 'the skills are there');
  for (const { file, text } of docs) assert.ok(!text.includes('stop --all'), `${file} mentions stop --all`);
});

test('every command that has a session or an engine to choose takes --session (the cores say: on each call)', () => {
  for (const c of commands) {
    const names = new Set(c.flags.map((f) => f.name));
    if (names.has('engine') || names.has('session')) assert.ok(names.has('session'), `gstack ${c.name} chooses an engine but takes no --session`);
  }
  // The rule is not empty: these must be in it.
  for (const n of ['run', 'cookbook', 'probe', 'render', 'pdf', 'diagram']) {
    assert.ok(commands.find((c) => c.name === n)!.flags.some((f) => f.name === 'session'), n);
  }
});

test('a shared flag the generated docs list for a command is one that command takes', () => {
  const sections = commandSections();
  assert.ok(sections.length >= catalog.commands.length, `found ${sections.length} command sections`);
  let checked = 0;
  for (const s of sections) {
    const cmd = commands.find((c) => c.name === s.command);
    assert.ok(cmd, `${s.file} documents an unknown command gstack ${s.command}`);
    const takes = new Set(cmd.flags.map((f) => f.name));
    // Where a section lists the flags a command takes: its table's first column, the core's
    // "Flags (...)" line and the "Shared flags it takes" line (prose elsewhere may mention
    // another command's flag).
    const listing = s.text
      .split('\n')
      .map((l) => (l.startsWith('| `--') ? l.split(' | ')[0] : /^(Flags \(|Shared flags it takes)/.test(l) ? l : ''))
      .join('\n');
    for (const [, name] of listing.matchAll(/`--([a-z][a-z-]*)[^`]*`/g)) {
      if (!sharedNames.has(name)) continue;
      checked++;
      assert.ok(takes.has(name), `${s.file}: gstack ${s.command}'s section lists --${name}, which it does not take`);
    }
  }
  assert.ok(checked > 20, `only ${checked} shared-flag mentions checked`);
});
