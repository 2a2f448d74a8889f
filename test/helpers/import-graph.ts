// The import graph of the project's own sources, and the cycles in it. Every kind of import is
// an edge: static, type-only (`import type`), re-exports (`export ... from`) and dynamic
// `import()` — a cycle through a type or a lazy import still means neither file can be read,
// tested or moved without the other.
//
// TypeScript's own `preProcessFile` lists each file's imports (the scanner tsc uses, so no
// regex guesses at syntax); a relative specifier is resolved the way NodeNext does for this
// project (`./x.js` names `./x.ts`). Bare specifiers are packages and are not followed.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

const SOURCE = /\.(ts|mts|js|mjs)$/;

export interface ImportGraph {
  /** Absolute path -> the absolute paths it imports (project files only). */
  edges: Map<string, string[]>;
  /** Relative imports that name no file: "from.ts: './gone.js'". */
  unresolved: string[];
}

/** Source files under each directory (recursively; no .d.ts, no node_modules). */
export function sourceFiles(dirs: string[]): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) {
        if (e.name !== 'node_modules') walk(p);
      } else if (SOURCE.test(e.name) && !e.name.endsWith('.d.ts')) out.push(p);
    }
  };
  for (const d of dirs) walk(d);
  return out.sort();
}

function resolveSpecifier(from: string, spec: string): string | undefined | null {
  if (!spec.startsWith('.')) return null; // a package
  if (/\.(json|css|html)$/.test(spec)) return null; // data, not code
  const base = resolve(dirname(from), spec);
  const candidates = /\.(m?js)$/.test(base) ? [base.replace(/\.(m?)js$/, '.$1ts'), base] : [base, `${base}.ts`, join(base, 'index.ts')];
  return candidates.find((c) => existsSync(c) && statSync(c).isFile());
}

/** The graph reachable from `files`: imported project files outside them are followed too. */
export function importGraph(files: string[]): ImportGraph {
  const edges = new Map<string, string[]>();
  const unresolved: string[] = [];
  const queue = [...files];
  while (queue.length) {
    const file = queue.pop()!;
    if (edges.has(file)) continue;
    const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets: string[] = [];
    for (const { fileName } of info.importedFiles) {
      const target = resolveSpecifier(file, fileName);
      if (target === null) continue;
      if (target === undefined) {
        unresolved.push(`${file}: '${fileName}'`);
        continue;
      }
      if (!targets.includes(target)) targets.push(target);
      queue.push(target);
    }
    edges.set(file, targets);
  }
  return { edges, unresolved };
}

/** One cycle per strongly connected component of the graph (Tarjan), each as the path
 * a -> b -> ... -> a, so a failure names the imports to cut. */
export function findCycles<T>(edges: Map<T, T[]>): T[][] {
  let counter = 0;
  const index = new Map<T, number>();
  const low = new Map<T, number>();
  const stack: T[] = [];
  const onStack = new Set<T>();
  const components: T[][] = [];
  const visit = (v: T) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const c: T[] = [];
      let w: T;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        c.push(w);
      } while (w !== v);
      if (c.length > 1 || (edges.get(v) ?? []).includes(v)) components.push(c);
    }
  };
  for (const v of edges.keys()) if (!index.has(v)) visit(v);
  return components.map((c) => cycleWithin(edges, new Set(c), c[c.length - 1]));
}

