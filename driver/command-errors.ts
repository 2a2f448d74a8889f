// Failures a command names in the catalog (`commands[].errors` in driver/catalog.json). Code
// throws them by name; the exit code comes from the catalog (COMMAND_ERRORS, generated into
// driver/catalog.gen.ts), so the error table the skills show and the exit code a caller sees
// cannot disagree, and a name the catalog does not list does not compile.
import { COMMAND_ERRORS, type CommandErrorName, type CommandWithErrors, type ExitName } from './catalog.gen.js';
import { GstackError } from './errors.js';

/** `new CommandError(command, name, message)`: the name one of that command's, checked by tsc. */
type CommandErrorArgs = { [C in CommandWithErrors]: [command: C, code: CommandErrorName<C>, message: string] }[CommandWithErrors];

export class CommandError extends GstackError {
  readonly command: CommandWithErrors;
  readonly code: CommandErrorName<CommandWithErrors>;
  /** `message` is the one line the user sees: what happened, then the next step. */
  constructor(...[command, code, message]: CommandErrorArgs) {
    super(message, exitOf(command, code));
    this.command = command;
    this.code = code;
  }
}

function exitOf(command: CommandWithErrors, code: string): ExitName {
  const exit = (COMMAND_ERRORS[command] as Readonly<Record<string, ExitName>>)[code];
  // Only an untyped caller (plain JavaScript, a cast) gets here with a name the catalog lacks.
  if (exit === undefined) throw new TypeError(`driver/catalog.json: command "${command}" lists no error ${code}`);
  return exit;
}
