// The render library's public face: `render(spec)` serves one local HTML file on a locked-down
// loopback server, opens it in a real browser, waits until it is ready, then runs the steps
// (pdf | screenshot | eval) in order in that one browser session. `gstack render`,
// `gstack pdf` and `gstack diagram` are all thin layers over it.
//
// render/ is in layers: each folder imports only those listed before it (test/import-cycles.test.ts):
//   api/          the vocabulary: spec and result types, RenderError, messages, print options
//   page/         what every page gstack builds shares: font stacks, HTML escaping
//   engines/      drive one browser: Chromium (pooled or launched), Aside (one repl script)
//   orchestrate/  validate, serve on loopback, pick the engine, write the outputs
//   index.ts      this entry
//   cli/          `gstack render`'s own layer: ordered step flags in, fenced lines out
//   mermaid/      mermaid drawn in a page, and `gstack diagram`
//   markdown/     `gstack pdf`: Markdown to a sanitized, printable page, then to PDF
import { runRender } from './orchestrate/run-render.js';
import type { RenderResult, RenderSpec } from './api/types.js';

export type * from './api/types.js';
export { RenderError } from './api/errors.js';

export function render(spec: RenderSpec): Promise<RenderResult> {
  return runRender(spec);
}
