// `gstack mcp`: a stdio MCP server on the official SDK (docs/ARCHITECTURE.md, "MCP").
//
// Owns: the connection (one per server process: stdio has one client), its sessions (a default
// key derived per process, and the named ones its calls joined), mapping tool calls onto
// `gstack` command lines (bin/mcp/tools.ts) run as child processes (bin/mcp/calls.ts), turning
// exit codes and JSON results into MCP results (a saved flow's like `run`'s), and the end of
// the connection: running calls aborted in order, the connection's own session removed with its
// browser. It adds no way in: every call goes through the CLI with its deadlines, lock,
// confinement and output filter, and a render's paths stay in the client's roots (roots.ts).
//
// The low-level SDK `Server` is used rather than `McpServer` because the input schemas are
// JSON schemas already (the catalog's flags, the cookbook's shapes), not zod objects.
import { randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { readFile, stat } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  RootsListChangedNotificationSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import type { RunResult } from '../../driver/runtime/run-result.js';
import { loadCatalog, PROJECT_ROOT, type Catalog } from '../../driver/catalog.js';
import { packageVersion } from '../../driver/package-version.js';
import { SHAPES } from '../../cookbook/index.js';
import { jsonText, oneLine } from '../../driver/runtime/output.js';
import { buildTools, checkArguments, inMcpTerms, ToolArgumentsError, type ToolDef } from './tools.js';
import { Calls, GSTACK_ENTRY, type CallResult } from './calls.js';
import { listPrompts, listResources, promptText, readResource } from './knowledge.js';
import { confinePaths, PathOutsideRootsError, Roots } from './roots.js';

export interface McpServeOptions {
  allowScripts: boolean;
  /** The default session of this server's calls (`gstack mcp --session`); derived when absent. */
  session?: string;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** SIGINT/SIGTERM of the server process. */
  signal: AbortSignal;
  /** Diagnostics for a person (stderr; stdout carries the protocol). */
  log(line: string): void;
  stdin?: NodeJS.ReadableStream;
  stdout?: NodeJS.WritableStream;
}

type Content = CallToolResult['content'][number];

/** Images a flow call wrote come back as image content, within these bounds (token cost). */
const IMAGE_TYPES: Record<string, string> = { '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.webp': 'image/webp', '.gif': 'image/gif' };
const MAX_IMAGES = 8;
const MAX_IMAGE_BYTES = 4 * 1024 * 1024;
/** While a call runs, a client that asked for progress hears from us this often (a client's
 * request timeout, 60 s in the SDK's, can then be reset by progress; --timeout is 120 s). */
const PROGRESS_EVERY_MS = 5_000;
/** How long the client may take to list its roots before a render falls back to the cwd. */
const ROOTS_TIMEOUT_MS = 5_000;
/** bin/mcp/reaper.ts as built (tsc keeps it a file of its own: it is no part of the CLI bundle). */
const REAPER = join(PROJECT_ROOT, 'dist', 'bin', 'mcp', 'reaper.js');


/** The exit code's catalog name, meaning and next step (a usage error's, in the tools' terms). */
function exitText(catalog: Catalog, code: number): string {
  const e = catalog.exitCodes.find((x) => x.code === code);
  const next = e?.name === 'USAGE' ? catalog.mcp!.usageNextStep : e?.nextStep;
  return e ? `EXIT=${code} ${e.name}: ${e.meaning}${code ? ` Next: ${next}` : ''}` : `EXIT=${code}`;
}

function errorResult(message: string, code = 2, catalog?: Catalog): CallToolResult {
  const lines = [`[error] ${oneLine(message)}`];
  if (catalog) lines.unshift(exitText(catalog, code));
  return { isError: true, content: [{ type: 'text', text: lines.join('\n') }] };
}

/** stderr's non-empty lines: notices of a call that ran, or the `[error]` line of a command that
 * could not (a usage error, a missing engine, a busy profile). */
function stderrLines(stderr: string): string[] {
  return stderr.split('\n').map((l) => l.trimEnd()).filter(Boolean);
}

/** What `gstack run --json` printed (driver/runtime/run-result.ts), and what `flows save --json` adds. */
type FlowJson = RunResult & {
  pwd?: string | null;
  /** `flows save`: what was saved (null when the run failed). */
  saved?: { name: string; file: string; params: string[]; expectations: number } | null;
};

function parseFlowJson(stdout: string): FlowJson | undefined {
  const line = stdout.split('\n').reverse().find((l) => l.startsWith('{'));
  if (!line) return undefined;
  try {
    return JSON.parse(line) as FlowJson;
  } catch {
    return undefined;
  }
}

async function imageContents(paths: string[], withheld: readonly string[]): Promise<{ images: Content[]; skipped: string[]; held: string[] }> {
  const images: Content[] = [];
  const skipped: string[] = [];
  const held: string[] = [];
  for (const p of paths) {
    const mimeType = IMAGE_TYPES[extname(p).toLowerCase()];
    if (!mimeType) continue;
    // An image whose bytes spell a secret value the call saw (a downloaded QR code with the API
    // key in a text chunk) is not sent, as `--out` does not copy it (pass 40, A40).
    if (withheld.includes(p)) {
      held.push(p);
      continue;
    }
    const size = (await stat(p).catch(() => undefined))?.size ?? 0;
    if (images.filter((c) => c.type === 'image').length >= MAX_IMAGES || size > MAX_IMAGE_BYTES || size === 0) {
      skipped.push(p);
      continue;
    }
    // Each image is named first: a client shows images apart from the text, and a trial agent
    // could not tell a flow's before from its after.
    images.push({ type: 'text', text: `IMAGE ${basename(p)} (${p})` });
    images.push({ type: 'image', mimeType, data: (await readFile(p)).toString('base64') });
  }
  return { images, skipped, held };
}

export async function serveMcp(opts: McpServeOptions): Promise<number> {
  const catalog = loadCatalog();
  const mcp = catalog.mcp!;
  const tools = buildTools(catalog, SHAPES, { allowScripts: opts.allowScripts });
  const byName = new Map(tools.map((t) => [t.name, t]));
  const derived = opts.session === undefined;
  const defaultKey = opts.session ?? `mcp-${process.pid}-${randomBytes(3).toString('hex')}`;
  /** This connection's sessions: its own, then each named one a call joined, in order. */
  const own = new Set<string>([defaultKey]);
  const used = new Set<string>();
  const calls = new Calls({ env: opts.env, cwd: opts.cwd });

  const server = new Server(
    { name: mcp.serverName, version: packageVersion() },
    { capabilities: { tools: {}, prompts: {}, resources: {} }, instructions: mcp.instructions },
  );

  // Renders read and write only inside the client's roots (or this server's working directory).
  const roots = new Roots({
    cwd: opts.cwd,
    declared: () => Boolean(server.getClientCapabilities()?.roots),
    list: async () => (await server.listRoots(undefined, { timeout: ROOTS_TIMEOUT_MS })).roots.map((r) => r.uri),
    log: opts.log,
  });
  server.setNotificationHandler(RootsListChangedNotificationSchema, async () => roots.changed());

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema as { type: 'object' } })),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (req, extra): Promise<CallToolResult> => {
    const tool = byName.get(req.params.name);
    if (!tool) {
      const hint =
        req.params.name === 'run' || req.params.name === 'flows_save'
          ? `The ${req.params.name} tool is off: it runs arbitrary code with the user's rights, so the server offers it only when started as \`gstack mcp --allow-scripts\`. Use a cookbook_<shape> tool or a saved flow (flows_list, flows_run), or ask the user to allow scripts.`
          : `No tool named "${req.params.name}". The tools are: ${tools.map((t) => t.name).join(', ')}.`;
      return errorResult(hint);
    }
    let args: Record<string, unknown>;
    try {
      args = checkArguments(tool, req.params.arguments);
    } catch (err) {
      if (err instanceof ToolArgumentsError) return errorResult(err.message, 2, catalog);
      throw err;
    }
    const token = extra._meta?.progressToken;
    let ticks = 0;
    const heartbeat =
      token === undefined
        ? undefined
        : setInterval(() => {
            void extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: ++ticks, message: `${tool.name} still running` } }).catch(() => undefined);
          }, PROGRESS_EVERY_MS);
    try {
      if (tool.kind === 'sessions') return await sessionsCall(tool, args, extra.signal);
      if (tool.kind === 'flow') return await flowCall(tool, args, extra.signal);
      if (tool.kind === 'render') {
        try {
          args = confinePaths(tool, args, await roots.allowed(), opts.cwd);
        } catch (err) {
          if (err instanceof PathOutsideRootsError) return errorResult(err.message, 2, catalog);
          throw err;
        }
      }
      return await commandCall(tool, args, extra.signal);
    } finally {
      clearInterval(heartbeat);
    }
  });

  async function flowCall(tool: ToolDef, args: Record<string, unknown>, signal: AbortSignal): Promise<CallToolResult> {
    const { session: named, ...rest } = args;
    const key = typeof named === 'string' ? named : defaultKey;
    own.add(key);
    used.add(key);
    const inv = tool.argv(rest);
    const r = await calls.run([...inv.argv, '--json', '--session', key], { stdin: inv.stdin, signal });
    if (r.aborted) return errorResult('The call was cancelled; the script was stopped and its tabs closed.', 1, catalog);
    const json = parseFlowJson(r.stdout);
    if (!json) return commandFailure(tool, r);
    const verdict = [exitText(catalog, json.exitCode), `SESSION=${json.session?.slug ?? key} key=${jsonText(key)}${key === defaultKey ? ' (this connection\'s own)' : ''}`];
    // Which browser ran it (a trial agent could not tell): the engine decides which members work.
    if (json.engine) verdict.push(`ENGINE=${json.engine}`);
    if (json.pwd) verdict.push(`PWD=${json.pwd}`);
    if (json.saved) verdict.push(`FLOW_SAVED name=${json.saved.name} file=${json.saved.file} params=${json.saved.params.join(',') || 'none'} expectations=${json.saved.expectations}`);
    for (const a of json.artifacts) verdict.push(`FILE ${a}`);
    const { images, skipped, held } = await imageContents(json.artifacts, json.withheld ?? []);
    for (const s of skipped) verdict.push(`NOTE image not attached (more than ${MAX_IMAGES}, or over ${MAX_IMAGE_BYTES / 1024 / 1024} MiB): ${s}`);
    for (const h of held) verdict.push(`NOTE image not attached (its bytes hold the value of a secret field the call saw): ${h}`);
    for (const l of stderrLines(r.stderr)) {
      const said = inMcpTerms(tool, l);
      if (said !== undefined) verdict.push(`NOTE ${said}`);
    }
    const content: Content[] = [{ type: 'text', text: verdict.join('\n') }];
    // The lines last, as on stdout: the sentinel, or the `[error]` line, ends them.
    content.push({ type: 'text', text: json.lines.join('\n') || '(no output)' });
    content.push(...images);
    return {
      isError: json.exitCode !== 0,
      content,
      structuredContent: { ok: json.ok, exitCode: json.exitCode, engine: json.engine, session: key, artifacts: json.artifacts, pwd: json.pwd, error: json.error, durationMs: json.durationMs },
    };
  }

  /** A command that ended without its result: a usage error, no engine, a busy profile. */
  function commandFailure(tool: ToolDef, r: CallResult, flow = true): CallToolResult {
    const lines = stderrLines(r.stderr).flatMap((l) => inMcpTerms(tool, l) ?? []);
    if (!lines.some((l) => l.startsWith('[error]'))) lines.push(`[error] gstack exited ${r.code} without a result. Run the same call again; if it fails the same way, run \`gstack probe\` in a shell.`);
    // A render's exit codes mean what its command says (catalog: render, pdf, diagram), not
    // what they mean for a script: only the name is given, and a usage error's next step.
    const code = r.code || 1;
    const name = catalog.exitCodes.find((e) => e.code === code)?.name;
    const verdict = flow ? exitText(catalog, code) : name === 'USAGE' ? `EXIT=${code} USAGE: Next: ${mcp.usageNextStep}` : `EXIT=${code} ${name ?? ''}`.trimEnd();
    return { isError: true, content: [{ type: 'text', text: [verdict, ...stdoutLines(r.stdout), ...lines].join('\n') }] };
  }

  function stdoutLines(stdout: string): string[] {
    return stdout.split('\n').filter((l) => l.trim() && !l.startsWith('{'));
  }

  /** A render or `flows list`: its stdout lines are the answer (paths, flows), its notices follow. */
  async function commandCall(tool: ToolDef, args: Record<string, unknown>, signal: AbortSignal): Promise<CallToolResult> {
    const inv = tool.argv(args);
    const r = await calls.run(inv.argv, { stdin: inv.stdin, signal });
    if (r.aborted) return errorResult(`The ${tool.name} call was cancelled.`, 1, catalog);
    if (r.code !== 0) return commandFailure(tool, r, false);
    const out = r.stdout.split('\n').filter((l) => l.trim());
    if (tool.kind === 'command') out.push(...stderrLines(r.stderr).map((l) => `NOTE ${l}`));
    return { isError: false, content: [{ type: 'text', text: out.join('\n') }] };
  }

  async function sessionsCall(tool: ToolDef, args: Record<string, unknown>, signal: AbortSignal): Promise<CallToolResult> {
    if (args.action === 'stop') {
      const key = (args.session as string | undefined) ?? defaultKey;
      if (!own.has(key)) {
        return errorResult(`\`session\` ${jsonText(key)} is not a session of this connection (its sessions: ${[...own].map((k) => jsonText(k)).join(', ')}); a client stops only its own.`, 2, catalog);
      }
      const r = await calls.run(['sessions', 'stop', key], { signal });
      if (r.code !== 0) return commandFailure(tool, r, false);
      return { isError: false, content: [{ type: 'text', text: r.stdout.trim() }] };
    }
    if (args.session !== undefined) return errorResult('`session` is an argument of `stop` only; `list` shows every session of this connection.', 2, catalog);
    const r = await calls.run(['sessions', 'list', '--json'], { signal });
    if (r.code !== 0) return commandFailure(tool, r, false);
    const listed = (parseFlowJson(r.stdout) as unknown as { sessions?: Array<Record<string, any>> } | undefined)?.sessions ?? [];
    const lines: string[] = [];
    for (const key of own) {
      const s = listed.find((x) => x.key === key);
      const whose = key === defaultKey ? 'own' : 'named';
      if (!s) {
        lines.push(`SESSION - key=${jsonText(key)} ${whose} (no call yet)`);
        continue;
      }
      const host = s.host ? `pid:${s.host.pid}` : 'no';
      const locked = s.locked ? `pid:${s.locked.pid}` : 'no';
      lines.push(`SESSION ${s.slug} key=${jsonText(key)} ${whose} profile=${s.profile} lastUse=${s.lastUse ?? '?'} locked=${locked} host=${host}`);
    }
    lines.push(`SESSIONS=${own.size}`);
    return { isError: false, content: [{ type: 'text', text: lines.join('\n') }] };
  }

  server.setRequestHandler(ListPromptsRequestSchema, async () => ({
    prompts: (await listPrompts()).map((s) => ({ name: s.name, description: s.description })),
  }));
  server.setRequestHandler(GetPromptRequestSchema, async (req) => {
    const skill = (await listPrompts()).find((s) => s.name === req.params.name);
    if (!skill) throw new McpError(ErrorCode.InvalidParams, `No prompt named "${req.params.name}"; prompts/list names them.`);
    return {
      description: skill.description,
      messages: [{ role: 'user', content: { type: 'text', text: await promptText(skill, mcp.promptPreamble) } }],
    };
  });
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({
    resources: (await listResources()).map(({ path: _path, ...r }) => r),
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (req) => {
    const found = await readResource(req.params.uri);
    if (!found) throw new McpError(ErrorCode.InvalidParams, `No resource ${req.params.uri}; resources/list names them.`);
    return { contents: [{ uri: found.resource.uri, mimeType: found.resource.mimeType, text: found.text }] };
  });

  // ---- The end of the connection ----
  let resolveDone!: (code: number) => void;
  const done = new Promise<number>((r) => (resolveDone = r));
  let ending = false;
  const end = async (why: string) => {
    if (ending) return;
    ending = true;
    const running = calls.pids();
    opts.log(`gstack mcp: ${why}${running.length ? `; stopping ${running.length} running call${running.length === 1 ? '' : 's'}` : ''}.`);
    const aborted = calls.endAll();
    // The connection's own session dies with it (no later client can name a derived key):
    // `sessions clear` stops its browser and removes its profile under its lock. A session
    // named by `gstack mcp --session` keeps its profile and logins; its browser is stopped.
    // Sessions joined by a call's `session` argument are shared: left to their hosts' idle
    // timeout, since another client may be using them. The reaper is detached so that a
    // client that kills this process right after disconnecting still gets all of it.
    if (used.has(defaultKey)) {
      const reaper = spawn(process.execPath, [REAPER, GSTACK_ENTRY, derived ? 'clear' : 'stop', defaultKey, ...running.map(String)], {
        detached: true,
        stdio: 'ignore',
        env: opts.env,
        cwd: opts.cwd,
      });
      const reaped = new Promise<number | null>((resolve) => {
        reaper.once('exit', (code) => resolve(code));
        reaper.once('error', () => resolve(null));
      });
      // Not unref'd: this process waits for it (a pending promise alone would let Node exit).
      await aborted;
      const code = await reaped;
      opts.log(`gstack mcp: session ${jsonText(defaultKey)} ${code === 0 ? (derived ? 'removed with its browser' : 'browser stopped') : `not ended (sessions ${derived ? 'clear' : 'stop'} exited ${code}); \`gstack sessions list\` shows it`}.`);
    } else await aborted;
    await server.close().catch(() => undefined);
    resolveDone(0);
  };
  const input = opts.stdin ?? process.stdin;
  input.once('end', () => void end('the client disconnected'));
  input.once('close', () => void end('the client disconnected'));
  opts.signal.addEventListener('abort', () => void end('interrupted'), { once: true });
  server.onclose = () => void end('the connection closed');

  const transport = new StdioServerTransport(input as NodeJS.ReadStream & typeof process.stdin, (opts.stdout ?? process.stdout) as typeof process.stdout);
  await server.connect(transport);
  opts.log(
    `gstack mcp: serving ${tools.length} tools (${opts.allowScripts ? 'run allowed: --allow-scripts' : 'run off; start with --allow-scripts to offer it'}), session ${jsonText(defaultKey)}${derived ? ' (removed at exit)' : ''}.`,
  );
  return done;
}
