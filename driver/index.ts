// Library entry point for Node callers.
export { runScript, type RunOptions, type RunResult } from './run.js';
export { loadCatalog, type Catalog } from './catalog.js';
export { findChromium } from './chromium-find.js';
