// `gstack skills list | get NAME [--full] | install [--dir DIR]`: how the generated skills reach
// an agent (README "Use it from your agent").
//
// Owns: finding the skills this installation ships (generated/<name>/SKILL.md, and the full
// reference next to it when there is one), printing them, and installing them where an agent
// looks for skills (default ~/.claude/skills/<name>/, as Claude Code reads them), together with
// a `gstack` shim that runs this installation, so the commands the skills show resolve even
// when `gstack` is not on PATH. An install never overwrites a skill directory it did not make.
import { GstackError } from '../errors.js';
import { chmod, copyFile, mkdir, readdir, readFile, rm, stat, symlink, writeFile, lstat, readlink } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { PROJECT_ROOT } from '../catalog.js';

export interface SkillInfo {
  name: string;
  description: string;
  dir: string;
  /** The files of the skill: SKILL.md (the core an agent reads first), REFERENCE.md (the full
   * reference it opens on demand), when present. */
  files: string[];
}

/** Marks a skill directory this tool installed (it may then replace it). */
const MARKER = '.gstack-driver';
/** The folder under the skills directory that holds the shim (it is not a skill: no SKILL.md). */
const SHIM_HOME = 'gstack-driver';
const SHIM_DIR = join(SHIM_HOME, 'bin');

/** An unknown skill (exit USAGE), or an install that would replace a folder it did not make
 * (exit SCRIPT_FAILED: nothing is wrong with the command line). */
export class SkillsError extends GstackError {}

const GENERATED = join(PROJECT_ROOT, 'generated');

function frontmatter(text: string): Record<string, string> {
  const m = /^---\n([\s\S]*?)\n---/.exec(text);
  const out: Record<string, string> = {};
  for (const line of m?.[1].split('\n') ?? []) {
    const kv = /^(\w[\w-]*):\s*(.*)$/.exec(line);
    if (kv) out[kv[1]] = kv[2];
  }
  return out;
}

