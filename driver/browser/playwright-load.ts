// Loading Playwright is the largest fixed cost of a call (~7 MB of JavaScript). Every engine
// loads it through here:
// - require(), not import(): importing a CommonJS package from ESM makes Node scan its whole
//   source for named exports, 0.3-0.5 s per call on 2 cores;
// - a V8 code cache (v8-compile-cache) for that source, ~20% of what is left
//   (GSTACK_NO_CODE_CACHE=1 turns it off, for measuring).
import { createRequire } from 'node:module';

let loaded: typeof import('playwright-core') | undefined;

export function loadPlaywright(): typeof import('playwright-core') {
  if (loaded) return loaded;
  const require = createRequire(import.meta.url);
  if (!process.env.GSTACK_NO_CODE_CACHE) require('v8-compile-cache');
  loaded = require('playwright-core') as typeof import('playwright-core');
  return loaded;
}