/** The shortest path from `start` back to itself inside one component. */
function cycleWithin<T>(edges: Map<T, T[]>, members: Set<T>, start: T): T[] {
  const prev = new Map<T, T>();
  const queue: T[] = [start];
  while (queue.length) {
    const v = queue.shift()!;
    for (const w of edges.get(v) ?? []) {
      if (!members.has(w)) continue;
      if (w === start) {
        const path = [v];
        while (path[0] !== start) path.unshift(prev.get(path[0])!);
        return [...path, start];
      }
      if (!prev.has(w)) {
        prev.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start, start];
}

/** The same graph between folders: an edge from a file's folder to an imported file's folder
 * (both under `root`, e.g. render/api -> render/engines). A cycle here is a layering problem. */
export function folderEdges(edges: Map<string, string[]>, root: string): Map<string, string[]> {
  const folder = (f: string) => relative(root, dirname(f)).split(sep).join('/') || '.';
  const inside = (f: string) => !relative(root, f).startsWith('..');
  const out = new Map<string, string[]>();
  for (const [from, tos] of edges) {
    if (!inside(from)) continue;
    const a = folder(from);
    if (!out.has(a)) out.set(a, []);
    for (const to of tos) {
      if (!inside(to)) continue;
      const b = folder(to);
      if (b !== a && !out.get(a)!.includes(b)) out.get(a)!.push(b);
    }
  }
  return out;
}

/** Written import directions: folder -> the folders it may import. A folder is a path relative
 * to the checked root ('driver/runtime'), the files directly in it ('driver' is driver/*.ts), or
 * one file that is a folder of its own ('driver/index.ts'). */
export type Directions = Map<string, string[]>;

export interface DirectionReport {
  /** Folders with files but no row: where may they import? */
  unlisted: string[];
  /** Rows for folders that hold no file. */
  stale: string[];
  /** Imports the rows do not allow: "from -> to (a file -> the file it imports)". */
  against: string[];
  /** Cycles between folders, in the imports (a -> b -> a). */
  cycles: string[];
  /** Cycles in the written rows themselves. */
  ruleCycles: string[];
}

/** Checks `edges` (absolute paths) against `directions`, folders named relative to `root`. */
export function checkDirections(edges: Map<string, string[]>, root: string, directions: Directions): DirectionReport {
  const rel = (f: string) => relative(root, f).split(sep).join('/');
  const folderOf = (f: string) => (directions.has(rel(f)) ? rel(f) : dirname(rel(f)));
  const folders = new Map<string, Set<string>>();
  const against: string[] = [];
  const seen = new Set<string>();
  for (const [from, tos] of edges) {
    if (rel(from).startsWith('..')) continue;
    const a = folderOf(from);
    if (!folders.has(a)) folders.set(a, new Set());
    for (const to of tos) {
      if (rel(to).startsWith('..')) continue;
      const b = folderOf(to);
      if (a === b) continue;
      folders.get(a)!.add(b);
      if (directions.has(a) && !directions.get(a)!.includes(b) && !seen.has(`${a}>${b}`)) {
        seen.add(`${a}>${b}`);
        against.push(`${a} -> ${b} (${rel(from)} -> ${rel(to)})`);
      }
    }
  }
  const asLists = (m: Map<string, Iterable<string>>) => new Map([...m].map(([k, v]) => [k, [...v]]));
  return {
    unlisted: [...folders.keys()].filter((f) => !directions.has(f)).sort(),
    stale: [...directions.keys()].filter((f) => !folders.has(f)).sort(),
    against: against.sort(),
    cycles: findCycles(asLists(folders)).map((c) => c.join(' -> ')),
    ruleCycles: findCycles(asLists(directions)).map((c) => c.join(' -> ')),
  };
}

/** The rows of the markdown table under `heading` in `markdown`: the first cell's folder
 * and the folders the second cell names (`—` for none). Trailing slashes are dropped, and
 * `driver/`'s row names the files directly in driver/. */
export function directionsFromMarkdown(markdown: string, heading: string): Directions {
  const at = markdown.indexOf(`\n${heading}\n`);
  if (at < 0) throw new Error(`no "${heading}" section`);
  const section = markdown.slice(at + heading.length + 2).split(/\n## /)[0];
  const out: Directions = new Map();
  const names = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1].replace(/\/$/, ''));
  for (const line of section.split('\n')) {
    const cells = line.split('|').slice(1, -1).map((c) => c.trim());
    if (cells.length < 2 || !cells[0].startsWith('`')) continue;
    const [folder] = names(cells[0]);
    if (out.has(folder)) throw new Error(`"${heading}": ${folder} has two rows`);
    out.set(folder, names(cells[1]));
  }
  return out;
}
