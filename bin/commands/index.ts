// Every subcommand, in the order `gstack --help` lists them: the catalog's (COMMAND_NAMES). A
// command the catalog lists without a register function here, or the reverse, does not compile.
import type { Argv } from 'yargs';
import { COMMAND_NAMES, type CommandName } from '../../driver/catalog.gen.js';
import type { Catalog } from '../../driver/catalog.js';
import type { CliIo } from '../../driver/cli/process-io.js';
import { register as run } from './run.js';
import { register as probe } from './probe.js';
import { register as cookbook } from './cookbook.js';
import { register as flows } from './flows.js';
import { register as sessions } from './sessions.js';
import { register as login } from './login.js';
import { register as render } from './render.js';
import { register as pdf } from './pdf.js';
import { register as diagram } from './diagram.js';
import { register as skills } from './skills.js';
import { register as mcp } from './mcp.js';

type Register = (y: Argv<any>, catalog: Catalog, io: CliIo) => Argv<any>;
const BY_NAME: Record<CommandName, Register> = { run, probe, cookbook, flows, sessions, login, render, pdf, diagram, skills, mcp };
export const COMMANDS: Register[] = COMMAND_NAMES.map((name) => BY_NAME[name]);
