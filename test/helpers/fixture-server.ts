// A real loopback HTTP server for the fixture site (test/fixtures/site), plus a few dynamic
// routes the end-to-end tests need (cookies, slow responses, redirects, status codes).
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { extname, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';

export const SITE_ROOT = fileURLToPath(new URL('../fixtures/site/', import.meta.url));

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.txt': 'text/plain; charset=utf-8',
};

export interface FixtureServer {
  url: string;
  origin: string;
  /** Requests seen, in order (method + path), for tests that check what was fetched. */
  requests: Array<{ method: string; path: string; cookie?: string; headers: http.IncomingHttpHeaders }>;
  /** Sign-in tokens issued by /signin (cookie `auth`), to user names; /whoami recognises them.
   * Tests assert that no output ever contains one. */
  signins: Map<string, string>;
  /** Serves `html` at `path` from now on, over any file of the site: a test that changes a page
   * between two calls (a saved flow's drift). */
  setPage(path: string, html: string): void;
  /** Answers `path` with a 302 to `location` from now on (a redirect a test chooses). */
  setRedirect(path: string, location: string): void;
  close(): Promise<void>;
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let body = '';
    req.setEncoding('utf8').on('data', (d) => (body += d));
    req.on('end', () => resolve(body));
  });
}

export async function startFixtureServer(): Promise<FixtureServer> {
  const requests: FixtureServer['requests'] = [];
  const signins = new Map<string, string>();
  const pages = new Map<string, string>();
  const redirects = new Map<string, string>();
  const server = http.createServer(async (req, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    requests.push({ method: req.method ?? 'GET', path: u.pathname, cookie: req.headers.cookie, headers: req.headers });
    try {
      switch (u.pathname) {
        case '/set-cookie': {
          const name = u.searchParams.get('name') ?? 'sid';
          const value = u.searchParams.get('value') ?? 'v1';
          res.writeHead(200, {
            'content-type': 'text/html; charset=utf-8',
            // `session=1`: no Max-Age, a session cookie (a login without "Remember me").
            'set-cookie': `${name}=${value}; Path=/;${u.searchParams.get('session') ? '' : ' Max-Age=86400;'} SameSite=Lax`,
          });
          res.end(`<title>cookie set</title><p>set ${name}</p>`);
          return;
        }
        case '/api/me': {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ cookie: req.headers.cookie ?? '' }));
          return;
        }
        case '/slow': {
          const ms = Number(u.searchParams.get('ms') ?? '5000');
          // `?cookie=NAME`: the late answer also sets a cookie (a reply that lands after its call).
          const late = u.searchParams.get('cookie');
          setTimeout(() => {
            res.writeHead(200, { 'content-type': 'text/html', ...(late ? { 'set-cookie': `${late.replace(/[^\w-]/g, '')}=1; Path=/; Max-Age=86400` } : {}) });
            res.end('<title>slow</title>slow');
          }, ms);
          return;
        }
        case '/status': {
          const code = Number(u.searchParams.get('code') ?? '200');
          res.writeHead(code, { 'content-type': 'text/plain' });
          res.end(`status ${code}`);
          return;
        }
        case '/redirect': {
          res.writeHead(302, { location: u.searchParams.get('to') ?? '/' });
          res.end();
          return;
        }
        case '/signin': {
          // A sign-in form (GET; `?auto=NAME` submits itself for NAME on load). POST, or GET with
          // `?user=NAME`, signs NAME in: a random token in the HttpOnly cookie `auth`, a session
          // cookie unless `persist=1`.
          const user = req.method === 'POST' ? new URLSearchParams(await readBody(req)).get('user') : u.searchParams.get('user');
          if (!user) {
            const auto = u.searchParams.get('auto');
            res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
            // The title becomes "Sign in" once the field has the focus: a test that types into
            // the window waits for it.
            res.end(
              `<!doctype html><title>Loading</title><form method="post" action="/signin${u.search.replace(/[<>"]/g, '').replace(/&/g, '&amp;')}">` +
                `<label>User <input name="user"></label><button>Sign in</button></form>` +
                `<script>const f = document.forms[0]; f.user.focus(); if (document.activeElement === f.user) document.title = "Sign in";` +
                (auto ? `f.user.value=${JSON.stringify(auto).replace(/</g, '')}; f.submit();` : '') +
                `</script>`,
            );
            return;
          }
          const token = `SECRET-${randomBytes(12).toString('hex')}`;
          signins.set(token, user);
          // `slow=MS`: the answer comes MS after the sign-in is recorded, so a test can press
          // Enter while the cookie is still on its way.
          const slow = Math.min(Number(u.searchParams.get('slow')) || 0, 5_000);
          if (slow) await new Promise((r) => setTimeout(r, slow));
          const persist = u.searchParams.get('persist') === '1' ? '; Max-Age=86400' : '';
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'set-cookie': `auth=${token}; Path=/; HttpOnly; SameSite=Lax${persist}` });
          res.end(`<!doctype html><title>Signed in</title><p>Welcome ${user.replace(/[<&]/g, '')}</p>`);
          return;
        }
        case '/whoami': {
          const token = /(?:^|;\s*)auth=([^;]*)/.exec(req.headers.cookie ?? '')?.[1];
          const who = (token && signins.get(token)) ?? 'nobody';
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
          res.end(`<!doctype html><title>whoami</title><p id="who">${who.replace(/[<&]/g, '')}</p>`);
          return;
        }
        case '/echo-title': {
          const t = u.searchParams.get('t') ?? 'echo';
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
          res.end(`<!doctype html><title>${t.replace(/[<&]/g, '')}</title><h1>${t.replace(/[<&]/g, '')}</h1>`);
          return;
        }
      }
      const to = redirects.get(u.pathname);
      if (to !== undefined) {
        res.writeHead(302, { location: to }).end();
        return;
      }
      const page = pages.get(u.pathname);
      if (page !== undefined) {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(req.method === 'HEAD' ? undefined : page);
        return;
      }
      let rel = decodeURIComponent(u.pathname);
      if (rel.endsWith('/')) rel += 'index.html';
      const file = resolve(SITE_ROOT, '.' + rel);
      if (!file.startsWith(SITE_ROOT.replace(/[\\/]$/, '') + sep)) {
        res.writeHead(403).end();
        return;
      }
      const st = await stat(file).catch(() => undefined);
      if (!st || !st.isFile()) {
        res.writeHead(404, { 'content-type': 'text/html' }).end('<title>Not found</title>not found');
        return;
      }
      const body = await readFile(file);
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
      res.end(req.method === 'HEAD' ? undefined : body);
    } catch (err) {
      res.writeHead(500).end(String(err));
    }
  });
  // Node closes an idle kept-alive socket after 5 s; on a loaded machine a client (Playwright's
  // request client) could reuse one just as it closed and read ECONNRESET. close() ends them all.
  server.keepAliveTimeout = 120_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    url: origin + '/',
    origin,
    requests,
    signins,
    setPage: (path, html) => void pages.set(path, html),
    setRedirect: (path, location) => void redirects.set(path, location),
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections?.();
        server.close(() => r());
      }),
  };
}
