// `gstack flows save|run|list|show|check` (docs/ARCHITECTURE.md, "Saved flows"): the command's
// logic, with the CLI's parsing done (bin/commands/flows.ts) and the running of a script handed
// in (`FlowRunner`: the same path, flags and output as `gstack run`). Owns what each action does
// and prints; the header format, the parameters, the expectations and the storage are their
// own modules next to this one.
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { lstat } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { packageVersion } from '../package-version.js';
import { MAX_SCRIPT_BYTES } from '../call-io.js';
import { readRegularFile } from '../read-file.js';
import { CommandError } from '../command-errors.js';
import type { RunResult } from '../runner/run-script.js';
import { compareEvidence, evidenceOf, truncationOf, withoutOutCopies, type Drift } from '../flows/expect.js';
import { FlowHeaderError, formatHeader, parseFlowFile, type FlowHeader } from '../flows/header.js';
import { isSecretField, SECRET_RULES } from '../runtime/snapshot.js';
import { declareParams, describeParam, givenParams, resolveFlowParams, savedParams } from '../flows/params.js';
import { checkFlowName, displayPath, findFlow, flowDirs, listFlowLocations, readHistory, recordRun, writeFlow, type FlowDirs, type FlowLocation } from '../flows/store.js';
import { SecretMatcher } from '../runtime/secret-match.js';
import { FOREIGN_SECRET_MARK, jsonText, stripControls } from '../runtime/output.js';

/** Runs a script the way `gstack run` does with this invocation's shared flags. `print`: its
 * lines stream to stdout (or its --json object is printed) as `gstack run` prints them. */
/** Runs one flow; `secrets` are values to cut from its output besides its own secret parameters. */
export type FlowRunner = (script: string, params: Record<string, unknown>, print: boolean, inputs?: string[], secrets?: readonly string[], beforeForget?: (cut: (text: string) => string) => void) => Promise<RunResult>;

export interface FlowsArgs {
  action: 'save' | 'run' | 'list' | 'show' | 'check';
  /** The positionals after the action. */
  args: string[];
  /** save: the script, already read (argument, -f FILE or stdin). */
  source?: string;
  describe?: string;
  param: string[];
  required: string[];
  /** The `--in` files as given (relative to `cwd`). */
  inputs: string[];
  /** save: --out DIR (the run's files are copied there, and ARTIFACT lines name the copies). */
  out?: string;
  global: boolean;
  force: boolean;
  json: boolean;
}

export interface FlowsIo {
  out(line: string): void;
  err(line: string): void;
  cwd: string;
  env: NodeJS.ProcessEnv;
}

/** Lines of a failed run that `flows check` shows under its DRIFT line. */
const FAILURE_LINES = 40;

/** A flow file's header, or FLOW_INVALID naming the file. */
function parseAt(source: string, file: string): ReturnType<typeof parseFlowFile> {
  try {
    return parseFlowFile(source);
  } catch (err) {
    if (err instanceof FlowHeaderError) {
      throw new CommandError('flows', 'FLOW_INVALID', `${file}: ${err.message}. Fix the header by hand, or save the flow again with \`gstack flows save NAME -f ${file} --force\`.`);
    }
    throw err;
  }
}

/** A saved flow's text, read by the one bounded reader (driver/read-file.ts): a flow is a flow
 * script, so at most MAX_SCRIPT_BYTES, and a FIFO or device where a flow file should be never
 * holds `flows list`, `show` or `check` (a 450 MB file once took 1 GB to list). */
async function readFlowFile(file: string): Promise<string> {
  const r = await readRegularFile(file, MAX_SCRIPT_BYTES);
  if (r.ok) return r.bytes.toString('utf8');
  const why = r.why === 'too-big' ? `it is larger than a flow script may be (${MAX_SCRIPT_BYTES} bytes)` : r.why === 'special' ? 'it is not a regular file' : r.detail;
  throw new CommandError('flows', 'FLOW_INVALID', `${file}: ${why}. Delete it, or save the flow again with \`gstack flows save NAME -f FILE --force\`.`);
}

