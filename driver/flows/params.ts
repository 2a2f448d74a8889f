// A saved flow's parameters (docs/ARCHITECTURE.md, "Saved flows"): `--param name[:type]=value`
// declarations into the JSON schema the header keeps, and the values of one run checked against
// that schema with ajv (as the cookbook checks its shapes' parameters), defaults filled in.
// Owns the rules and their messages; not the header's text (header.ts).
import { createRequire } from 'node:module';
import { CommandError } from '../command-errors.js';
import { UsageError } from '../errors.js';
import { FlowHeaderError, jsonDepth, parseFlowFile, type FlowHeader, type FlowParamSchema, type FlowParamType } from './header.js';

const TYPES: readonly FlowParamType[] = ['string', 'number', 'integer', 'boolean'];
const NAME = /^[A-Za-z_$][\w$]*$/;

function invalid(message: string): CommandError {
  return new CommandError('flows', 'FLOW_INVALID', message);
}

/** A CLI word (`3`, `true`, `a@example.com`) as a value of `type`, or undefined when it is not one. */
function fromWord(word: string, type: FlowParamType): unknown {
  switch (type) {
    case 'string':
      return word;
    case 'number':
    case 'integer': {
      const n = word.trim() === '' ? NaN : Number(word);
      return Number.isFinite(n) && (type === 'number' || Number.isInteger(n)) ? n : undefined;
    }
    case 'boolean':
      return word === 'true' ? true : word === 'false' ? false : undefined;
  }
}

/** A repeated yargs string flag: undefined, one value or several. */
export function asList(v: unknown): string[] {
  if (v === undefined || v === null) return [];
  return (Array.isArray(v) ? v : [v]).map(String);
}

export interface ParamDeclarations {
  params: Record<string, FlowParamSchema>;
  required: string[];
  /** What the save run gets. */
  values: Record<string, unknown>;
}

/** `flows save`: `--param name[:type]=value` (repeatable) and `--required name` into the
 * header's schema; each value is the save run's, and the default unless the name is required.
 * A parameter `isSecret` names (a password, a token: the caller's rule, the one secret fields
 * follow) is secret: required, and its value is kept nowhere in the header (`writeOnly`). */
export function declareParams(decls: string[], requiredNames: string[], isSecret: (name: string) => boolean = () => false): ParamDeclarations {
  const params: Record<string, FlowParamSchema> = {};
  const values: Record<string, unknown> = {};
  for (const d of decls) {
    const m = /^([^:=]+)(?::([a-z]+))?=([\s\S]*)$/.exec(d);
    // No message quotes a value: it may be a test password the user handed over (pass 27, A27).
    if (!m) throw invalid(`a --param does not read name=value or name:type=value (e.g. --param email=a@example.com, --param count:number=3).`);
    const [, name, type = 'string', word] = m;
    if (!NAME.test(name)) throw invalid(`--param "${name}" is not a parameter name; use letters, digits and _ (the script reads it as params.${name.replace(/\W/g, '_')}).`);
    if (!(TYPES as readonly string[]).includes(type)) throw invalid(`--param ${name}: type "${type}" is not one of ${TYPES.join(', ')}.`);
    const value = fromWord(word, type as FlowParamType);
    if (value === undefined) throw invalid(`--param ${name}: its value is not ${type === 'integer' ? 'an' : 'a'} ${type}.`);
    // Names an object already has (a prototype's) would not be parameters of their own.
    if (name in Object.prototype) throw invalid(`--param ${d}: "${name}" is a name every JavaScript object has; pick another parameter name.`);
    if (Object.hasOwn(params, name)) throw invalid(`--param ${name} is given twice; declare each parameter once.`);
    params[name] = { type: type as FlowParamType, default: value };
    values[name] = value;
  }
  for (const name of requiredNames) {
    const p = params[name];
    if (!p) throw invalid(`--required ${name}: declare it with --param ${name}=VALUE too (the value the save run and \`flows check\` use).`);
    params[name] = { type: p.type, examples: [p.default] };
  }
  const secret = Object.keys(params).filter(isSecret);
  for (const name of secret) params[name] = { type: params[name].type, writeOnly: true };
  return { params, required: [...new Set([...requiredNames, ...secret])], values };
}

