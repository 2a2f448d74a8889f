// Every subcommand, in the order `gstack --help` lists them.
import type { Argv } from 'yargs';
import type { Catalog } from '../../driver/catalog.js';
import type { CliIo } from '../cli-io.js';
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
export const COMMANDS: Register[] = [run, probe, cookbook, flows, sessions, login, render, pdf, diagram, skills, mcp];