async function load(loc: FlowLocation): Promise<{ source: string; header?: FlowHeader }> {
  const source = await readFlowFile(loc.file);
  return { source, header: parseAt(source, loc.file).header };
}

export async function runFlowsCommand(a: FlowsArgs, io: FlowsIo, run: FlowRunner): Promise<number> {
  const dirs = flowDirs(io.cwd, io.env);
  switch (a.action) {
    case 'save':
      return save(a, io, dirs, run);
    case 'run':
      return runOne(a, io, dirs, run);
    case 'list':
      return list(a, io, dirs);
    case 'show': {
      const loc = await findFlow(checkFlowName(a.args[0]), dirs);
      io.out(await readFlowFile(loc.file));
      return 0;
    }
    case 'check':
      return check(a, io, dirs, run);
  }
}

async function save(a: FlowsArgs, io: FlowsIo, dirs: FlowDirs, run: FlowRunner): Promise<number> {
  const name = checkFlowName(a.args[0]);
  const dir = a.global ? dirs.global : dirs.project;
  if (!dir) {
    throw new CommandError('flows', 'NO_REPOSITORY', `${io.cwd} is in no git repository, so there is no project to keep the flow in. Run from inside the repository, or pass --global to keep it in ${dirs.global}.`);
  }
  const file = join(dir, `${name}.js`);
  // Whether anything is there, without opening it: a FIFO or a device under the flow's name
  // would hold a read (and the session host with it) for ever (pass 30, C30).
  const exists = await lstat(file).then(() => true, () => false);
  if (!a.force && exists) {
    throw new CommandError('flows', 'FLOW_EXISTS', `A flow "${name}" is already saved at ${file}. Pick another name, or pass --force to replace it.`);
  }
  // Saving a saved flow again (after an edit) keeps its parameters, description and --in
  // files unless new ones are given; its old header is replaced. The saved flow is the script's
  // own header when it has one (the saved file, edited), else the flow --force replaces (the
  // plain script it was saved from, edited).
  const { header: own, script } = parseAt(a.source ?? '', 'the script');
  const previous = own ?? (exists ? await readFlowFile(file).then((t) => parseFlowFile(t).header).catch(() => undefined) : undefined);
  const declared = a.param.length || a.required.length || !previous
    ? declareParams(a.param, a.required, (name) => isSecretField({ hints: [name] }, SECRET_RULES))
    : { params: previous.params, required: previous.required, values: savedParams(previous) };
  refuseWrittenSecrets(declared, a.describe, script, name, a.inputs);
  if (previous && !own && !a.param.length && !a.required.length && Object.keys(previous.params).length) {
    io.err(`gstack: keeping the parameters of the flow it replaces (${Object.keys(previous.params).join(', ')}); give --param to declare others.`);
  }

  // Its --in files likewise: a saved flow saved again without --in gets the files it recorded.
  const keepInputs = !a.inputs.length && previous?.inputs.length ? previous.inputs : undefined;
  const runInputs = keepInputs && savedInputs(a, { name, where: a.global ? 'global' : 'project', file }, previous, dirs);
  // A value the save run saw as a secret (an ordinary parameter typed into a password field)
  // would be written in the header as a default or an example, and printed by `flows list`
  // (pass 41, A41): asked of the run before it forgets what it saw.
  let seenInValues: string[] = [];
  const result = await run(script, declared.values, !a.json, runInputs, undefined, (cut) => {
    seenInValues = Object.entries(declared.values)
      .filter(([k, v]) => !declared.params[k]?.writeOnly && (typeof v === 'string' || typeof v === 'number') && String(v) !== '' && cut(String(v)) !== String(v))
      .map(([k]) => k);
    if (a.describe !== undefined && cut(a.describe) !== a.describe) seenInValues.push('--describe');
  });
  if (result.exitCode === 0 && seenInValues.length) {
    const params = seenInValues.filter((k) => k !== '--describe');
    if (a.json) io.out(jsonText({ ...result, saved: null }));
    if (!params.length) throw new CommandError('flows', 'FLOW_INVALID', 'Not saved: --describe holds a value the save run saw in a secret field, and would be written in the flow. Describe the flow without it.');
    throw new CommandError('flows', 'FLOW_INVALID', `Not saved: the value of --param ${params.join(', ')} was seen in a secret field during the save run (typed into a password field, or shown in one), and would be written in the flow as ${params.length > 1 ? 'their defaults' : 'its default'}. Give it under a secret name (\`--param password=…\`: required, never written, given at each run), or give only its part that is not secret.`);
  }
  if (result.exitCode !== 0) {
    if (a.json) io.out(jsonText({ ...result, saved: null }));
    const why = `Not saved: the flow did not pass (exit ${result.exitCode}). Fix the script until \`gstack run -f\` passes, then save it.`;
    if (result.exitCode === 1) throw new CommandError('flows', 'FLOW_NOT_SAVED', why);
    io.err(why);
    return result.exitCode;
  }
  const cut = truncationOf(result.lines);
  if (cut) {
    if (a.json) io.out(jsonText({ ...result, saved: null }));
    throw new CommandError('flows', 'FLOW_NOT_SAVED', notComparable(cut));
  }
  const { recorded, outside, hidden } = keepInputs ? { recorded: keepInputs, outside: [], hidden: [] } : recordInputs(a.inputs, io.cwd, a.global ? undefined : join(dir, '..', '..'));
  if (hidden.length) io.err(`gstack: the flow's --in ${hidden.join(' ')} ${hidden.length > 1 ? 'are hidden files' : 'is a hidden file'}${a.global ? '' : ' of the repository'} (a name starting with "."${a.global ? ' on its path' : ''}), so not recorded with it: pass --in to \`flows run\` and \`flows check\` yourself. This save's run had it: what the script printed of it is in the saved expectations, so read them before you commit the flow.`);
  if (outside.length) io.err(`gstack: the flow's --in ${outside.join(' ')} ${outside.length > 1 ? 'are' : 'is'} outside the repository, so not recorded with it: pass --in to \`flows run\` and \`flows check\` yourself (or copy the file into the repository and save again).`);
  const header: FlowHeader = {
    name,
    // Written into a file the user commits and `cat`s: no control characters (an ESC from a
    // careless --describe "$TITLE").
    description: a.describe !== undefined ? stripControls(a.describe.replace(/\s+/g, ' ')) : previous?.description ?? '',
    params: declared.params,
    required: declared.required,
    created: new Date().toISOString(),
    gstack: packageVersion(),
    engine: result.engine ?? 'unknown',
    inputs: recorded,
    // The ARTIFACT lines of --out's copies are the save's own, printed by no later run (check
    // passes no --out): they are not expectations.
    expect: evidenceOf(a.out !== undefined ? withoutOutCopies(result.lines, result.artifacts) : result.lines, result.pwd),
  };
  // What a cut covers is not compared: a page that keeps a word it will change in a secret
  // field changes it without a drift (docs/SECURITY.md, "Words a page makes secret"; pass 36).
  const cutLines = header.expect.filter((e) => e.includes('[redacted')).length;
  if (cutLines) io.err(`gstack: ${cutLines} saved expectation${cutLines === 1 ? ' holds' : 's hold'} [redacted]: what the cut covers is never compared, so check cannot see it change. Check what you rely on in the script too (a status the page cannot keep in a secret field: an element's presence, the URL).`);
  const shown = a.global ? file : displayPath(file, join(dir, '..', '..'));
  await writeFlow(file, formatHeader(header, shown) + script.replace(/\n*$/, '\n'), a.force, a.global ? join(dir, '..') : join(dir, '..', '..'));
  await recordRun(file, io.env, result);
  const saved = { name, file, params: Object.keys(header.params), expectations: header.expect.length };
  if (a.json) io.out(jsonText({ ...result, saved }));
  else io.out(`FLOW_SAVED name=${name} file=${file} params=${saved.params.join(',') || 'none'} expectations=${saved.expectations}`);
  return 0;
}

