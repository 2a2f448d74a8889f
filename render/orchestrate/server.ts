// The loopback server a render reads its page through (docs/ARCHITECTURE.md, "Rendering"). Browsers refuse
// or mishandle file://, so one directory is served over HTTP for the length of one render —
// and this server must never become a way to read the rest of the disk:
//   - binds 127.0.0.1 on an ephemeral port, and answers only Host 127.0.0.1:<port>
//     (or localhost:<port>), so a DNS-rebinding page elsewhere cannot reach it;
//   - every URL starts with a random secret segment; anything else is 404;
//   - each path segment is percent-decoded strictly (malformed -> 400), and a decoded
//     segment may not smuggle a separator or NUL (-> 400);
//   - the lexical path and then the real path (symlinks resolved) must stay under the real
//     root on every request (-> 403 otherwise);
//   - a path with a segment that starts with a dot (.ssh, .git, .env), as asked or as its real
//     path, is 404: a served directory may be a home or a project whose dotfiles hold keys;
//   - directories are 404 and never listed; only GET and HEAD are answered.
// What this does not do: hide anything else under the root. broadRootWarning says when the
// root is wider than a page should see ($HOME, /, above the file's project).
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { existsSync, realpathSync } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { AddressInfo } from 'node:net';
import mime from 'mime-types';

export interface LoopbackServerOptions {
  /** The directory served. */
  root: string;
  /** In-memory files keyed by POSIX path relative to root; they win over disk. */
  files?: Record<string, string | Uint8Array>;
  /** When set, a second secret prefix serves the same files with these headers added (an
   * offline Content-Security-Policy for engines that cannot intercept requests themselves);
   * the page's URL picks the variant, and its relative URLs stay under it. */
  offlineHeaders?: Record<string, string>;
}

export interface LoopbackServer {
  /** http://127.0.0.1:<port> */
  origin: string;
  /** The random first path segment every URL must carry. */
  secret: string;
  /** The second random segment that adds offlineHeaders (when those were given). */
  offlineSecret?: string;
  /** URL of a file under the root (absolute path or relative to the root); `offline` picks
   * the offlineHeaders variant. */
  urlFor(file: string, opts?: { offline?: boolean }): string;
  close(): Promise<void>;
}

/** Content type for a file name, with charset for text types; octet-stream when unknown. */
export function contentTypeFor(name: string): string {
  return mime.contentType(name.split('/').pop() ?? name) || 'application/octet-stream';
}

/** Whether `candidate` is `root` or below it (lexically; callers realpath first where it matters). */
export function isInside(root: string, candidate: string): boolean {
  const rel = relative(root, candidate);
  return rel === '' || (!rel.startsWith('..' + sep) && rel !== '..' && !isAbsolute(rel));
}

/** A path below the root (relative, either separator) with a segment like .ssh or .env. */
function hasDotSegment(rel: string): boolean {
  return rel.split(/[\\/]/).some((seg) => seg.startsWith('.'));
}

/** Splits a request path after the secret into decoded segments. Returns 400 on malformed
 * percent-encoding or a decoded segment that carries a separator or NUL. */
function decodeSegments(rawSegments: string[]): string[] | 400 {
  const out: string[] = [];
  for (const raw of rawSegments) {
    let seg: string;
    try {
      seg = decodeURIComponent(raw);
    } catch {
      return 400;
    }
    if (/[\\/\0]/.test(seg)) return 400;
    out.push(seg);
  }
  return out;
}

