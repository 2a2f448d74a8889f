// Placeholder until the cookbook command lands: registers nothing.
import type { Argv } from 'yargs';
import type { Catalog } from '../../driver/catalog.js';
export function register(y: Argv<any>, _catalog: Catalog): Argv<any> {
  return y;
}
