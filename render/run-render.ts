// Orchestrates one render: validate the spec, start the loopback server, pick the engine,
// run the steps, always close the server. (Work in progress: Chromium path lands next.)
import { RenderError, type RenderResult, type RenderSpec } from './render.js';

export async function runRender(_spec: RenderSpec): Promise<RenderResult> {
  throw new RenderError('render() is not implemented yet', 1);
}
