// The wire format between the thin `gstack` client and a host (docs/ARCHITECTURE.md, "Hosts").
//
// Owns: the message types, their encoding (one JSON object per line over a Unix socket) and
// the one place where a message read off the socket is checked and turned into a typed value.
// Nothing behind `parseClientMessage` / `parseHostMessage` re-checks or casts. Built-ins only:
// the client loads this before anything else.
import { StringDecoder } from 'node:string_decoder';
import { parseStopCause, type StopCause } from '../stop-cause.js';
import { parseResolvedCall, type ResolvedCall } from './call.js';

export type ClientMessage =
  /** A call: a session host gets it resolved (parsed and its target decided by the client,
   * driver/hosts/call.ts), the render host as the argv of `gstack render|pdf|diagram`. */
  | ({ t: 'call'; env: Record<string, string>; cwd: string; columns?: number; trace: boolean; pid: number; build: string } & ({ call: ResolvedCall; argv?: undefined } | { argv: string[]; call?: undefined }))
  | { t: 'stdin'; data: string }
  /** The client was interrupted; `cause` says by what (its SIGINT/SIGTERM). */
  | { t: 'abort'; cause?: StopCause }
  | { t: 'status' }
  | { t: 'stop' };

export interface HostStatus {
  pid: number;
  kind: 'session' | 'render';
  build: string;
  profileDir?: string;
  /** The session key of the host's last call. */
  key?: string;
  browserPid?: number;
  /** Resident memory of the browser's process tree, KiB (Linux). */
  browserRssKb?: number;
  /** Resident memory of the host process itself, KiB. */
  hostRssKb: number;
  busy: boolean;
  idleMs: number;
  calls: number;
}

export type HostMessage =
  | { t: 'hello'; pid: number; build: string }
  | { t: 'accepted' }
  | { t: 'deadline'; ms: number }
  | { t: 'out'; s: string }
  | { t: 'err'; s: string }
  | { t: 'need-stdin' }
  | { t: 'exit'; code: number }
  /** The client runs another build: this host stops; the client starts its own. */
  | { t: 'stale' }
  | { t: 'status'; status: HostStatus }
  | { t: 'stopping' };

export function encode(msg: ClientMessage | HostMessage): string {
  return JSON.stringify(msg) + '\n';
}

/** The longest line (one message) either side accepts: far above any real message (a script
 * sent on stdin, one output line under --max-output), far below what would exhaust memory. */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;

/** Splits a byte stream into lines of JSON; a line that is not JSON is passed on as
 * `undefined` (the parser refuses it). A chunk may end inside a multi-byte character: the
 * StringDecoder keeps those bytes for the next chunk. Each byte is scanned for a newline once
 * (the unfinished line is kept as a list of pieces, joined when its newline comes), and a line
 * longer than MAX_LINE_BYTES ends the stream: `onError` is told once, and every later chunk
 * is ignored (the caller closes the connection). */
export function decoder(onMessage: (msg: unknown) => void, onError: (err: Error) => void = () => undefined): (chunk: Buffer) => void {
  const utf8 = new StringDecoder('utf8');
  let pieces: string[] = [];
  let pendingBytes = 0;
  let failed = false;
  const deliver = (line: string) => {
    if (!line) return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      value = undefined;
    }
    onMessage(value);
  };
  return (chunk) => {
    if (failed) return;
    const text = utf8.write(chunk);
    let from = 0;
    let nl: number;
    while (!failed && (nl = text.indexOf('\n', from)) >= 0) {
      const tail = text.slice(from, nl);
      const line = pieces.length ? pieces.join('') + tail : tail;
      pieces = [];
      pendingBytes = 0;
      from = nl + 1;
      deliver(line);
    }
    if (failed || from >= text.length) return;
    const rest = text.slice(from);
    pendingBytes += Buffer.byteLength(rest, 'utf8');
    if (pendingBytes > MAX_LINE_BYTES) {
      failed = true;
      pieces = [];
      onError(new Error(`a message longer than ${MAX_LINE_BYTES} bytes (the socket's bound); the connection was closed.`));
      return;
    }
    pieces.push(rest);
  };
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);
const str = (v: unknown): v is string => typeof v === 'string';
const int = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);
const strings = (v: unknown): v is string[] => Array.isArray(v) && v.every(str);
const stringRecord = (v: unknown): v is Record<string, string> => isObj(v) && Object.values(v).every(str);

/** A client message, or undefined for anything malformed (the host drops the connection). */
export function parseClientMessage(v: unknown): ClientMessage | undefined {
  if (!isObj(v) || !str(v.t)) return undefined;
  switch (v.t) {
    case 'call': {
      if (!stringRecord(v.env) || !str(v.cwd) || !int(v.pid) || !str(v.build) || typeof v.trace !== 'boolean') return undefined;
      if (v.columns !== undefined && !int(v.columns)) return undefined;
      const common = { t: 'call' as const, env: v.env, cwd: v.cwd, columns: v.columns as number | undefined, trace: v.trace, pid: v.pid, build: v.build };
      if (v.call !== undefined) {
        const call = v.argv === undefined ? parseResolvedCall(v.call) : undefined;
        return call ? { ...common, call } : undefined;
      }
      return strings(v.argv) ? { ...common, argv: v.argv } : undefined;
    }
    case 'stdin':
      return str(v.data) ? { t: 'stdin', data: v.data } : undefined;
    case 'abort':
      return { t: 'abort', cause: parseStopCause(v.cause) };
    case 'status':
    case 'stop':
      return { t: v.t };
    default:
      return undefined;
  }
}

/** A host message, or undefined for anything malformed (the client treats it as a dead host). */
export function parseHostMessage(v: unknown): HostMessage | undefined {
  if (!isObj(v) || !str(v.t)) return undefined;
  switch (v.t) {
    case 'hello':
      return int(v.pid) && str(v.build) ? { t: 'hello', pid: v.pid, build: v.build } : undefined;
    case 'deadline':
      return int(v.ms) && v.ms >= 0 ? { t: 'deadline', ms: v.ms } : undefined;
    case 'out':
    case 'err':
      return str(v.s) ? { t: v.t, s: v.s } : undefined;
    case 'exit':
      return int(v.code) ? { t: 'exit', code: v.code } : undefined;
    case 'status':
      return isObj(v.status) && int(v.status.pid) ? { t: 'status', status: v.status as unknown as HostStatus } : undefined;
    case 'accepted':
    case 'need-stdin':
    case 'stale':
    case 'stopping':
      return { t: v.t };
    default:
      return undefined;
  }
}
