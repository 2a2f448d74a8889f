// Where `render`, `pdf` and `diagram` may read and write over MCP (docs/SECURITY.md, section 3):
// inside the client's roots (the folders an MCP client declares as the user's workspace), or,
// when the client declares none, inside the server's working directory.
//
// Owns: the allowed folders (asked of the client once, asked again when it says its roots
// changed), and confining a call's path arguments (the catalog's `paths` of each tool) to them.
// A CLI user names any path their shell can; an MCP client is only granted tools, so without this
// a client could write `~/.bashrc` through `render`'s eval `out`, or print `/etc/passwd` into a PDF
// through a header "file".
//
// A path is checked as the OS will open it: symlinks resolved, `..` taken physically (a
// `link/..` leaves where the link points, not where the text is). The command then gets the
// resolved path instead of the client's text, so what runs is what was checked; a name that
// does not exist yet is checked by its nearest existing folder, and a symlink whose target is
// missing (a write would create the target) is refused.
import { lstatSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ToolDef } from './tools.js';

/** The folders a call may touch, and what they are (for the error that names them). */
export interface AllowedRoots {
  dirs: string[];
  source: 'client' | 'cwd';
}

/** A path argument outside the allowed folders; the message names the field and the folders. */
export class PathOutsideRootsError extends Error {}

/** The client's `file://` roots as real folders (others, and folders that do not exist, dropped). */
export function rootDirs(uris: readonly string[]): string[] {
  const out: string[] = [];
  for (const uri of uris) {
    if (!uri.startsWith('file:')) continue;
    try {
      const real = realpathSync.native(fileURLToPath(uri));
      if (!out.includes(real)) out.push(real);
    } catch {
      // a root that is not a folder here (another machine's path, removed since) allows nothing
    }
  }
  return out;
}

function missing(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/** `p` (absolute, as the client wrote it) as the OS resolves it: every existing part through
 * realpath, the missing tail appended. Throws for a dangling symlink on the way. */
export function physicalPath(p: string): string {
  try {
    // .native is realpath(3): Node's own realpathSync drops `x/..` as text before it looks.
    return realpathSync.native(p);
  } catch (err) {
    if (!missing(err)) throw err;
  }
  let exists = false;
  try {
    lstatSync(p);
    exists = true;
  } catch {
    // not there: a name to create
  }
  if (exists) throw new PathOutsideRootsError(`${p} is a symlink whose target does not exist; writing there would create the target wherever it points`);
  const parent = dirname(p);
  if (parent === p) return p;
  const base = basename(p);
  const real = physicalPath(parent);
  // The parent does not exist either, so `..` and `.` of it are plain text: nothing to follow.
  if (base === '..') return dirname(real);
  if (base === '.' || base === '') return real;
  return join(real, base);
}

export function inside(p: string, dir: string): boolean {
  return p === dir || p.startsWith(dir.endsWith(sep) ? dir : dir + sep);
}

function describeRoots(allowed: AllowedRoots): string {
  return allowed.source === 'client'
    ? `the client's roots: ${allowed.dirs.join(', ')}`
    : `the server's working directory ${allowed.dirs[0]} (the client declared no roots)`;
}

/**
 * The call's arguments with each path argument checked and replaced by its resolved path.
 * Throws PathOutsideRootsError naming the first field outside `allowed`.
 */
export function confinePaths(tool: ToolDef, args: Record<string, unknown>, allowed: AllowedRoots, cwd: string): Record<string, unknown> {
  if (!tool.paths.length) return args;
  const names = new Set(tool.paths);
  const check = (field: string, key: string, value: unknown): unknown => {
    if (Array.isArray(value)) return value.map((v, i) => check(`${field}[${i}]`, key, v));
    if (typeof value !== 'string') return value;
    // Not join(): it would drop `link/..` as text before the OS follows the link.
    const abs = isAbsolute(value) ? value : `${cwd}${sep}${value}`;
    // A header/footer is a file only when it is not HTML and names something (the CLI's rule,
    // render/cli/cli-args.ts); anything else is the template itself.
    if ((key === 'header' || key === 'footer') && (value.includes('<') || !existsPath(resolve(cwd, value)))) return value;
    let real: string;
    try {
      real = physicalPath(abs);
    } catch (err) {
      if (err instanceof PathOutsideRootsError) throw new PathOutsideRootsError(`\`${field}\`: ${err.message}. Give a path under ${describeRoots(allowed)}.`);
      throw new PathOutsideRootsError(`\`${field}\` ${value} cannot be resolved (${(err as Error).message}). Give a path under ${describeRoots(allowed)}.`);
    }
    if (!allowed.dirs.some((d) => inside(real, d))) {
      const via = real === resolve(abs) ? '' : ` (it resolves to ${real})`;
      throw new PathOutsideRootsError(
        `\`${field}\` ${value}${via} is outside the folders this MCP server may read and write, ${describeRoots(allowed)}. Give a path under one of them, or ask the user to add the folder to the client's roots.`,
      );
    }
    return real;
  };
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(args)) {
    if (k === 'steps' && Array.isArray(v)) {
      out.steps = v.map((step: Record<string, unknown>, i) => Object.fromEntries(Object.entries(step).map(([sk, sv]) => [sk, names.has(sk) ? check(`steps[${i}].${sk}`, sk, sv) : sv])));
    } else out[k] = names.has(k) ? check(k, k, v) : v;
  }
  return out;
}

function existsPath(p: string): boolean {
  try {
    lstatSync(p);
    return true;
  } catch {
    return false;
  }
}

/** The allowed folders of one connection: the client's roots, asked once and again after the
 * client says they changed; the server's working directory when it declares none. */
export class Roots {
  private pending?: Promise<AllowedRoots>;

  constructor(
    private readonly opts: {
      cwd: string;
      /** Whether the client declared the roots capability (known once it has initialized). */
      declared(): boolean;
      list(): Promise<string[]>;
      log(line: string): void;
    },
  ) {}

  /** The client said its roots changed (notifications/roots/list_changed). */
  changed(): void {
    this.pending = undefined;
  }

  allowed(): Promise<AllowedRoots> {
    this.pending ??= this.fetch();
    return this.pending;
  }

  private async fetch(): Promise<AllowedRoots> {
    const cwd: AllowedRoots = { dirs: [physicalPath(resolve(this.opts.cwd))], source: 'cwd' };
    if (!this.opts.declared()) return cwd;
    try {
      const dirs = rootDirs(await this.opts.list());
      if (dirs.length) return { dirs, source: 'client' };
      this.opts.log(`gstack mcp: the client declared roots but none is a local folder; files are confined to ${cwd.dirs[0]}.`);
    } catch (err) {
      // Asked again on the next call: a client may answer later.
      this.pending = undefined;
      this.opts.log(`gstack mcp: the client did not list its roots (${(err as Error).message}); files are confined to ${cwd.dirs[0]} for this call.`);
    }
    return cwd;
  }
}