/**
 * A secret parameter's value must not be written in the flow by another way in: another
 * parameter's default or example (a URL with `?token=…`, pass 27), the description, or the
 * script itself (a comment with the test password, pass 28). Each is read as the output cut
 * reads a line (secret-match.ts: %-encoded, escaped, upper-cased, fullwidth, with dashes, cut
 * short), so a copy the cut would catch in output is caught here too (A28).
 */
function refuseWrittenSecrets(declared: ReturnType<typeof declareParams>, describe: string | undefined, script: string, flowName: string, inputs: readonly string[]): void {
  const secret = Object.keys(declared.params).filter((k) => declared.params[k].writeOnly);
  if (!secret.length) return;
  const matcher = new SecretMatcher();
  matcher.add(secret.map((k) => String(declared.values[k] ?? '')).filter(Boolean));
  const holds = (text: string) => matcher.cut(text, '\u0000') !== text;
  const names = secret.join(', ');
  for (const [k, schema] of Object.entries(declared.params)) {
    if (!schema.writeOnly && holds(String(declared.values[k] ?? ''))) {
      throw new CommandError('flows', 'FLOW_INVALID', `Not saved: --param ${k}'s value holds the value of the secret parameter ${names} (or a spelling of it), and would be written in the flow. Give ${k} without it and build it in the script (\`params.${k} + params.${secret[0]}\`).`);
    }
  }
  // The flow's name, a parameter's name and an --in path are written in the file too, and the
  // name in every line `save` and `check` print (pass 34, C34).
  if (holds(flowName)) throw new CommandError('flows', 'FLOW_INVALID', `Not saved: the flow's name holds the value of the secret parameter ${names}, and would be its file name and be printed by every save, run and check. Name the flow without it.`);
  if (Object.keys(declared.params).some(holds)) throw new CommandError('flows', 'FLOW_INVALID', `Not saved: a parameter's name holds the value of the secret parameter ${names}, and would be written in the flow. Name the parameter without it.`);
  if (inputs.some(holds)) throw new CommandError('flows', 'FLOW_INVALID', `Not saved: an --in path holds the value of the secret parameter ${names}, and would be written in the flow. Rename the file without it.`);
  if (describe !== undefined && holds(describe)) throw new CommandError('flows', 'FLOW_INVALID', `Not saved: --describe holds the value of the secret parameter ${names}, and would be written in the flow. Describe the flow without it.`);
  if (holds(script)) throw new CommandError('flows', 'FLOW_INVALID', `Not saved: the script itself holds the value of the secret parameter ${names} (a literal or a comment), and would be written in the flow. Read it from params.${secret[0]} instead.`);
}

