import { EngineFailure, type EngineRenderOutput, type PreparedRender } from './prepared.js';
export async function renderOnAside(_job: PreparedRender): Promise<EngineRenderOutput> {
  throw new EngineFailure('not yet', 'start');
}
