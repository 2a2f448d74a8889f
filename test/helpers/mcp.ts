// The one way tests talk to `gstack mcp`: the SDK's own Client over stdio, on a server process
// the test holds (the compiled entry, dist/bin/gstack.cjs, as an MCP client configuration
// starts it), so a test can also cut the connection the way a crashed client does: its end of
// the pipes closes, nothing more.
import { spawn, type ChildProcess } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ListRootsRequestSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { pathToFileURL } from 'node:url';
import { BIN, ROOT } from './cli.js';

/** A stdio transport over a process the test owns. */
class ChildTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private readonly buffer = new ReadBuffer();

  constructor(private readonly child: ChildProcess) {}

  async start(): Promise<void> {
    this.child.stdout!.on('data', (chunk: Buffer) => {
      this.buffer.append(chunk);
      for (let m = this.buffer.readMessage(); m; m = this.buffer.readMessage()) this.onmessage?.(m);
    });
    this.child.on('close', () => this.onclose?.());
    this.child.stdin!.on('error', (err) => this.onerror?.(err));
  }

  async send(message: JSONRPCMessage): Promise<void> {
    this.child.stdin!.write(serializeMessage(message));
  }

  async close(): Promise<void> {
    this.child.stdin!.end();
  }
}

export interface McpConnection {
  client: Client;
  child: ChildProcess;
  stderr(): string;
  /** Resolves with the server's exit code once it has exited. */
  exited: Promise<number | null>;
  /** Closes the client's end of stdin (a client that goes away) and waits for the exit. */
  disconnect(): Promise<number | null>;
}

export interface ConnectOptions {
  /** The server's working directory (default: the repository). */
  cwd?: string;
  /** Folders the client declares as its roots (the roots capability); none: no capability. */
  roots?: string[];
}

/** Starts `gstack mcp ...args` with `env` (the whole environment) and connects a client. */
export function connectMcp(args: string[], env: NodeJS.ProcessEnv, opts: ConnectOptions = {}): Promise<McpConnection> {
  return connectMcpCommand(process.execPath, [BIN, 'mcp', ...args], env, opts);
}

/** Starts a server the way a client configuration names it (command and args) and connects. */
export async function connectMcpCommand(command: string, args: string[], env: NodeJS.ProcessEnv, opts: ConnectOptions = {}): Promise<McpConnection> {
  const clean: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined) clean[k] = v;
  const child = spawn(command, args, { cwd: opts.cwd ?? ROOT, env: clean, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const client = new Client({ name: 'gstack-test', version: '0' }, opts.roots ? { capabilities: { roots: { listChanged: true } } } : undefined);
  if (opts.roots) {
    const roots = opts.roots;
    client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: roots.map((d) => ({ uri: pathToFileURL(d).href, name: d })) }));
  }
  await client.connect(new ChildTransport(child));
  return {
    client,
    child,
    stderr: () => stderr,
    exited,
    disconnect: async () => {
      child.stdin!.end();
      return exited;
    },
  };
}

/** The text parts of a tool result, joined. */
export function textOf(result: unknown): string {
  return (((result as { content?: unknown }).content ?? []) as Array<{ type: string; text?: string }>)
    .filter((c) => c.type === 'text')
    .map((c) => c.text)
    .join('\n');
}
