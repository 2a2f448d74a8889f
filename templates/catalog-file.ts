// Reads driver/catalog.json and validates it: against its JSON schema (ajv), then the rules a
// schema cannot say (a flag group that does not exist, a flag a command would have twice, a
// shared flag no command takes). Only the codegen (`npm run gen`, which the build runs with
// --check) and the tests use this: at run time the code reads the catalog that `npm run gen`
// validated and wrote into driver/catalog.gen.ts, so no call reads the file or compiles the
// schema.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { CatalogError, PROJECT_ROOT, resolveCommand, type Catalog } from '../driver/catalog.js';

export const CATALOG_PATH = join(PROJECT_ROOT, 'driver', 'catalog.json');
export const CATALOG_SCHEMA_PATH = join(PROJECT_ROOT, 'driver', 'catalog.schema.json');

/** Validates a catalog object; throws CatalogError listing every schema violation, a flag
 * group that does not exist, or a flag name (or alias) a command would have twice. */
export function validateCatalog(data: unknown, schemaPath = CATALOG_SCHEMA_PATH): asserts data is Catalog {
  const Ajv = createRequire(import.meta.url)('ajv') as typeof import('ajv').default;
  const validate = new Ajv({ allErrors: true, allowUnionTypes: true }).compile(JSON.parse(readFileSync(schemaPath, 'utf8')));
  if (!validate(data)) {
    const msgs = (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`);
    throw new CatalogError(`driver/catalog.json does not match its schema:\n  ${msgs.join('\n  ')}`);
  }
  const catalog = data as Catalog;
  // A shared flag no command takes would be documented and parsed nowhere: a forgotten list entry.
  for (const f of catalog.sharedFlags ?? []) {
    const takers = catalog.commands.filter((c) => (c.sharedFlags ?? []).some((r) => (typeof r === 'string' ? r : r.name) === f.name));
    if (!takers.length) throw new CatalogError(`driver/catalog.json: no command takes the shared flag --${f.name}; add it to the sharedFlags of the commands that accept it`);
  }
  for (const c of catalog.commands) {
    const seen = new Set<string>();
    for (const f of resolveCommand(c, catalog).flags) {
      for (const n of [f.name, ...(f.aliases ?? [])]) {
        if (seen.has(n)) throw new CatalogError(`driver/catalog.json: command "${c.name}" has the flag --${n} twice (check its flag groups and aliases)`);
        seen.add(n);
      }
    }
  }
}

/** The catalog file at `path` (its schema next to it), validated. */
export function readCatalogFile(path = CATALOG_PATH): Catalog {
  const data: unknown = JSON.parse(readFileSync(path, 'utf8'));
  validateCatalog(data, join(path, '..', 'catalog.schema.json'));
  return data;
}
