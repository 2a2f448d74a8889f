// Failures a command names in the catalog (`commands[].errors` in driver/catalog.json). Code
// throws them by name; the exit code comes from the catalog, so the error table the skills
// show and the exit code a caller sees cannot disagree. A name the catalog does not list is a
// programming error and throws CatalogError at once.
import { CatalogError, commandSpec } from './catalog.js';

export class CommandError extends Error {
  readonly exitCode: number;

  /** `message` is the one line the user sees: what happened, then the next step. */
  constructor(
    readonly command: string,
    readonly code: string,
    message: string,
  ) {
    super(message);
    const spec = commandSpec(command).errors?.find((e) => e.name === code);
    if (!spec) throw new CatalogError(`driver/catalog.json: command "${command}" lists no error ${code}`);
    this.exitCode = spec.exitCode;
    this.name = 'CommandError';
  }
}
