// Failures a command names in the catalog (`commands[].errors` in driver/catalog.json). Code
// throws them by name; the exit code comes from the catalog, so the error table the skills
// show and the exit code a caller sees cannot disagree. A name the catalog does not list is a
// programming error and throws CatalogError at once.
import { CatalogError, commandSpec } from './catalog.js';
import { EXIT, type ExitName } from './catalog.gen.js';
import { GstackError } from './errors.js';

export class CommandError extends GstackError {
  /** `message` is the one line the user sees: what happened, then the next step. */
  constructor(
    readonly command: string,
    readonly code: string,
    message: string,
  ) {
    const spec = commandSpec(command).errors?.find((e) => e.name === code);
    if (!spec) throw new CatalogError(`driver/catalog.json: command "${command}" lists no error ${code}`);
    super(message, exitName(spec.exitCode));
  }
}

function exitName(code: number): ExitName {
  const name = (Object.keys(EXIT) as ExitName[]).find((n) => EXIT[n] === code);
  if (!name) throw new CatalogError(`driver/catalog.json: exit code ${code} is not one of the catalog's exitCodes`);
  return name;
}
