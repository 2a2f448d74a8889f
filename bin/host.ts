// Entry of a host process (driver/hosts/server.ts), bundled next to the CLI: `host.js session
// <profileDir>` or `host.js render`. It serves `gstack` invocations through the same CLI code
// (bin/cli.ts) a normal process runs, with the host's browser lent to each call.
import { runHost, type CallRequest } from '../driver/hosts/server.js';
import { loadPlaywright } from '../driver/browser/playwright-load.js';
import { loadCatalog } from '../driver/catalog.js';
import { watchIntrinsics } from '../driver/hosts/tamper.js';
import { sealSharedPrototypes } from '../driver/runtime/sandbox.js';
import type { CliIo } from '../driver/cli/process-io.js';
import type { CallIo } from '../driver/call-io.js';

async function main(): Promise<void> {
  const [kind, profileDir] = process.argv.slice(2);
  // No shared pool for small Buffers in a process that serves many calls: Playwright's small
  // answers (a response body, a short screenshot) would otherwise be slices of a pool whose
  // `.buffer` holds what earlier calls encoded (pass 30, C30; the script's own Buffers are
  // unpooled in driver/runtime/sandbox.ts).
  Buffer.poolSize = 0;
  if (kind === 'session' && profileDir) {
    const { runResolvedCall } = await import('../driver/cli/call.js');
    const { SessionBrowser, browserIdleMs } = await import('../driver/hosts/session-browser.js');
    const browser = new SessionBrowser(profileDir);
    let lastKey: string | undefined;
    const binding = { profileDir, browser, noteKey: (k: string) => void (lastKey = k) };
    await runHost({
      target: { kind: 'session', profileDir },
      preload: async () => {
        loadPlaywright();
        loadCatalog();
        await Promise.all([
          import('../driver/runner/run-script.js'),
          import('../driver/engines/chromium.js'),
          import('../driver/browser/chromium-process.js'),
          import('../driver/engines/select.js'),
          import('../driver/sessions/lock.js'),
          import('../driver/sessions/registry.js'),
          import('../driver/profiles/daily-sweep.js'),
          import('../driver/runtime/sandbox.js'),
          import('../cookbook/index.js'),
          import('../driver/cli/flow-call.js'),
          import('../driver/cli/flows.js'),
        ]);
      },
      // Sealed before the watch starts, so its baseline is the sealed state (sandbox.ts says why).
      tamper: () => {
        sealSharedPrototypes();
        return watchIntrinsics();
      },
      serve: (req: CallRequest, io: CallIo) =>
        req.call ? runResolvedCall(req.call, { ...io, argv: [], exitCode: 0, inHost: true, sessionHost: binding } satisfies CliIo) : Promise.resolve(2),
      shutdownBrowsers: () => browser.shutdown(),
      browserPid: () => browser.browserPid,
      lastKey: () => lastKey,
      onIdle: (idleMs) => browser.shed(idleMs, browserIdleMs()),
    });
    return;
  }
  if (kind === 'render') {
    const { runCli } = await import('./cli.js');
    const { RenderBrowserPool, installRenderBrowserPool } = await import('../render/engines/browser-pool.js');
    const pool = new RenderBrowserPool();
    installRenderBrowserPool(pool);
    await runHost({
      target: { kind: 'render' },
      preload: async () => {
        loadPlaywright();
        loadCatalog();
        await Promise.all([
          import('../render/cli/render-cli.js'),
          import('../render/index.js'),
          import('../render/orchestrate/run-render.js'),
          import('../render/engines/chromium-render.js'),
          import('../render/markdown/make-pdf.js'),
          import('../render/mermaid/diagram.js'),
          // The Markdown parser's worker, its modules loaded before the first pdf asks.
          import('../render/markdown/convert.js').then((m) => m.prewarmConvertWorker()),
        ]);
      },
      serve: (req: CallRequest, io: CallIo) => runCli({ ...io, argv: req.argv ?? [], exitCode: 0, inHost: true } satisfies CliIo),
      shutdownBrowsers: () => pool.closeAll(),
    });
    return;
  }
  process.stderr.write('usage: host.js session <profileDir> | host.js render\n');
  process.exit(2);
}

main().catch((err) => { if (process.env.GSTACK_HOST_DEBUG) console.error(err); process.exit(1); });