/** Why a run with this line (truncationOf) is not saved, and what to do. */
function notComparable(cut: string): string {
  if (cut.includes(FOREIGN_SECRET_MARK)) {
    return `Not saved: a printed line holds words that a frame of another origin (an ad, a widget) holds in a secret field (${cut}), so the line reads the same whatever the page says. Print the value you check without those words, or check it in the script, whose own reads are never cut (\`if (!status.includes("accepted")) throw new Error(status)\`).`;
  }
  if (cut.startsWith('[redacted: a line whose escapes')) {
    return `Not saved: a printed line nests escapes deeper than the secret filter reads (${cut}), so it cannot be compared. Print the value you check decoded, or check it in the script.`;
  }
  return `Not saved: a limit cut the flow's output (${cut}), and what was cut could not be kept to check. Print less (a slice of long text, the lines that matter, a snapshot narrowed with { selector } or { interactive: true }), or raise the limit that cut it (--max-output, read's maxChars, links' maxLinks).`;
}

async function runOne(a: FlowsArgs, io: FlowsIo, dirs: FlowDirs, run: FlowRunner): Promise<number> {
  const loc = await findFlow(checkFlowName(a.args[0]), dirs);
  if (a.args.length > 1) throw new CommandError('flows', 'FLOW_INVALID', `flows run takes one flow name (got ${a.args.join(' ')}); give parameters as --param name=value.`);
  const { source, header } = await load(loc);
  const given = givenParams(a.param);
  // A file without a header (written by hand into .gstack/flows/) takes its parameters as given.
  const params = header ? resolveFlowParams({ ...header, name: loc.name }, given, { coerce: true }) : given;
  const result = await run(source, params, true, savedInputs(a, loc, header, dirs));
  await recordRun(loc.file, io.env, result);
  return result.exitCode;
}

