// `gstack skills install --mcp CLIENT`: the `gstack mcp` server entry in the configuration
// file an MCP client reads (README "Use it from an MCP client").
//
// Owns: where each client keeps its file, the entry's shape in each (Claude Desktop and Cursor:
// `mcpServers.<name>` with command and args; VS Code: `servers.<name>` with `type: "stdio"`),
// and merging it into an existing file without touching any other entry. The entry runs this
// installation by absolute paths (this Node, dist/bin/gstack.cjs): an editor started from the
// desktop has a minimal PATH, on which `gstack` or even `node` may not be found.
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { readRegularFile } from '../../driver/read-file.js';

/** An MCP client's config file is a few KiB; anything past this is not one. */
const MAX_CONFIG_BYTES = 16 * 1024 * 1024;
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { GstackError } from '../../driver/errors.js';
import { GSTACK_ENTRY } from './calls.js';
import type { SkillsFlags } from '../../driver/catalog.gen.js';

/** The clients `--mcp` names (catalog: the skills command's `mcp` flag). */
export type McpClient = NonNullable<SkillsFlags['mcp']>;

export interface ServerEntry {
  type?: 'stdio';
  command: string;
  args: string[];
}

/** The client's own configuration file. */
export function defaultConfigPath(client: McpClient, env: NodeJS.ProcessEnv, cwd: string, platform: NodeJS.Platform = process.platform): string {
  const home = env.HOME || homedir();
  switch (client) {
    case 'claude-desktop':
      if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'Claude', 'claude_desktop_config.json');
      if (platform === 'win32') return join(env.APPDATA || join(home, 'AppData', 'Roaming'), 'Claude', 'claude_desktop_config.json');
      return join(env.XDG_CONFIG_HOME || join(home, '.config'), 'Claude', 'claude_desktop_config.json');
    case 'cursor':
      return join(home, '.cursor', 'mcp.json');
    case 'vscode':
      // The workspace's file: VS Code's user-level servers live inside its settings profile.
      return join(cwd, '.vscode', 'mcp.json');
  }
}

/** The key under which the client lists its servers, and this server's entry. */
export function serverEntry(client: McpClient, opts: { allowScripts: boolean }): { key: 'mcpServers' | 'servers'; entry: ServerEntry } {
  const args = [GSTACK_ENTRY, 'mcp', ...(opts.allowScripts ? ['--allow-scripts'] : [])];
  if (client === 'vscode') return { key: 'servers', entry: { type: 'stdio', command: process.execPath, args } };
  return { key: 'mcpServers', entry: { command: process.execPath, args } };
}

/** The entry as the client's JSON, for a user who adds it by hand. */
export function configSnippet(client: McpClient, serverName: string, opts: { allowScripts: boolean }): string {
  const { key, entry } = serverEntry(client, opts);
  return JSON.stringify({ [key]: { [serverName]: entry } }, null, 2) + '\n';
}

/** A configuration file this command will not rewrite (not JSON, or not an object). */
export class McpConfigError extends GstackError {}

/**
 * Writes (or replaces) this server's entry in the client's file, keeping everything else;
 * creates the file when there is none. Written to a temporary file and renamed, so a client
 * reading it meanwhile never sees half a file.
 */
export async function writeMcpConfig(
  client: McpClient,
  serverName: string,
  opts: { file?: string; allowScripts: boolean; env: NodeJS.ProcessEnv; cwd: string },
): Promise<{ file: string; entry: ServerEntry }> {
  const file = opts.file ? resolve(opts.cwd, opts.file) : defaultConfigPath(client, opts.env, opts.cwd);
  let config: Record<string, unknown> = {};
  // Opened without waiting and read bounded: a FIFO or a device named as the config is refused
  // at once, never waited on (docs/SECURITY.md, "Bad input is a usage error, never a hang").
  const read = await readRegularFile(file, MAX_CONFIG_BYTES);
  if (!read.ok && read.why !== 'missing') {
    throw new McpConfigError(`Cannot read ${file}: ${read.detail}. Give --config a regular JSON file, or print the entry with --print and add it by hand.`, 'USAGE');
  }
  const text = read.ok ? read.bytes.toString('utf8') : undefined;
  if (text !== undefined && text.trim()) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (err) {
      throw new McpConfigError(
        `${file} is not plain JSON (${(err as Error).message}; comments and trailing commas are not rewritten), so it was left as it is. Add the entry by hand: \`gstack skills install --mcp ${client} --print\` prints it.`,
        'USAGE',
      );
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
      throw new McpConfigError(`${file} does not hold a JSON object, so it was left as it is. Add the entry by hand: \`gstack skills install --mcp ${client} --print\` prints it.`, 'USAGE');
    }
    config = parsed as Record<string, unknown>;
  }
  const { key, entry } = serverEntry(client, { allowScripts: opts.allowScripts });
  const servers = config[key];
  if (servers !== undefined && (!servers || typeof servers !== 'object' || Array.isArray(servers))) {
    throw new McpConfigError(`${file}: "${key}" is not an object, so the file was left as it is. Fix it, or add the entry by hand (--print).`, 'USAGE');
  }
  config[key] = { ...(servers as Record<string, unknown> | undefined), [serverName]: entry };
  await mkdir(dirname(file), { recursive: true });
  const tmp = `${file}.gstack-${process.pid}.tmp`;
  await writeFile(tmp, JSON.stringify(config, null, 2) + '\n');
  await rename(tmp, file);
  return { file, entry };
}
