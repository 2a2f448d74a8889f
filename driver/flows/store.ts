// Where saved flows live and what happened to them (docs/ARCHITECTURE.md, "Saved flows").
// A project's flows are `.gstack/flows/NAME.js` under its git root, found from any folder of
// the repository and from none outside it, so they are committed and reviewed with the code;
// a user's own are under `GSTACK_HOME/flows/` (`--global`). A name is looked up in the project
// first. Each flow's last pass and failure are the user's, not the repository's: they are kept
// under `GSTACK_HOME/flows-state/`, keyed by the flow file's path, so a run never rewrites a
// committed file.
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, realpath, rename, writeFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { gitTopLevel, gstackHome } from '../sessions/key.js';
import { CommandError } from '../command-errors.js';

export type FlowWhere = 'project' | 'global';

export interface FlowLocation {
  name: string;
  where: FlowWhere;
  file: string;
}

export interface FlowDirs {
  /** `.gstack/flows` under the repository's root; undefined outside a repository. */
  project?: string;
  global: string;
}

/** A flow's name: no path, never read as a flag (`gstack mcp` checks it with the same rule). */
export const FLOW_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
const NAME = FLOW_NAME;

/** A flow's name is its file's (NAME.js, beside its history file's hash): well inside the 255
 * bytes a file name may have. */
const MAX_FLOW_NAME = 100;

export function checkFlowName(name: string | undefined): string {
  if (!name) throw new CommandError('flows', 'FLOW_INVALID', 'Name the flow: gstack flows <save|run|show> NAME. `gstack flows list` shows the saved ones.');
  if (!NAME.test(name) || name.endsWith('.js')) {
    throw new CommandError('flows', 'FLOW_INVALID', `"${name}" is not a flow name: use letters, digits, ".", "_" and "-" (no path, no .js), e.g. signup or checkout-guest.`);
  }
  // Before anything runs: a name longer than a file name may be failed only after `save` had
  // run the whole flow, with Node's ENAMETOOLONG (pass 31, C31).
  if (name.length > MAX_FLOW_NAME) {
    throw new CommandError('flows', 'FLOW_INVALID', `A flow name is at most ${MAX_FLOW_NAME} characters (this one has ${name.length}): it is a file name. Pick a shorter one.`);
  }
  return name;
}

export function flowDirs(cwd: string, env: NodeJS.ProcessEnv): FlowDirs {
  const top = gitTopLevel(cwd);
  return { project: top ? join(top, '.gstack', 'flows') : undefined, global: join(gstackHome(env), 'flows') };
}

async function namesIn(dir: string | undefined): Promise<string[]> {
  if (!dir) return [];
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile() && e.name.endsWith('.js') && NAME.test(e.name.slice(0, -3))).map((e) => e.name.slice(0, -3)).sort();
}

/** Every flow this directory sees: the project's, then the global ones. */
export async function listFlowLocations(dirs: FlowDirs): Promise<FlowLocation[]> {
  const out: FlowLocation[] = [];
  for (const name of await namesIn(dirs.project)) out.push({ name, where: 'project', file: join(dirs.project!, `${name}.js`) });
  for (const name of await namesIn(dirs.global)) out.push({ name, where: 'global', file: join(dirs.global, `${name}.js`) });
  return out;
}

/** The flow NAME resolves to (the project's before the global one), or FLOW_NOT_FOUND. */
export async function findFlow(name: string, dirs: FlowDirs): Promise<FlowLocation> {
  checkFlowName(name);
  const hit = (await listFlowLocations(dirs)).find((f) => f.name === name);
  if (hit) return hit;
  const looked = [dirs.project ?? '(no repository here)', dirs.global].join(' and ');
  throw new CommandError('flows', 'FLOW_NOT_FOUND', `No saved flow "${name}" in ${looked}. \`gstack flows list\` shows the flows this directory sees; a project's flows are found only from inside its repository.`);
}

/** Writes a flow file whole (a reader never sees half of one); refuses to replace one unless `force`.
 * The file stays inside `root` (the repository, or GSTACK_HOME): a `.gstack` or `flows` folder
 * that is a link to elsewhere would put the flow outside what the user reviews and commits. */
export async function writeFlow(file: string, content: string, force: boolean, root: string): Promise<void> {
  await mkdir(join(file, '..'), { recursive: true });
  const [dir, top] = await Promise.all([realpath(join(file, '..')), realpath(root)]);
  if (dir !== top && !dir.startsWith(top + sep)) {
    throw new CommandError('flows', 'FLOW_INVALID', `Not saved: ${join(file, '..')} leads to ${dir} through a link, outside ${root}. Make it a real folder, or save with --global.`);
  }
  if (!force) {
    try {
      await writeFile(file, content, { flag: 'wx' });
      return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      throw new CommandError('flows', 'FLOW_EXISTS', `A flow is already saved at ${file}. Pick another name, or pass --force to replace it.`);
    }
  }
  const tmp = `${file}.${randomBytes(4).toString('hex')}.tmp`;
  await writeFile(tmp, content);
  await rename(tmp, file);
}

export interface FlowHistory {
  file: string;
  lastPass?: { at: string; engine: string | null };
  lastFailure?: { at: string; exitCode: number; error: string | null };
  /** The last `flows check`: whether the evidence matched. A later exit-0 `flows run` sets
   * lastPass, not this (trial V4: a run after a drift made the list read as passing again). */
  lastCheck?: { at: string; status: 'pass' | 'drift' };
}

function historyFile(file: string, env: NodeJS.ProcessEnv): string {
  return join(gstackHome(env), 'flows-state', `${createHash('sha256').update(file).digest('hex').slice(0, 16)}.json`);
}

export async function readHistory(file: string, env: NodeJS.ProcessEnv): Promise<FlowHistory> {
  try {
    const h = JSON.parse(await readFile(historyFile(file, env), 'utf8')) as FlowHistory;
    return h.file === file ? h : { file };
  } catch {
    return { file };
  }
}

/** Records a run of the flow at `file`. Never throws: the history is a convenience. */
export async function recordRun(file: string, env: NodeJS.ProcessEnv, run: { exitCode: number; engine: string | null; error: string | null }, check?: 'pass' | 'drift'): Promise<void> {
  try {
    const h = await readHistory(file, env);
    const at = new Date().toISOString();
    if (run.exitCode === 0) h.lastPass = { at, engine: run.engine };
    else h.lastFailure = { at, exitCode: run.exitCode, error: run.error };
    if (check) h.lastCheck = { at, status: check };
    const path = historyFile(file, env);
    await mkdir(join(path, '..'), { recursive: true, mode: 0o700 });
    const tmp = `${path}.${randomBytes(4).toString('hex')}.tmp`;
    await writeFile(tmp, JSON.stringify(h) + '\n', { mode: 0o600 });
    await rename(tmp, path);
  } catch {
    /* a read-only GSTACK_HOME loses the history, not the run */
  }
}

/** A flow's file as a path to show: relative to cwd when under it. */
export function displayPath(file: string, cwd: string): string {
  const rel = relative(cwd, file);
  return rel && !rel.startsWith('..') ? rel : file;
}