/** `flows run`: `--param name=value` words (typed by the flow's schema when checked). */
export function givenParams(words: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const w of words) {
    const m = /^([^=]+)=([\s\S]*)$/.exec(w);
    if (!m) throw new CommandError('flows', 'FLOW_PARAMS_INVALID', `a --param does not read name=value. Give each parameter as --param name=value.`);
    const name = m[1].replace(/:[a-z]+$/, '');
    if (Object.hasOwn(out, name)) throw new CommandError('flows', 'FLOW_PARAMS_INVALID', `--param ${name} is given twice; give each parameter once.`);
    // `name:type=value` is the save form; a run's types are the flow's own.
    // An own property whatever the name: `__proto__=x` assigned would set the prototype and
    // vanish (exit 0); defined, it is an unknown parameter like any other (exit 2).
    Object.defineProperty(out, name, { value: m[2], enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** The JSON schema of a flow's parameters (what ajv checks a run's values against). */
export function paramsSchema(h: Pick<FlowHeader, 'params' | 'required'>): object {
  return { type: 'object', properties: h.params, required: h.required, additionalProperties: false };
}

/** The parameters `flows check` runs with: each default, or the save run's value of a required
 * one (a secret one has neither: `check` is given it). */
export function savedParams(h: Pick<FlowHeader, 'params'>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, s] of Object.entries(h.params)) {
    const v = s.default !== undefined ? s.default : s.examples?.[0];
    if (v !== undefined) out[k] = v;
  }
  return out;
}

/** `url string default="…"`, `email string required`: a parameter as list and errors show it. */
export function describeParam(h: Pick<FlowHeader, 'params' | 'required'>, name: string): string {
  const s = h.params[name];
  return `${name} ${s.type} ${h.required.includes(name) ? 'required' : `default=${JSON.stringify(s.default)}`}${s.writeOnly ? ' secret' : ''}`;
}

type Validator = ((data: unknown) => boolean) & {
  errors?: Array<{ instancePath: string; keyword: string; message?: string; params: Record<string, unknown> }> | null;
};
const validators = new Map<string, Validator>();

function validatorFor(schema: object, coerce: boolean): Validator {
  const key = `${coerce}:${JSON.stringify(schema)}`;
  let v = validators.get(key);
  if (!v) {
    const Ajv = createRequire(import.meta.url)('ajv') as typeof import('ajv').default;
    // useDefaults fills what the caller left out; coerceTypes reads CLI words ("3", "true") as
    // the schema's types, and a word that is not one fails the type rule.
    const ajv = new Ajv({ allErrors: true, useDefaults: true, coerceTypes: coerce, strict: false });
    v = ajv.compile(schema) as Validator;
    validators.set(key, v);
  }
  return v;
}

/**
 * One run's parameters: `given` checked against the flow's schema, defaults filled in. CLI
 * words are read as the schema's types (`coerce`); JSON values (`gstack run --params`) must
 * already be of them. Throws FLOW_PARAMS_INVALID naming each bad parameter and the rule.
 */
