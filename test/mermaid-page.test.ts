// The page mermaid is drawn in (render/mermaid/mermaid-page.ts), without a browser: mermaid comes
// from the installed package and the boot script names no remote URL. Diagrams drawn by
// `gstack diagram` in a real browser are diagram-render.e2e.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { mermaidBootScript, mermaidDistDir } from '../render/mermaid/mermaid-page.js';

const boot0 = () => mermaidBootScript({ fontFamily: 'x' }, false);

test('mermaid comes from the installed package, and the boot script names no remote URL', async () => {
  const dist = mermaidDistDir();
  assert.ok(existsSync(join(dist, 'mermaid.esm.min.mjs')));
  assert.match(boot0(), /^import mermaid from '\.\/mermaid\.esm\.min\.mjs';/);
  assert.match(dist, /node_modules[/\\]mermaid[/\\]dist$/);
  const boot = mermaidBootScript({ fontFamily: 'x' }, true);
  assert.doesNotMatch(boot, /https?:\/\//, 'the boot script names no remote URL');
  assert.match(boot, /"securityLevel":"strict"/);
});
