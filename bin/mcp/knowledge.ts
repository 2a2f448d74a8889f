// What `gstack mcp` teaches a client: the generated skills (driver/cli/skills.ts), served as MCP
// prompts (each skill's core, after the catalog's note on how the CLI maps onto the tools) and
// resources (each skill's files, and the script API's `.d.ts`). The same files `gstack skills`
// installs, so an agent learns the API the same way through either door.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { listSkills, type SkillInfo } from '../../driver/cli/skills.js';
import { PROJECT_ROOT } from '../../driver/catalog.js';

export interface Resource {
  uri: string;
  name: string;
  title?: string;
  description: string;
  mimeType: string;
  path: string;
}

export const SCRIPT_API_URI = 'gstack://script-api.d.ts';

/** `gstack://skills/<skill>/<file>`: the core's link to `REFERENCE.md` resolves against it. */
export function skillUri(skill: string, file: string): string {
  return `gstack://skills/${skill}/${file}`;
}

export async function listResources(): Promise<Resource[]> {
  const out: Resource[] = [];
  for (const s of await listSkills()) {
    for (const f of s.files) {
      const core = f === 'SKILL.md';
      out.push({
        uri: skillUri(s.name, f),
        name: `${s.name}/${f}`,
        title: `${s.name} skill: ${core ? 'core' : f.replace(/\.md$/, '').toLowerCase()}`,
        description: core ? s.description : `The full reference of the ${s.name} skill, read on demand.`,
        mimeType: 'text/markdown',
        path: join(s.dir, f),
      });
    }
  }
  out.push({
    uri: SCRIPT_API_URI,
    name: 'script-api.d.ts',
    title: 'Flow-script API types',
    description: 'TypeScript declarations of every global a flow script sees and the Page it gets.',
    mimeType: 'text/plain',
    path: join(PROJECT_ROOT, 'generated', 'script-api.d.ts'),
  });
  return out;
}

export async function readResource(uri: string): Promise<{ resource: Resource; text: string } | undefined> {
  const resource = (await listResources()).find((r) => r.uri === uri);
  if (!resource) return undefined;
  return { resource, text: await readFile(resource.path, 'utf8') };
}

export async function listPrompts(): Promise<SkillInfo[]> {
  return listSkills();
}

/** A skill's core as a prompt: the MCP note first, then the core as `gstack skills get` prints it. */
export async function promptText(skill: SkillInfo, preamble: string): Promise<string> {
  const core = await readFile(join(skill.dir, 'SKILL.md'), 'utf8');
  const more = skill.files.filter((f) => f !== 'SKILL.md').map((f) => skillUri(skill.name, f));
  const refs = more.length ? ` Its full reference is the resource ${more.join(', ')}.` : '';
  return `${preamble}${refs}\n\n${core}`;
}
