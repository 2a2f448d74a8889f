// Post-build step (npm run build, after tsc; the build's first step, `npm run gen -- --check`,
// has validated the catalog and checked that driver/catalog.gen.ts, which the code reads it
// from, is fresh):
// 1. bundles the CLI (bin/cli.ts), the host entry (bin/host.ts) and the Markdown parser's
//    worker with esbuild into dist/bin/cli.js, dist/bin/host.js and dist/bin/convert-worker.js (replacing tsc's copies), sharing their chunks: one
//    file each plus lazily loaded chunks instead of ~60 small ES modules (yargs among them);
//    packages loaded with require() or only by some commands stay external;
// 2. bundles the thin `gstack` entry (bin/gstack.ts, Node built-ins only) into ONE CommonJS
//    file, dist/bin/gstack.cjs: every call starts there, and Node loads one CommonJS file ~50 ms
//    faster than the dozen ES modules it would otherwise be (measured on the 2-core machine).
//    It imports dist/bin/cli.js only when it runs a command itself;
// 3. marks the entry executable.
import { chmodSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);

rmSync(new URL('../dist/bin/chunks/', import.meta.url), { recursive: true, force: true });
const esbuild = require('esbuild');
const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const bundled = new Set(['yargs', 'diff', 'highlight.js']);
esbuild.buildSync({
  // The host (driver/hosts/) shares the CLI's chunks, so both run the same code.
  // The Markdown parser's worker (render/markdown/convert.ts) is an entry of its own, found
  // next to the chunks that start it.
  entryPoints: {
    cli: fileURLToPath(new URL('./cli.ts', import.meta.url)),
    host: fileURLToPath(new URL('./host.ts', import.meta.url)),
    'convert-worker': fileURLToPath(new URL('../render/markdown/convert-worker.ts', import.meta.url)),
  },
  outdir: fileURLToPath(new URL('../dist/bin/', import.meta.url)),
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: Object.keys(pkg.dependencies).filter((d) => !bundled.has(d)),
  logLevel: 'warning',
});

// The entry: CommonJS has no import.meta, so its uses (the project root) read the file's URL
// from __filename instead; `./cli.js` stays a real import() of the ES module bundle above.
const metaShim = fileURLToPath(new URL('../dist/bin/import-meta-url.cjs', import.meta.url));
writeFileSync(metaShim, "export const import_meta_url = require('node:url').pathToFileURL(__filename).href;\n");
esbuild.buildSync({
  entryPoints: [fileURLToPath(new URL('./gstack.ts', import.meta.url))],
  outfile: fileURLToPath(new URL('../dist/bin/gstack.cjs', import.meta.url)),
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  inject: [metaShim],
  define: { 'import.meta.url': 'import_meta_url' },
  external: ['./cli.js'],
  logLevel: 'warning',
});
rmSync(metaShim);
// tsc's unbundled ES module entry would start a call ~50 ms slower: only gstack.cjs is the entry.
rmSync(new URL('../dist/bin/gstack.js', import.meta.url), { force: true });
rmSync(new URL('../dist/bin/gstack.d.ts', import.meta.url), { force: true });

chmodSync(new URL('../dist/bin/gstack.cjs', import.meta.url), 0o755);
