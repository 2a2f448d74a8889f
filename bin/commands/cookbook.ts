// `gstack cookbook list | <shape> --url URL [--params JSON] [--print]`: runs a verified
// flow-script shape through the same runner as `gstack run` (same flags, same exit codes).
import type { Argv } from 'yargs';
import { commandSpec, type Catalog } from '../../driver/catalog.js';
import type { CliIo } from '../../driver/cli/process-io.js';
import { applyFlags, UsageError } from './flags.js';
import { dispatchCall, parseCookbookParams } from '../../driver/cli/call.js';
import { isHostShape } from '../../driver/hosts/call.js';
import { readCookbookFlags, readCookbookPositionals } from '../../driver/catalog.gen.js';

export function register(y: Argv<any>, catalog: Catalog, io: CliIo): Argv<any> {
  const spec = commandSpec('cookbook', catalog);
  const shapeArg = spec.positionals?.[0];
  return y.command(
    'cookbook <shape>',
    spec.description,
    (b) => applyFlags(b.positional('shape', { type: 'string', describe: shapeArg?.description, choices: shapeArg?.choices }), spec.flags),
    async (argv) => {
      const { SHAPES, findShape, buildScript } = await import('../../cookbook/index.js');
      const { shape: shapeName } = readCookbookPositionals(argv);
      if (shapeName === 'list') {
        const { formatShapeList } = await import('../../cookbook/list.js');
        io.out(formatShapeList(SHAPES));
        return;
      }
      const shape = findShape(shapeName);
      if (!shape || !isHostShape(shapeName)) throw new UsageError(`Unknown cookbook shape "${shapeName}". \`gstack cookbook list\` names them.`);
      const f = readCookbookFlags(argv);
      if (!f.print) {
        // The body is driver/cli/call.ts's, the same a session host runs.
        await (io.dispatch ?? dispatchCall)({ command: 'cookbook', shape: shapeName, flags: f }, io);
        return;
      }
      // `--params @FILE` / `@-` as without --print (pass 41, A41: it was read as JSON text).
      const { paramsText } = await import('../../driver/cli/flow-call.js');
      const params = parseCookbookParams(await paramsText(f.params, io, f.timeout));
      if (f.url !== undefined) params.url = f.url;
      // --print: a script to adapt: required parameters not given come from the shape's own
      // example, and stderr says which, so the agent edits them before it runs the script.
      const filled = shape.params.required.filter((k) => !(k in params) && k in shape.example);
      for (const k of filled) params[k] = shape.example[k];
      io.out(buildScript(shape, params));
      if (filled.length) io.err(`Note: PARAMS ${filled.join(', ')} ${filled.length === 1 ? 'is' : 'are'} the shape's example; edit ${filled.length === 1 ? 'it' : 'them'} before you run the script.\n`);
    },
  );
}