export async function listSkills(): Promise<SkillInfo[]> {
  const out: SkillInfo[] = [];
  for (const entry of (await readdir(GENERATED, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name).sort()) {
    const dir = join(GENERATED, entry);
    if (!existsSync(join(dir, 'SKILL.md'))) continue;
    const fm = frontmatter(await readFile(join(dir, 'SKILL.md'), 'utf8'));
    const files = (await readdir(dir)).filter((f) => f.endsWith('.md')).sort((a, b) => (a === 'SKILL.md' ? -1 : b === 'SKILL.md' ? 1 : a.localeCompare(b)));
    out.push({ name: fm.name ?? entry, description: fm.description ?? '', dir, files });
  }
  return out;
}

async function findSkill(name: string): Promise<SkillInfo> {
  const all = await listSkills();
  const skill = all.find((s) => s.name === name);
  if (!skill) throw new SkillsError(`No skill named "${name}". \`gstack skills list\` names them: ${all.map((s) => s.name).join(', ')}.`, 'USAGE');
  return skill;
}

/** The core of a skill, or (full) the core followed by its reference. */
export async function skillText(name: string, full: boolean): Promise<string> {
  const skill = await findSkill(name);
  const parts: string[] = [];
  for (const f of full ? skill.files : ['SKILL.md']) parts.push(await readFile(join(skill.dir, f), 'utf8'));
  return parts.join('\n');
}

export interface InstallResult {
  dir: string;
  installed: Array<{ name: string; path: string }>;
  shim: string;
  /** The shim's directory, or a symlink to it, is on PATH: `gstack` resolves as is. */
  onPath: boolean;
  /** A PATH directory where `gstack` now points at the shim (~/.local/bin when it is on PATH). */
  linked?: string;
}

export function defaultSkillsDir(env: NodeJS.ProcessEnv): string {
  return join(env.HOME || homedir(), '.claude', 'skills');
}

/** Copies every skill into `dir/<name>/` and writes the shim; refuses to replace a skill
 * directory that is not ours. */
export async function installSkills(opts: { dir?: string; env: NodeJS.ProcessEnv; cwd: string }): Promise<InstallResult> {
  const dir = resolve(opts.cwd, opts.dir ?? defaultSkillsDir(opts.env));
  const skills = await listSkills();
  // Every folder is checked before anything is written, so a refusal leaves nothing half done.
  for (const target of [...skills.map((s) => join(dir, s.name)), join(dir, SHIM_HOME)]) {
    if (existsSync(target) && !existsSync(join(target, MARKER))) {
      throw new SkillsError(`${target} exists and was not installed by gstack-driver; not replacing it. Move it away, or install elsewhere with --dir DIR.`, 'SCRIPT_FAILED');
    }
  }
  const installed: InstallResult['installed'] = [];
  for (const s of skills) {
    const target = join(dir, s.name);
    await mkdir(target, { recursive: true });
    // A file an earlier version installed and this one no longer ships would be read as current.
    for (const old of (await readdir(target)).filter((f) => f.endsWith('.md') && !s.files.includes(f))) await rm(join(target, old));
    for (const f of s.files) await copyFile(join(s.dir, f), join(target, f));
    await writeFile(join(target, MARKER), `${PROJECT_ROOT}\n`);
    installed.push({ name: s.name, path: join(target, 'SKILL.md') });
  }
  const shimDir = join(dir, SHIM_DIR);
  await mkdir(shimDir, { recursive: true });
  await writeFile(join(dir, SHIM_HOME, MARKER), `${PROJECT_ROOT}\n`);
  const shim = join(shimDir, 'gstack');
  await writeFile(shim, shimScript(join(PROJECT_ROOT, 'dist', 'bin', 'gstack.cjs')));
  await chmod(shim, 0o755);
  const pathDirs = (opts.env.PATH ?? '').split(delimiter).filter(Boolean).map((p) => resolve(p));
  let onPath = pathDirs.includes(resolve(shimDir)) || (await gstackOnPath(pathDirs)) !== undefined;
  let linked: string | undefined;
  if (!onPath) {
    // A user's own bin directory on PATH gets a link to the shim (never replacing a gstack there).
    const localBin = join(opts.env.HOME || homedir(), '.local', 'bin');
    if (pathDirs.includes(resolve(localBin))) {
      const link = join(localBin, 'gstack');
      const existing = await lstat(link).catch(() => undefined);
      if (!existing) {
        await mkdir(localBin, { recursive: true });
        await symlink(shim, link);
        linked = link;
        onPath = true;
      } else if (existing.isSymbolicLink() && (await readlink(link)) === shim) {
        linked = link;
        onPath = true;
      }
    }
  }
  return { dir, installed, shim, onPath, linked };
}

async function gstackOnPath(dirs: string[]): Promise<string | undefined> {
  for (const d of dirs) {
    const p = join(d, 'gstack');
    if ((await stat(p).catch(() => undefined))?.isFile()) return p;
  }
  return undefined;
}

/** The shim runs this installation with the Node that installed it; when the installation is
 * gone (the project deleted, the package removed) it says so instead of a bare "not found". */
function shimScript(entry: string): string {
  const node = shellQuote(process.execPath);
  const cli = shellQuote(entry);
  return [
    '#!/bin/sh',
    '# gstack-driver shim, written by `gstack skills install`: runs this installation.',
    `if [ ! -f ${cli} ]; then`,
    `  echo "[error] gstack-driver is no longer installed at "${cli}". Install it again (npm install gstack-driver) and run: npx gstack skills install" >&2`,
    '  exit 3',
    'fi',
    // The Node that installed it, else the one on PATH (a version manager may have removed it).
    `if [ -x ${node} ]; then exec ${node} ${cli} "$@"; fi`,
    `exec node ${cli} "$@"`,
    '',
  ].join('\n');
}

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}