async function list(a: FlowsArgs, io: FlowsIo, dirs: FlowDirs): Promise<number> {
  const flows = [];
  for (const loc of await listFlowLocations(dirs)) {
    let header: FlowHeader | undefined;
    let problem: string | undefined;
    try {
      header = (await load(loc)).header;
    } catch (err) {
      problem = (err as Error).message;
    }
    const history = await readHistory(loc.file, io.env);
    flows.push({ ...loc, header, problem, history });
  }
  if (a.json) {
    io.out(jsonText({ flows: flows.map((f) => ({ name: f.name, where: f.where, file: f.file, description: f.header?.description ?? '', params: f.header?.params ?? {}, required: f.header?.required ?? [], created: f.header?.created ?? null, engine: f.header?.engine ?? null, lastPass: f.history.lastPass ?? null, lastFailure: f.history.lastFailure ?? null, lastCheck: f.history.lastCheck ?? null, problem: f.problem ?? null })), project: dirs.project ?? null, global: dirs.global }));
    return 0;
  }
  for (const f of flows) {
    const description = f.problem ?? f.header?.description ?? '';
    io.out(`FLOW ${f.name} where=${f.where} file=${f.file} lastPass=${f.history.lastPass?.at ?? 'never'} lastFailure=${f.history.lastFailure?.at ?? 'never'} lastCheck=${f.history.lastCheck ? `${f.history.lastCheck.status}@${f.history.lastCheck.at}` : 'never'} description=${JSON.stringify(description)}`);
    if (f.header) for (const p of Object.keys(f.header.params)) io.out(`  PARAM ${describeParam(f.header, p)}`);
  }
  io.out(`FLOWS=${flows.length} project=${dirs.project ?? 'none'} global=${dirs.global}`);
  if (!flows.length) io.err('No saved flows here. Save one that passed: gstack flows save NAME -f flow.js --param url=URL');
  return 0;
}

interface CheckOutcome {
  name: string;
  where: string;
  file: string;
  /** `skip`: not run. Only when no names were given (check all) and the flow takes a secret
   * parameter the command was not given: it cannot run, and it has not drifted. */
  status: 'pass' | 'drift' | 'skip';
  expectations: number;
  engine: string | null;
  drifts: Drift[];
  exitCode: number;
  error: string | null;
  /** A failed run's last lines. */
  lines: string[];
}

