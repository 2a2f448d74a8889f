// The public members of Playwright's classes, read from the installed playwright-core's own
// type declarations (types/types.d.ts) with the TypeScript compiler API: what the membrane's
// policy tables (driver/catalog.json "playwright") are checked against. An interface's members
// include those it inherits (`ElementHandle extends JSHandle`); overloads count once;
// `[Symbol.asyncDispose]` keeps its bracketed name, as the tables write it.
import ts from 'typescript';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const requireCjs = createRequire(import.meta.url);

/** The installed playwright-core's types/types.d.ts. */
export const PLAYWRIGHT_TYPES = join(dirname(requireCjs.resolve('playwright-core/package.json')), 'types', 'types.d.ts');

function memberName(name: ts.PropertyName, sf: ts.SourceFile): string {
  return ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isPrivateIdentifier(name) ? name.text : name.getText(sf);
}

/** Interface name -> its public member names (inherited ones included), from a .d.ts file. */
export function playwrightMembers(file = PLAYWRIGHT_TYPES): Map<string, Set<string>> {
  const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const own = new Map<string, { names: Set<string>; bases: string[] }>();
  for (const st of sf.statements) {
    if (!ts.isInterfaceDeclaration(st)) continue;
    const entry = own.get(st.name.text) ?? { names: new Set<string>(), bases: [] };
    for (const m of st.members) if (m.name) entry.names.add(memberName(m.name, sf));
    for (const h of st.heritageClauses ?? []) for (const t of h.types) entry.bases.push(t.expression.getText(sf));
    own.set(st.name.text, entry);
  }
  const all = new Map<string, Set<string>>();
  const resolve = (name: string, seen = new Set<string>()): Set<string> => {
    const done = all.get(name);
    if (done) return done;
    const entry = own.get(name);
    if (!entry || seen.has(name)) return new Set();
    seen.add(name);
    const names = new Set(entry.names);
    for (const b of entry.bases) for (const n of resolve(b, seen)) names.add(n);
    all.set(name, names);
    return names;
  };
  for (const name of own.keys()) resolve(name);
  return all;
}
