// The peer tools the benchmarks compare against, pinned and installed on demand into
// test/bench/.peers (outside the project's dependencies), each pointed at our Chromium with our
// launch flags so a comparison measures the tool, not the browser build or its settings.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../helpers/cli.js';

/** The peer's current release, pinned: an unpinned install on Node 20 picks 0.27.0, whose
 * per-command Node daemon is ~7x slower and would flatter us. */
export const AGENT_BROWSER = 'agent-browser@0.41.2';
// its own prefix: npm prunes a prefix to its package.json, so peers of other benchmarks stay apart
const PEERS = join(ROOT, 'test', 'bench', '.peers', 'agent-browser-0.41.2');

/** The flags our own launches add to keep a closed network quiet, and the renderer process limit
 * our session browsers run with (driver/browser/chromium-process.ts), given to agent-browser too,
 * with --no-sandbox (root). */
export const QUIET_FLAGS = ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--renderer-process-limit=1'];

/** agent-browser's environment for one session on `chromium` with our flags. */
export function agentBrowserEnv(chromium: string, session: string): NodeJS.ProcessEnv {
  return { AGENT_BROWSER_EXECUTABLE_PATH: chromium, AGENT_BROWSER_ARGS: QUIET_FLAGS.join(','), AGENT_BROWSER_SESSION: session };
}

/** The pinned agent-browser binary, installed first if need be; undefined when it cannot be. */
export function ensureAgentBrowser(): string | undefined {
  const bin = join(PEERS, 'node_modules', '.bin', 'agent-browser');
  if (!existsSync(bin)) {
    mkdirSync(PEERS, { recursive: true });
    console.log(`installing ${AGENT_BROWSER} into test/bench/.peers (outside the project dependencies)...`);
    try {
      execFileSync('npm', ['install', '--prefix', PEERS, '--no-audit', '--no-fund', '--loglevel=error', '--engine-strict=false', AGENT_BROWSER], { stdio: 'inherit' });
    } catch {
      console.log('agent-browser could not be installed; skipping the comparison.');
      return undefined;
    }
  }
  // A global install runs the native binary directly: its postinstall patches the shim, which
  // otherwise starts Node first (~160 ms a command). A prefix install keeps the Node shim, so
  // the native binary is called here as a user's global install would call it.
  const arch = process.arch === 'x64' ? 'x64' : process.arch;
  const native = join(PEERS, 'node_modules', 'agent-browser', 'bin', `agent-browser-${process.platform}-${arch}`);
  const run = existsSync(native) ? native : bin;
  const version = execFileSync(run, ['--version'], { encoding: 'utf8' }).trim();
  if (!version.endsWith(AGENT_BROWSER.split('@')[1])) throw new Error(`expected ${AGENT_BROWSER}, found ${version}`);
  return run;
}
