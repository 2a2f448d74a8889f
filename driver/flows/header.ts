// A saved flow's header block (docs/ARCHITECTURE.md, "Saved flows"): the comment at the top of
// `.gstack/flows/NAME.js` that says what the flow is, what it takes and what it printed when it
// was saved. Owns the format (write and read back); not where files live (store.ts), not what
// the parameters mean (params.ts) or how expectations compare (expect.ts).
//
// The header is a block comment, so the file stays a plain flow script that `gstack run -f`
// runs unchanged and a person can edit. One `key: value` per line; a value that could hold any
// text is JSON, with `*/` written `*\/` (the same string in JSON) so nothing ends the comment
// early. Lines without a known key are notes for the reader and are ignored.
export const HEADER_START = '/* gstack-flow';

/** One parameter's schema in a saved flow: a type, and its default or (for a parameter every
 * run must give) the value the save run used, kept in `examples` for `flows check`. */
export interface FlowParamSchema {
  type: FlowParamType;
  default?: unknown;
  examples?: unknown[];
  description?: string;
  /** A secret parameter (JSON Schema's annotation for a value that is never given back): its
   * value is never written in the flow; every run, `flows check` included, gives it. */
  writeOnly?: boolean;
}

export type FlowParamType = 'string' | 'number' | 'integer' | 'boolean';

export interface FlowHeader {
  name: string;
  description: string;
  /** In declaration order. */
  params: Record<string, FlowParamSchema>;
  required: string[];
  /** ISO time of the save. */
  created: string;
  /** The gstack version that saved it. */
  gstack: string;
  /** The engine the save run passed on. */
  engine: string;
  /** The `--in` files the save run was given: paths relative to the repository for a project
   * flow (files outside it are not recorded), absolute for a global one. `flows run` and
   * `flows check` pass them again when no `--in` is given. */
  inputs: string[];
  /** The evidence the save run printed: one entry per line, or one per TEXT/SNAPSHOT/DIFF block
   * (its lines joined with "\n"), as expect.ts extracts them. */
  expect: string[];
}

export class FlowHeaderError extends Error {}

/** What a person reading the file (`cat`, `git diff`, an editor) would not see: C1 controls,
 * format characters (bidi controls, zero-width characters, Unicode tags), other default-ignorable
 * code points, private-use and unassigned ones, and the line and paragraph separators (they end
 * a line for JavaScript and for a RegExp `.`, not for JSON). */
const UNSEEN = /[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}]/gu;
const escapeUnseen = (text: string) => text.replace(UNSEEN, (c) => Array.from({ length: c.length }, (_, i) => `\\u${c.charCodeAt(i).toString(16).padStart(4, '0')}`).join(''));

