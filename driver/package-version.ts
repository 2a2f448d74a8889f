// This package's version, as package.json says: what `gstack --version`, a saved flow's header
// and the MCP server's handshake report.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from './catalog.js';

let version: string | undefined;

/** Read once per process. */
export function packageVersion(): string {
  version ??= String((JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: unknown }).version);
  return version;
}