async function check(a: FlowsArgs, io: FlowsIo, dirs: FlowDirs, run: FlowRunner): Promise<number> {
  const targets = a.args.length ? await Promise.all(a.args.map((n) => findFlow(n, dirs))) : await listFlowLocations(dirs);
  if (!targets.length) {
    throw new CommandError('flows', 'FLOW_NOT_FOUND', `No saved flows to check in ${[dirs.project ?? '(no repository here)', dirs.global].join(' or ')}. Run from inside the repository, or save one with \`gstack flows save NAME -f flow.js\`.`);
  }
  // A secret parameter is never saved, so `check` is given it (--param), like `flows run`.
  const given = givenParams(a.param);
  // Each is cut from every flow's output, also a flow that does not take it: the command was
  // given the value, and another flow can print it (a page that keeps a password in its
  // storage; pass 31, A31).
  const givenSecrets = Object.entries(given).filter(([k]) => isSecretField({ hints: [k] }, SECRET_RULES)).map(([, v]) => String(v)).filter(Boolean);
  // And from what check prints itself: a saved expectation (`before=`) holds it in the clear
  // when another flow's save printed it without knowing it was one.
  const secrets = new SecretMatcher();
  secrets.add(givenSecrets);
  const cut = (t: string | null): string | null => (t === null ? null : secrets.cut(t, '[redacted]'));
  const outcomes: CheckOutcome[] = [];
  let worst = 0;
  for (const loc of targets) {
    let loaded: Awaited<ReturnType<typeof load>> | undefined;
    let inputs: string[] | undefined;
    let params: Record<string, unknown> = {};
    try {
      loaded = await load(loc);
      inputs = savedInputs(a, loc, loaded.header, dirs);
      const header = loaded.header;
      if (header) {
        const secret = Object.keys(header.params).filter((k) => header.params[k].writeOnly && !Object.hasOwn(given, k));
        const needs = `${secret.length > 1 ? 's' : ''} ${secret.join(', ')}, which is never saved. Give it to check as ${secret.map((k) => `--param ${k}=VALUE`).join(' ')}`;
        // Checking every flow (a CI step): one that cannot run without a secret is skipped, said
        // on its own line, not a drift that fails the step. Named, it is the caller's mistake.
        if (secret.length && !a.args.length) {
          const o: CheckOutcome = { name: cut(loc.name)!, where: loc.where, file: cut(loc.file)!, status: 'skip', expectations: header.expect.length, engine: null, drifts: [], exitCode: 0, error: `takes the secret parameter${needs}`, lines: [] };
          outcomes.push(o);
          if (!a.json) printOutcome(o, io);
          continue;
        }
        if (secret.length) throw new CommandError('flows', 'FLOW_PARAMS_INVALID', `Not checked: flow "${loc.name}" takes the secret parameter${needs}.`);
        const own = Object.fromEntries(Object.entries(given).filter(([k]) => Object.hasOwn(header.params, k)));
        params = resolveFlowParams({ ...header, name: loc.name }, { ...savedParams(header), ...own }, { coerce: true });
      }
    } catch (err) {
      // One broken flow file, or one whose `in:` file is gone or outside, or whose secret
      // parameter was not given, is that flow's drift: the others are still checked.
      if (!(err instanceof CommandError && (err.code === 'FLOW_INVALID' || err.code === 'FLOW_PARAMS_INVALID'))) throw err;
      const o: CheckOutcome = { name: cut(loc.name)!, where: loc.where, file: cut(loc.file)!, status: 'drift', expectations: loaded?.header?.expect.length ?? 0, engine: null, drifts: [], exitCode: err.exitCode, error: cut(err.message), lines: [] };
      outcomes.push(o);
      worst = Math.max(worst, 1);
      if (!a.json) printOutcome(o, io);
      continue;
    }
    const { source, header } = loaded;
    const expect = header?.expect ?? [];
    const result = await run(source, params, false, inputs, givenSecrets);
    const failed = result.exitCode !== 0;
    const truncated = truncationOf(result.lines);
    // A cut run is never a pass: what it printed after the cut was not compared.
    const compared = failed ? [] : [...compareEvidence(expect, evidenceOf(result.lines, result.pwd)), ...(truncated ? [{ label: 'OUTPUT', before: null, after: truncated }] : [])];
    const drifts = compared.map((d) => ({ ...d, before: cut(d.before), after: cut(d.after) }));
    // A drift is the flow's failure in its history too (`flows list` showed lastFailure=never
    // after one, since the run itself exited 0).
    await recordRun(loc.file, io.env, drifts.length ? { exitCode: 1, engine: result.engine, error: `drift: ${[...new Set(drifts.map((d) => d.label))].join(', ')}` } : result, failed || drifts.length ? 'drift' : 'pass');
    const o: CheckOutcome = {
      // A name (and its file's) may spell a value check was given as secret: saved before the
      // save refused such names, or by hand (pass 34, C34).
      name: cut(loc.name)!,
      where: loc.where,
      file: cut(loc.file)!,
      status: failed || drifts.length ? 'drift' : 'pass',
      expectations: expect.length,
      engine: result.engine,
      drifts,
      exitCode: result.exitCode,
      error: cut(result.error),
      lines: failed ? result.lines.slice(-FAILURE_LINES).map((l) => cut(l)!) : [],
    };
    outcomes.push(o);
    // A run that could not start (no engine 3, busy profile 4) says so with its own code.
    worst = Math.max(worst, result.exitCode === 3 || result.exitCode === 4 ? result.exitCode : o.status === 'drift' ? 1 : 0);
    if (!a.json) printOutcome(o, io);
  }
  const count = (status: CheckOutcome['status']) => outcomes.filter((o) => o.status === status).length;
  const [pass, drift, skip] = [count('pass'), count('drift'), count('skip')];
  if (a.json) io.out(jsonText({ ok: worst === 0, flows: outcomes, pass, drift, skip }));
  else io.out(`CHECKED flows=${outcomes.length} pass=${pass} drift=${drift} skip=${skip}`);
  return worst;
}

