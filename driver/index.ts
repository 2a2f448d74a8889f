// Library entry point for Node callers.
export { runScript, type RunOptions, type RunResult } from './runner/run-script.js';
export { loadCatalog, type Catalog } from './catalog.js';
export { findChromium } from './browser/chromium-find.js';
