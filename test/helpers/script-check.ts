// Static checks of a flow script (the tier-1 checks): it parses the way the runner runs it (the
// body of an async function), names only catalog globals, calls only catalog Page members, and
// ends with the sentinel. With `engine: 'aside'` it holds a script to what the catalog says
// Aside has. Used on every script in the generated docs and on the Aside render script
// (render/engines/aside-render-script.js).
//
// Scripts are parsed with acorn: a small, dependency-free ECMAScript parser (the one behind
// webpack and rollup) that gives a standard ESTree AST and precise syntax errors, so "parses"
// means what V8 will accept, not what a regex guesses.
import vm from 'node:vm';
import * as acorn from 'acorn';
import { loadCatalog } from '../../driver/catalog.js';

const catalog = loadCatalog();
const GLOBALS = new Set(catalog.globals.map((g) => g.name));
const PAGE_MEMBERS = new Set([...catalog.pageMethods.map((m) => m.name), ...catalog.pageExtras.map((e) => e.name)]);
// What a `vm` context has on its own: the ECMAScript intrinsics, nothing from Node or the DOM.
const INTRINSICS = new Set([...Object.getOwnPropertyNames(vm.runInNewContext('globalThis')), 'undefined', 'NaN', 'Infinity', 'globalThis']);
// Function arguments of these methods run inside the page, where `document` and `window` exist.
const IN_PAGE_METHODS = new Set(['evaluate', 'evaluateHandle', 'evaluateAll', 'waitForFunction', '$eval', '$$eval']);


// What Aside has: the catalog marks each global's and each Page member's Aside support.
const ASIDE_GLOBALS = new Set(catalog.globals.filter((g) => g.engines.aside === 'yes').map((g) => g.name));
const ASIDE_PAGE_MEMBERS = new Set([
  ...catalog.pageMethods.filter((m) => m.aside === 'yes').map((m) => m.name),
  ...catalog.pageExtras.filter((e) => e.engines.aside === 'yes').map((e) => e.name),
]);

type Node = acorn.Node & Record<string, any>;

function* walk(node: Node, parent: Node | null = null): Generator<{ node: Node; parent: Node | null }> {
  yield { node, parent };
  if (node.type === 'CallExpression' && node.callee.type === 'MemberExpression' && !node.callee.computed && IN_PAGE_METHODS.has(node.callee.property.name)) {
    yield* walk(node.callee, node);
    for (const arg of node.arguments) {
      if (arg.type !== 'ArrowFunctionExpression' && arg.type !== 'FunctionExpression') yield* walk(arg, node);
    }
    return;
  }
  for (const key of Object.keys(node)) {
    const v = node[key];
    if (Array.isArray(v)) for (const c of v) if (c && typeof c.type === 'string') yield* walk(c, node);
    if (v && typeof v.type === 'string' && key !== 'loc') yield* walk(v, node);
  }
}

function bindingNames(pattern: Node | null, into: Set<string>): void {
  if (!pattern) return;
  if (pattern.type === 'Identifier') into.add(pattern.name);
  else if (pattern.type === 'ObjectPattern') for (const p of pattern.properties) bindingNames(p.type === 'RestElement' ? p.argument : p.value, into);
  else if (pattern.type === 'ArrayPattern') for (const e of pattern.elements) bindingNames(e, into);
  else if (pattern.type === 'RestElement') bindingNames(pattern.argument, into);
  else if (pattern.type === 'AssignmentPattern') bindingNames(pattern.left, into);
}

/** Identifier nodes that name something rather than refer to a variable. */
function isNameOnly(node: Node, parent: Node | null): boolean {
  if (!parent) return false;
  if (parent.type === 'MemberExpression' && parent.property === node && !parent.computed) return true;
  if ((parent.type === 'Property' || parent.type === 'MethodDefinition' || parent.type === 'PropertyDefinition') && parent.key === node && !parent.computed) {
    return !(parent.type === 'Property' && parent.shorthand && parent.value === node);
  }
  return ['LabeledStatement', 'BreakStatement', 'ContinueStatement'].includes(parent.type) || parent.type === 'MetaProperty';
}

export interface CheckOptions {
  /** A catalog example or a `js fragment` block: `pg` is a Page, free names may be values
   * from around it (only unknown calls count), and there is no sentinel to end with. */
  fragment?: boolean;
  /** 'aside': only what the catalog says Aside has — its globals, and Page members marked
   * `aside: yes` or feature-tested first (`typeof pg.on === 'function'`). */
  engine?: 'aside';
}