function printOutcome(o: CheckOutcome, io: FlowsIo): void {
  if (o.status === 'skip') {
    io.out(`SKIP ${o.name} error=${JSON.stringify(o.error)}`);
    return;
  }
  if (o.status === 'pass') {
    io.out(`PASS ${o.name} expectations=${o.expectations} engine=${o.engine ?? 'unknown'}`);
    return;
  }
  if (o.exitCode !== 0) {
    io.out(`DRIFT ${o.name} failed exit=${o.exitCode} error=${JSON.stringify(o.error)}`);
    for (const l of o.lines) io.out(`  | ${l}`);
    return;
  }
  io.out(`DRIFT ${o.name} changed=${o.drifts.length} expectations=${o.expectations}`);
  for (const d of o.drifts) io.out(`  EXPECT ${d.label} before=${JSON.stringify(d.before)} after=${JSON.stringify(d.after)}${d.line !== undefined ? ` line=${d.line}` : ''}`);
}

/** Whether `abs`, with every link on its path followed, is still inside `root` (itself
 * resolved): a link in the repository to a file outside it (`fixture.json -> ~/.ssh/id_ed25519`
 * in a cloned repository) is outside (pass 21, C21). A path that does not exist yet is judged
 * as written. */
function reallyInside(abs: string, root: string): boolean {
  let real: string;
  let realRoot: string;
  try {
    realRoot = realpathSync(root);
  } catch {
    realRoot = root;
  }
  try {
    real = realpathSync(abs);
  } catch {
    return true;
  }
  return below(realRoot, real);
}

/** Whether `p` is a path below `root` (not `root` itself), as written. */
function below(root: string, p: string): boolean {
  const rel = relative(root, p);
  return rel !== '' && rel !== '..' && !rel.startsWith('..' + sep) && !isAbsolute(rel);
}

/** The `--in` files of a save, as the flow's header keeps them: relative to the repository's
 * root for a project flow (a file outside it is not recorded: the committed flow would name a
 * path of this machine), absolute for a global one (`root` undefined). */
export function recordInputs(given: string[], cwd: string, root: string | undefined): { recorded: string[]; outside: string[]; hidden: string[] } {
  const recorded: string[] = [];
  const outside: string[] = [];
  const hidden: string[] = [];
  for (const g of given) {
    const abs = resolve(cwd, g);
    if (root === undefined) {
      // A global flow names the file by its absolute path: a hidden one anywhere on it (`.env`,
      // `~/.ssh/…`) is handed to every later run from any folder, CI's `flows check` included
      // (pass 41, C41), so it is not recorded either.
      if (hiddenBelow(abs, sep)) hidden.push(g);
      else recorded.push(abs);
      continue;
    }
    if (!below(root, abs) || !reallyInside(abs, root)) outside.push(g);
    else if (hiddenBelow(abs, root)) hidden.push(g);
    else recorded.push(relative(root, abs).split(sep).join('/'));
  }
  return { recorded, outside, hidden };
}