export function resolveFlowParams(h: Pick<FlowHeader, 'name' | 'params' | 'required'>, given: Record<string, unknown>, opts: { coerce: boolean }): Record<string, unknown> {
  const data = structuredClone(given);
  const validate = validatorFor(paramsSchema(h), opts.coerce);
  if (validate(data)) {
    // A whole number past 2^53 is no longer the number given (`pin=123456789012345678901234`
    // arrives as 1.2345678901234568e+23; pass 35, C35): such an id is a string parameter.
    const unsafe = Object.keys(h.params).filter((k) => h.params[k].type === 'integer' && typeof data[k] === 'number' && !Number.isSafeInteger(data[k]));
    if (!unsafe.length) return data;
    throw new CommandError('flows', 'FLOW_PARAMS_INVALID', `Invalid parameters for flow "${h.name}": ${unsafe.map((k) => `parameter "${k}" is an integer past ${Number.MAX_SAFE_INTEGER}, which JavaScript cannot hold exactly (rule: safe integer)`).join('; ')}. Give a smaller one, or save the flow with ${unsafe.map((k) => `--param ${k}:string=…`).join(' ')} for a long id.`);
  }
  const problems = (validate.errors ?? []).map((e) => {
    const name = e.instancePath.replace(/^\//, '');
    switch (e.keyword) {
      case 'required':
        return `parameter "${String(e.params.missingProperty)}" is missing (rule: required)`;
      case 'additionalProperties':
        return `parameter "${String(e.params.additionalProperty)}" is not one of the flow's (rule: additionalProperties false)`;
      case 'type':
        return `parameter "${name}" must be ${e.params.type === 'integer' ? 'an' : 'a'} ${String(e.params.type)}, got ${Array.isArray(given[name]) ? 'a list' : given[name] === null ? 'null' : `a ${typeof given[name]}`} (rule: type ${String(e.params.type)})`;
      default:
        return `parameter "${name || '(all)'}" ${e.message ?? 'is invalid'} (rule: ${e.keyword})`;
    }
  });
  const takes = Object.keys(h.params).map((k) => describeParam(h, k)).join('; ') || 'none';
  throw new CommandError(
    'flows',
    'FLOW_PARAMS_INVALID',
    `Invalid parameters for flow "${h.name}": ${problems.join('; ')}. It takes: ${takes}. Give each as --param name=value.`,
  );
}

/** How deep `--params` may nest: the script's copy is made by walking it (a 60,000-deep value
 * overflowed the stack as an internal error instead of a usage error). */
const MAX_PARAMS_DEPTH = 64;

/**
 * The `params` of `gstack run` (`--params JSON`, undefined when not given): a saved flow's
 * file (it has a header) gets them checked against its schema with its defaults filled in,
 * exactly as `gstack flows run` does; any other script gets the object as given.
 */
export function paramsForScript(source: string, json: string | undefined): Record<string, unknown> | undefined {
  let given: Record<string, unknown> | undefined;
  if (json !== undefined) {
    let value: unknown;
    try {
      value = JSON.parse(json);
    } catch (err) {
      // A file's name without its @ (trial V7: `--params p.json`), said as such; never quoted
      // otherwise, since the text may be a test password.
      if (/^[\w./~-]+\.json$/i.test(json.trim())) throw new UsageError(`--params ${json.trim()} is a file's name, read as JSON text: give --params @${json.trim()} to read the file.`);
      throw new UsageError(`--params is not valid JSON (${jsonErrorWhere(err)}). Quote it for the shell: --params '{"email":"a@example.com"}', or read a file with --params @params.json.`);
    }
    if (!value || typeof value !== 'object' || Array.isArray(value)) throw new UsageError(`--params must be a JSON object, e.g. --params '{"email":"a@example.com"}'.`);
    if (jsonDepth(value, MAX_PARAMS_DEPTH) > MAX_PARAMS_DEPTH) throw new UsageError(`--params nests deeper than ${MAX_PARAMS_DEPTH} levels: pass flatter data (or write it to a file under pwd with --in and read it there).`);
    given = value as Record<string, unknown>;
  }
  let header: FlowHeader | undefined;
  try {
    header = parseFlowFile(source).header;
  } catch (err) {
    if (!(err instanceof FlowHeaderError)) throw err;
    throw new CommandError('flows', 'FLOW_INVALID', `The script's flow header is broken: ${err.message}. Fix it by hand, or save the flow again with \`gstack flows save NAME -f FILE --force\`.`);
  }
  if (!header) return given;
  return resolveFlowParams(header, given ?? {}, { coerce: false });
}

/** Where JSON.parse stopped, without the text around it that Node's message quotes (it may be
 * a test password; pass 27, A27). */
export function jsonErrorWhere(err: unknown): string {
  const message = String((err as Error)?.message);
  const at = /position (\d+)/.exec(message);
  if (at) return `at character ${Number(at[1]) + 1}`;
  if (/Unexpected token/.test(message)) return 'a word that is not JSON: strings take double quotes';
  return 'it ends too early';
}
