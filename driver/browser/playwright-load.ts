// Loading Playwright is the largest fixed cost of a call (~7 MB of JavaScript). Every engine
// loads it through here:
// - require(), not import(): importing a CommonJS package from ESM makes Node scan its whole
//   source for named exports, 0.3-0.5 s per call on 2 cores;
// - a V8 code cache (v8-compile-cache-lib) for that source, ~20% of what is left
//   (GSTACK_NO_CODE_CACHE=1 turns it off, for measuring). One cache per Playwright install, in
//   the user's temporary folder: the library's default names it after the working directory
//   for a process started as an ES module, as ours are, so every new folder compiled Playwright
//   afresh and wrote another 1.2 MB file there (a cold cache costs more than none: ~520 ms of
//   CPU against 440 uncached and 390 warm, to load Playwright on the 2-core machine).
import { createRequire } from 'node:module';

let loaded: typeof import('playwright-core') | undefined;

export function loadPlaywright(): typeof import('playwright-core') {
  if (loaded) return loaded;
  const require = createRequire(import.meta.url);
  if (!process.env.GSTACK_NO_CODE_CACHE) withCodeCache(require);
  loaded = require('playwright-core') as typeof import('playwright-core');
  return loaded;
}

/** Installs v8-compile-cache-lib, which replaces Module.prototype._compile for every later
 * require() in the process. Its replacement compiles everything as CommonJS, so a require() of
 * an ES module package (Node 20.19+ loads those, handing _compile the format 'module') would
 * fail with "Cannot use import statement outside a module": such modules go to Node's own. */
function withCodeCache(require: NodeRequire): void {
  const Module = require('node:module') as unknown as { prototype: { _compile: (this: unknown, content: string, filename: string, format?: string) => unknown } };
  const native = Module.prototype._compile;
  const { install } = require('v8-compile-cache-lib') as { install: (opts: { prefix: string }) => unknown };
  install({ prefix: `gstack-${require.resolve('playwright-core')}` });
  const cached = Module.prototype._compile;
  if (cached === native) return;
  Module.prototype._compile = function (content, filename, format) {
    return format === 'module' || format === 'module-typescript' ? native.call(this, content, filename, format) : cached.call(this, content, filename, format);
  };
}