/** Problems with one script; empty when it is fine. */
export function checkScript(source: string, opts: CheckOptions = {}): string[] {
  const { fragment = false, engine } = opts;
  const globals = engine === 'aside' ? ASIDE_GLOBALS : GLOBALS;
  let ast: Node;
  try {
    // The runner executes a script as the body of an async function.
    ast = acorn.parse(source, { ecmaVersion: 'latest', sourceType: 'script', allowAwaitOutsideFunction: true, allowReturnOutsideFunction: true, locations: true }) as Node;
  } catch (err) {
    return [`does not parse: ${(err as Error).message}`];
  }
  const problems: string[] = [];
  const declared = new Set<string>();
  const pages = new Set<string>(fragment ? ['pg'] : []);
  for (const { node } of walk(ast)) {
    if (node.type === 'VariableDeclarator') {
      bindingNames(node.id, declared);
      const init = node.init?.type === 'AwaitExpression' ? node.init.argument : node.init;
      if (node.id.type === 'Identifier' && init?.type === 'CallExpression' && ['openTab', 'attachBrowserTab'].includes(init.callee.name)) pages.add(node.id.name);
    }
    if (node.type === 'FunctionDeclaration' || node.type === 'ClassDeclaration') if (node.id) declared.add(node.id.name);
    if (/Function/.test(node.type)) for (const p of node.params) bindingNames(p, declared);
    if (node.type === 'CatchClause') bindingNames(node.param, declared);
  }
  const guarded = engine === 'aside' ? guardedMembers(ast) : new Set<Node>();
  for (const { node, parent } of walk(ast)) {
    const at = `line ${node.loc?.start.line}`;
    if (node.type === 'ImportExpression' || node.type === 'ImportDeclaration') problems.push(`${at}: import is not available in a flow script`);
    if (node.type === 'Identifier' && !isNameOnly(node, parent)) {
      const known = declared.has(node.name) || globals.has(node.name) || INTRINSICS.has(node.name);
      const isCall = parent?.type === 'CallExpression' && parent.callee === node;
      if (!known && (!fragment || isCall)) {
        const elsewhere = engine === 'aside' && GLOBALS.has(node.name);
        problems.push(elsewhere ? `${at}: \`${node.name}\` is a catalog global Aside does not have` : `${at}: \`${node.name}\` is not a catalog global`);
      }
    }
    if (node.type === 'MemberExpression' && node.object.type === 'Identifier' && pages.has(node.object.name) && !node.computed) {
      const member = `${node.object.name}.${node.property.name}`;
      if (engine === 'aside') {
        const isTest = parent?.type === 'UnaryExpression' && parent.operator === 'typeof';
        if (!ASIDE_PAGE_MEMBERS.has(node.property.name) && !isTest && !guarded.has(node)) {
          problems.push(`${at}: ${member} is not marked available on Aside in the catalog; test for it first (typeof ${member} === 'function')`);
        }
      } else if (!PAGE_MEMBERS.has(node.property.name)) problems.push(`${at}: ${member} is not a catalog Page method`);
    }
  }
  if (!fragment) {
    const last = ast.body[ast.body.length - 1] as Node | undefined;
    const e = last?.type === 'ExpressionStatement' ? last.expression : undefined;
    const ok =
      e?.type === 'CallExpression' &&
      e.callee.type === 'MemberExpression' &&
      e.callee.object.name === 'console' &&
      e.callee.property.name === 'log' &&
      e.arguments.length === 1 &&
      e.arguments[0].value === catalog.sentinel;
    if (!ok) problems.push(`does not end with console.log("${catalog.sentinel}")`);
  }
  return problems;
}

/** Member expressions (`pg.on`) used where the script has just tested that they exist: in the
 * branch of an `if`, `?:` or `&&` whose test is `typeof pg.on === 'function'`, directly or
 * through a const bound to that test (`const listens = typeof pg.on === 'function'`). */
function guardedMembers(ast: Node): Set<Node> {
  const consts = new Map<string, Node>();
  for (const { node } of walk(ast)) {
    if (node.type === 'VariableDeclaration' && node.kind === 'const') {
      for (const d of node.declarations) if (d.id.type === 'Identifier' && d.init) consts.set(d.id.name, d.init);
    }
  }
  const key = (m: Node) => `${m.object.name}.${m.property.name}`;
  const tested = (test: Node | null | undefined, seen = new Set<string>()): string[] => {
    if (!test) return [];
    if (test.type === 'LogicalExpression' && test.operator === '&&') return [...tested(test.left, seen), ...tested(test.right, seen)];
    if (test.type === 'Identifier' && consts.has(test.name) && !seen.has(test.name)) return tested(consts.get(test.name), seen.add(test.name));
    if (test.type === 'BinaryExpression' && (test.operator === '===' || test.operator === '==')) {
      const [a, b] = test.left.type === 'UnaryExpression' ? [test.left, test.right] : [test.right, test.left];
      const m = a.type === 'UnaryExpression' && a.operator === 'typeof' ? a.argument : undefined;
      if (m?.type === 'MemberExpression' && m.object.type === 'Identifier' && !m.computed && b.type === 'Literal' && b.value === 'function') return [key(m)];
    }
    return [];
  };
  const out = new Set<Node>();
  const visit = (node: Node, guards: ReadonlySet<string>) => {
    if (node.type === 'MemberExpression' && node.object.type === 'Identifier' && !node.computed && guards.has(key(node))) out.add(node);
    const branches: Array<[Node | null | undefined, ReadonlySet<string>]> = [];
    if (node.type === 'IfStatement' || node.type === 'ConditionalExpression') {
      const inside = new Set([...guards, ...tested(node.test)]);
      branches.push([node.test, guards], [node.consequent, inside], [node.alternate, guards]);
    } else if (node.type === 'LogicalExpression' && node.operator === '&&') {
      branches.push([node.left, guards], [node.right, new Set([...guards, ...tested(node.left)])]);
    } else {
      for (const k of Object.keys(node)) {
        const v = node[k];
        if (Array.isArray(v)) for (const c of v) if (c && typeof c.type === 'string') branches.push([c, guards]);
        if (v && typeof v.type === 'string' && k !== 'loc') branches.push([v, guards]);
      }
    }
    for (const [child, g] of branches) if (child) visit(child, g);
  };
  visit(ast, new Set());
  return out;
}