// JSON on one line that cannot end the block comment (a star-slash is written with an escaped
// slash), with every character a reader of the file would not see written as its `\uXXXX`
// escape: a page-given --param value with Unicode tags or an RLO was written raw into a file
// meant to be reviewed and committed (pass 23, B23). JSON.parse reads the escapes back.
function commentJson(value: unknown): string {
  return escapeUnseen(JSON.stringify(value).replace(/\*\//g, '*\\/'));
}

function oneLineText(text: string): string {
  return text.replace(/[\s\u2028\u2029]+/g, ' ').replace(/\*\//g, '* /').trim();
}

/** The header block for `header`, then a short usage note, ending with a newline. */
export function formatHeader(h: FlowHeader, file: string): string {
  const lines = [HEADER_START, `name: ${h.name}`];
  if (h.description) lines.push(`description: ${oneLineText(h.description)}`);
  for (const [name, schema] of Object.entries(h.params)) {
    lines.push(`param: ${name}${h.required.includes(name) ? ' (required)' : ''} ${commentJson(schema)}`);
  }
  lines.push(`created: ${h.created}`, `gstack: ${h.gstack}`, `engine: ${h.engine}`);
  for (const f of h.inputs) lines.push(`in: ${commentJson(f)}`);
  for (const e of h.expect) lines.push(`expect: ${commentJson(e)}`);
  // The parameters a run must give (the others have defaults), with the save run's values.
  const example = Object.fromEntries(h.required.filter((k) => h.params[k]).map((k) => [k, h.params[k].examples?.[0]]));
  // A secret parameter's value is nobody's to read here, and no command line should hold it
  // (every user of the machine can read one): it goes in a 0600 file of the caller's (trial V8:
  // the line read `--params '{}'`, which fails for the missing secret).
  const secrets = Object.keys(example).filter((k) => h.params[k].writeOnly);
  const plain = Object.entries(example).filter(([k]) => !h.params[k].writeOnly);
  // One file for both commands: it holds every parameter a run must give.
  const cliParams = secrets.length ? ['--param @params.json'] : plain.map(([k, v]) => `--param ${k}=${typeof v === 'string' ? escapeUnseen(v) : commentJson(v)}`);
  const runParams = secrets.length ? ' --params @params.json' : plain.length ? ` --params ${shellQuote(commentJson(example))}` : '';
  lines.push(
    '',
    'Saved by `gstack flows save`. The script reads its inputs from `params`. Run it with',
    `  gstack flows run ${h.name}${cliParams.length ? ' ' + cliParams.join(' ') : ''}`,
    `or: gstack run -f ${file}${runParams}${h.inputs.length ? ` --in ${h.inputs.map((f) => shellQuote(f).replace(/\*\//g, "*'/'")).join(' ')}` : ''}`,
    ...(secrets.length ? [`(params.json: a file of yours, mode 0600, holding ${commentJson(Object.fromEntries(Object.keys(example).map((k) => [k, h.params[k].writeOnly ? '…' : example[k]])))})`] : []),
    '`gstack flows check` re-runs it with these parameters and compares its evidence with the',
    '`expect:` lines (delete one to stop checking it).',
    ...(h.inputs.length ? ['`flows run` and `flows check` pass the `in:` files again (a path is the repository\'s), unless --in is given.'] : []),
  );
  return lines.map((l, i) => (i === 0 ? l : l ? ` * ${l}` : ' *')).join('\n') + '\n */\n';
}

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, "'\\''")}'`;
}

/** Splits a flow file into its header (undefined when the file has none) and the script after
 * it. Throws FlowHeaderError when the header is there but cannot be read. */
export function parseFlowFile(source: string): { header?: FlowHeader; script: string } {
  if (!source.startsWith(HEADER_START)) return { script: source };
  const end = source.indexOf('*/');
  if (end < 0) throw new FlowHeaderError('its header block (`/* gstack-flow`) never ends (no `*/`)');
  const body = source.slice(HEADER_START.length, end);
  const script = source.slice(end + 2).replace(/^[ \t]*\r?\n/, '');
  const h: FlowHeader = { name: '', description: '', params: {}, required: [], created: '', gstack: '', engine: '', inputs: [], expect: [] };
  for (const raw of body.split(/\r?\n/)) {
    const line = raw.replace(/^\s*\*?\s?/, '');
    const m = /^(name|description|param|created|gstack|engine|in|expect):\s?([\s\S]*)$/.exec(line);
    if (!m) continue;
    const [, key, value] = m;
    switch (key) {
      case 'param': {
        const p = /^([A-Za-z_$][\w$]*)(\s+\(required\))?\s+(\{.*\})\s*$/.exec(value);
        if (!p) throw new FlowHeaderError(`its header line "param: ${value}" does not read "param: NAME [(required)] {json schema}"`);
        h.params[p[1]] = parseJson(p[3], `param ${p[1]}`) as FlowParamSchema;
        // A `$ref` points the validator elsewhere: at itself (a cycle that overflows the stack)
        // or at a URL or file it would try to resolve. A parameter's schema is written whole.
        if (hasKey(h.params[p[1]], '$ref')) throw new FlowHeaderError(`its header's param ${p[1]} uses "$ref"; write the parameter's schema out whole`);
        if (p[2]) h.required.push(p[1]);
        break;
      }
      case 'in': {
        const f = parseJson(value, 'in');
        if (typeof f !== 'string' || !f) throw new FlowHeaderError(`its header line "in: ${value}" is not a JSON string naming a file`);
        h.inputs.push(f);
        break;
      }
      case 'expect': {
        const e = parseJson(value, 'expect');
        if (typeof e !== 'string') throw new FlowHeaderError(`its header line "expect: ${value}" is not a JSON string`);
        h.expect.push(e);
        break;
      }
      default:
        h[key as 'name' | 'description' | 'created' | 'gstack' | 'engine'] = value.trim();
    }
  }
  return { header: h, script };
}

/** How deep a header's JSON may nest: a parameter's schema is compiled by ajv, which recurses
 * (a 20,000-deep `anyOf` overflowed the stack instead of naming the header). */
const MAX_HEADER_JSON_DEPTH = 64;

/** Whether parsed JSON (at most MAX_HEADER_JSON_DEPTH deep: checked first) has `key` anywhere. */
function hasKey(value: unknown, key: string): boolean {
  if (Array.isArray(value)) return value.some((v) => hasKey(v, key));
  if (value === null || typeof value !== 'object') return false;
  return Object.hasOwn(value, key) || Object.values(value).some((v) => hasKey(v, key));
}

function parseJson(text: string, what: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new FlowHeaderError(`its header's ${what} is not valid JSON (${(err as Error).message})`);
  }
  if (jsonDepth(value, MAX_HEADER_JSON_DEPTH) > MAX_HEADER_JSON_DEPTH) throw new FlowHeaderError(`its header's ${what} nests deeper than ${MAX_HEADER_JSON_DEPTH} levels`);
  return value;
}

/** The nesting depth of parsed JSON, counted up to just past `limit`, without recursion (the
 * value may be deeper than the stack). */
export function jsonDepth(root: unknown, limit: number): number {
  let max = 0;
  const stack: Array<[unknown, number]> = [[root, 1]];
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (!v || typeof v !== 'object') continue;
    if (d > max) max = d;
    if (max > limit) return max;
    for (const x of Object.values(v)) stack.push([x, d + 1]);
  }
  return max;
}
