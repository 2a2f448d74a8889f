// `gstack skills list | get NAME [--full] | install [--dir DIR]`: the generated skills, printed
// or installed where an agent reads them (driver/cli/skills.ts).
import type { Argv } from 'yargs';
import type { Catalog } from '../../driver/catalog.js';
import type { CliIo } from '../../driver/cli/process-io.js';
import { commandSpec } from '../../driver/catalog.js';
import { applyFlags, UsageError } from '../cli-flags.js';
import { readSkillsFlags, readSkillsPositionals, type SkillsFlags } from '../../driver/catalog.gen.js';

export function register(y: Argv<any>, catalog: Catalog, io: CliIo): Argv<any> {
  const spec = commandSpec('skills', catalog);
  const [action, name] = spec.positionals ?? [];
  return y.command(
    `${spec.name} <${action.name}> [${name.name}]`,
    spec.description,
    (c) => applyFlags(c.positional(action.name, { describe: action.description, choices: action.choices, type: 'string' }).positional(name.name, { describe: name.description, type: 'string' }), spec.flags),
    async (argv) => {
      const { listSkills, skillText, installSkills } = await import('../../driver/cli/skills.js');
      // SkillsError ends the command like any GstackError (bin/cli.ts: `[error]` line, its exit code).
      const f = readSkillsFlags(argv);
      const { action: act, name: skill } = readSkillsPositionals(argv);
      switch (act) {
        case 'list':
          for (const s of await listSkills()) io.out(`SKILL ${s.name} files=${s.files.join(',')} ${s.description}\n`);
          return;
        case 'get':
          if (!skill) throw new UsageError('`gstack skills get NAME`: name the skill (`gstack skills list` names them).');
          io.out(await skillText(String(skill), f.full));
          return;
        case 'install': {
          if (f.mcp !== undefined) return installMcp(f, catalog, io);
          if (f.allowScripts || f.config !== undefined || f.print) throw new UsageError('--allow-scripts, --config and --print go with `gstack skills install --mcp CLIENT`.');
          const r = await installSkills({ dir: f.dir, env: io.env, cwd: io.cwd });
          for (const s of r.installed) io.out(`INSTALLED ${s.name} ${s.path}\n`);
          io.out(`SHIM ${r.shim}\n`);
          if (r.linked) io.out(`LINKED ${r.linked} -> ${r.shim}\n`);
          if (!r.onPath) io.err(`gstack: \`gstack\` is not on PATH: add ${r.shim.replace(/\/gstack$/, '')} to PATH, or call ${r.shim} by its path.\n`);
          return;
        }
      }
    },
  );
}

/** `install --mcp CLIENT`: the server entry written into the client's file, or printed. */
async function installMcp(f: SkillsFlags, catalog: Catalog, io: CliIo): Promise<void> {
  const { writeMcpConfig, configSnippet } = await import('../mcp/client-config.js');
  const client = f.mcp!;
  const name = catalog.mcp?.serverName ?? 'gstack';
  if (f.print) {
    io.out(configSnippet(client, name, { allowScripts: f.allowScripts }));
    return;
  }
  const r = await writeMcpConfig(client, name, { file: f.config, allowScripts: f.allowScripts, env: io.env, cwd: io.cwd });
  io.out(`MCP_CONFIG ${r.file} client=${client} server=${name} command=${r.entry.command} args=${JSON.stringify(r.entry.args)}\n`);
  io.err(`gstack: restart ${client} (or reload its MCP servers) to start \`gstack mcp\`${f.allowScripts ? ' with the run tool (--allow-scripts: code execution with your rights)' : '; add --allow-scripts to offer the run tool'}.\n`);
}
