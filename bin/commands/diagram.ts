// `gstack diagram <in.mmd...>`: flags come from the catalog; render/mermaid/diagram.ts (and the
// browser) load only when the command runs. stdout: one written path per line.
import type { Argv } from 'yargs';
import type { Catalog } from '../../driver/catalog.js';
import type { CliIo } from '../../driver/cli/process-io.js';
import { commandSpec } from '../../driver/catalog.js';
import { applyFlags } from './flags.js';
import { readDiagramFlags, readDiagramPositionals } from '../../driver/catalog.gen.js';
import { GstackError } from '../../driver/errors.js';

export function register(y: Argv<any>, catalog: Catalog, io: CliIo): Argv<any> {
  const spec = commandSpec('diagram', catalog);
  const [inputs] = spec.positionals ?? [];
  return y.command(
    `${spec.name} <${inputs.name}..>`,
    spec.description,
    (c) => {
      let b = c.positional(inputs.name, { describe: inputs.description, type: 'string', array: true });
      b = applyFlags(b, spec.flags);
      for (const ex of spec.examples ?? []) b = b.example(ex, '');
      return b;
    },
    async (argv) => {
      const { renderDiagrams } = await import('../../render/mermaid/diagram.js');
      // Typed from the catalog (driver/catalog.gen.ts): a flag renamed there is a compile error here.
      const f = readDiagramFlags(argv);
      const result = await renderDiagrams({
        inputs: readDiagramPositionals(argv).inputs,
        svg: f.svg,
        png: f.png,
        outDir: f.outDir,
        format: f.format,
        width: f.width,
        scale: f.scale,
        theme: f.theme,
        background: f.background,
        engine: f.engine,
        timeoutMs: f.timeout,
        env: io.env,
        cwd: io.cwd,
        signal: io.signal,
        onProgress: (line) => io.err(line + '\n'),
      });
      for (const p of result.written) io.out(p + '\n');
      for (const f of result.failures) io.err(`gstack diagram: ${f.label}: ${f.message}\n`);
      if (result.failures.length) {
        const first = result.failures[0];
        // mermaid's message is several lines (where, a caret, what it expected); the [error]
        // line keeps the first and the last, which carry the line number and the cause.
        const lines = first.message.split('\n').map((l) => l.trim()).filter(Boolean);
        const gist = lines.length > 1 ? `${lines[0].replace(/:$/, '')}: ${lines[lines.length - 1]}` : lines[0] ?? 'unknown error';
        throw new GstackError(`${result.failures.length} of ${result.diagrams} diagram(s) failed; ${first.label}: ${gist}. Fix the mermaid syntax and run again.`, 'SCRIPT_FAILED');
      }
    },
  );
}