/** Whether a file below `root` is a hidden one (`.env`, `.git/config`), as written or as its
 * real path: a committed flow that hands one to every run is easy to miss in a review (pass 35,
 * C35), so it is never recorded, and a header that names one is refused. A global flow asks it
 * of the whole path (`root` the file system's, pass 41, C41). */
function hiddenBelow(abs: string, root: string): boolean {
  const parts = (p: string, r: string) => relative(r, p).split(sep);
  let real = abs;
  let realRoot = root;
  try {
    real = realpathSync(abs);
    realRoot = realpathSync(root);
  } catch {
    /* judged as written */
  }
  return [...parts(abs, root), ...parts(real, realRoot)].some((x) => x.startsWith('.') && x !== '..');
}

/**
 * The files a run of a saved flow is given: `--in` when the caller gave any, else the ones its
 * header recorded at save (undefined: none). A project flow's files are the repository's: a
 * header (edited by hand, or from someone else's commit) that names a file outside it is
 * refused, and so is a recorded file that is gone, each saying what to do.
 */
export function savedInputs(a: Pick<FlowsArgs, 'inputs'>, loc: FlowLocation, header: FlowHeader | undefined, dirs: FlowDirs): string[] | undefined {
  if (a.inputs.length || !header?.inputs.length) return undefined;
  const root = loc.where === 'project' && dirs.project ? join(dirs.project, '..', '..') : undefined;
  return header.inputs.map((f) => {
    if (root !== undefined) {
      const abs = resolve(root, f);
      if (isAbsolute(f) || !below(root, abs)) {
        throw new CommandError('flows', 'FLOW_INVALID', `${loc.file}: its header's "in: ${f}" is not a file inside the repository (${root}). A project flow's inputs are the repository's files: fix the line by hand, or save the flow again with --in FILE.`);
      }
      if (!reallyInside(abs, root)) {
        throw new CommandError('flows', 'FLOW_INVALID', `${loc.file}: its header's "in: ${f}" leads outside the repository (${root}) through a link. A project flow's inputs are the repository's own files: replace the link with the file, or pass --in FILE yourself.`);
      }
      if (hiddenBelow(abs, root)) {
        throw new CommandError('flows', 'FLOW_INVALID', `${loc.file}: its header's "in: ${f}" names a hidden file of the repository (a name starting with "."), which a saved flow never hands to its runs. Remove the line, or pass --in FILE yourself.`);
      }
      if (!existsSync(abs)) throw new CommandError('flows', 'FLOW_INVALID', `${loc.file}: the flow was saved with --in ${f}, and ${abs} is gone. Put the file back, or pass --in FILE to \`flows run\`/\`flows check\` (or save the flow again).`);
      return abs;
    }
    if (!isAbsolute(f)) throw new CommandError('flows', 'FLOW_INVALID', `${loc.file}: its header's "in: ${f}" is not an absolute path, as a global flow's inputs are. Fix the line by hand, or save the flow again with --in FILE.`);
    if (hiddenBelow(f, sep)) throw new CommandError('flows', 'FLOW_INVALID', `${loc.file}: its header's "in: ${f}" names a hidden file (a name starting with "." on its path), which a saved flow never hands to its runs. Remove the line, or pass --in FILE yourself.`);
    if (!existsSync(f)) throw new CommandError('flows', 'FLOW_INVALID', `${loc.file}: the flow was saved with --in ${f}, which is gone. Put the file back, or pass --in FILE to \`flows run\`/\`flows check\` (or save the flow again).`);
    return f;
  });
}