export async function startLoopbackServer(opts: LoopbackServerOptions): Promise<LoopbackServer> {
  const root = await realpath(opts.root);
  if (!(await stat(root)).isDirectory()) throw new Error(`serve root is not a directory: ${opts.root}`);
  const secret = randomBytes(16).toString('hex');
  const offlineSecret = opts.offlineHeaders ? randomBytes(16).toString('hex') : undefined;
  const memory = new Map<string, Buffer>();
  for (const [k, v] of Object.entries(opts.files ?? {})) {
    const key = k.replace(/^\/+/, '');
    memory.set(key, typeof v === 'string' ? Buffer.from(v, 'utf8') : Buffer.from(v));
  }
  let port = 0;

  const server = http.createServer((req, res) => {
    const method = req.method ?? 'GET';
    const rawPath = (req.url ?? '/').split(/[?#]/, 1)[0];
    const finish = (status: number, body?: string, headers: Record<string, string> = {}): void => {
      const text = body ?? `${status} ${http.STATUS_CODES[status] ?? ''}\n`;
      res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', ...headers });
      res.end(method === 'HEAD' ? undefined : text);
    };
    serve().catch(() => {
      if (!res.headersSent) finish(500);
      else res.destroy();
    });

    async function serve(): Promise<void> {
      const host = req.headers.host ?? '';
      if (host !== `127.0.0.1:${port}` && host !== `localhost:${port}`) return finish(403);
      if (method !== 'GET' && method !== 'HEAD') return finish(405, undefined, { allow: 'GET, HEAD' });

      const parts = rawPath.split('/');
      // parts[0] is '' (the path starts with '/'); parts[1] must be the secret.
      const offline = offlineSecret !== undefined && parts[1] === offlineSecret;
      if (parts[0] !== '' || (parts[1] !== secret && !offline)) return finish(404);
      const rest = parts.slice(2);
      if (rest.length === 0 || rest[rest.length - 1] === '') return finish(404); // directory URL
      const segments = decodeSegments(rest);
      if (segments === 400) return finish(400);

      const lexical = resolve(root, ...segments);
      if (!isInside(root, lexical)) return finish(403);

      const key = relative(root, lexical).split(sep).join('/');
      if (hasDotSegment(key)) return finish(404);
      const inMemory = memory.get(key);
      if (inMemory) return sendBuffer(inMemory, key, offline);

      let real: string;
      try {
        real = await realpath(lexical);
      } catch {
        return finish(404);
      }
      if (!isInside(root, real)) return finish(403);
      if (hasDotSegment(relative(root, real))) return finish(404); // a link to a dotfile
      const info = await stat(real);
      if (!info.isFile()) return finish(404);
      res.writeHead(200, fileHeaders(key, info.size, offline));
      if (method === 'HEAD') return void res.end();
      await new Promise<void>((done, fail) => {
        const stream = createReadStream(real);
        stream.on('error', fail);
        res.on('close', () => {
          stream.destroy();
          done();
        });
        stream.pipe(res);
      });
    }

    function sendBuffer(body: Buffer, key: string, offline: boolean): void {
      res.writeHead(200, fileHeaders(key, body.length, offline));
      res.end(method === 'HEAD' ? undefined : body);
    }
  });

  function fileHeaders(name: string, size: number, offline: boolean): Record<string, string> {
    return {
      'content-type': contentTypeFor(name),
      'content-length': String(size),
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      ...(offline ? opts.offlineHeaders : undefined),
    };
  }

  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => ok());
  });
  port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;

  return {
    origin,
    secret,
    offlineSecret,
    urlFor(file: string, urlOpts: { offline?: boolean } = {}): string {
      const abs = isAbsolute(file) ? file : join(root, file);
      const rel = relative(root, abs);
      if (!isInside(root, abs)) throw new Error(`${file} is not under the served root ${root}`);
      if (urlOpts.offline && !offlineSecret) throw new Error('this server has no offline variant (offlineHeaders not given)');
      const prefix = urlOpts.offline ? offlineSecret : secret;
      return `${origin}/${prefix}/${rel.split(sep).map(encodeURIComponent).join('/')}`;
    },
    close(): Promise<void> {
      return new Promise((done) => {
        server.close(() => done());
        server.closeAllConnections();
      });
    },
  };
}

/** Markers of a project's top directory: serving a directory above one exposes other projects. */
const PROJECT_MARKERS = ['.git', 'package.json'];

/**
 * One stderr line when `root` is wider than a page should see: the file system root, the home
 * directory (or a directory holding it), or a directory above the project `file` belongs to
 * (the nearest directory up from the file with a .git or package.json). Undefined otherwise.
 */
export function broadRootWarning(root: string, file: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const real = (p: string) => {
    try {
      return realpathSync(p);
    } catch {
      return resolve(p);
    }
  };
  const home = real(env.HOME || homedir());
  let why: string | undefined;
  if (dirname(root) === root) why = 'the file system root';
  else if (root === home) why = 'your home directory';
  else if (isInside(root, home)) why = `a directory that holds your home directory (${home})`;
  else {
    for (let dir = dirname(file); isInside(root, dir) && dir !== root; dir = dirname(dir)) {
      if (PROJECT_MARKERS.some((m) => existsSync(join(dir, m)))) {
        why = `above the project the file belongs to (${dir})`;
        break;
      }
    }
  }
  return why && `gstack render: the served root ${root} is ${why}; the page can fetch every file under it except dot-paths. Pass --serve-root with the smallest directory the page needs.`;
}
