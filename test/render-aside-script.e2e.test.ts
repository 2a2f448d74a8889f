// The Aside render script ships: `npm pack` (what a user installs) includes it at the path the
// engine reads it from. Spawns npm, so end to end; the script's own checks are
// render-aside-script.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { relative } from 'node:path';
import { ASIDE_RENDER_SCRIPT_PATH } from '../render/engines/aside-render.js';
import { ROOT } from './helpers/cli.js';

test('the script ships: npm pack includes it, at the path the engine reads', () => {
  const packed = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8' })) as Array<{ files: Array<{ path: string }> }>;
  const files = packed[0].files.map((f) => f.path);
  assert.ok(files.includes(relative(ROOT, ASIDE_RENDER_SCRIPT_PATH)), `npm pack leaves out ${relative(ROOT, ASIDE_RENDER_SCRIPT_PATH)}`);
});
