// `gstack pdf <in.md> [out.pdf]`: flags come from the catalog; the Markdown pipeline
// (render/markdown/make-pdf.ts) loads only when the command runs. stdout carries only the output
// path; progress and warnings go to stderr.
import type { Argv } from 'yargs';
import type { Catalog } from '../../driver/catalog.js';
import type { CliIo } from '../cli-io.js';
import { commandSpec, flagGroup } from '../../driver/catalog.js';
import { applyFlags } from '../cli-flags.js';

export function register(y: Argv<any>, catalog: Catalog, io: CliIo): Argv<any> {
  const spec = commandSpec('pdf', catalog);
  const [input, output] = spec.positionals ?? [];
  return y.command(
    `${spec.name} <${input.name}> [${output.name}]`,
    spec.description,
    (c) => {
      let b = c
        .positional(input.name, { describe: input.description, type: 'string' })
        .positional(output.name, { describe: output.description, type: 'string' });
      b = applyFlags(b, spec.flags);
      for (const ex of spec.examples ?? []) b = b.example(ex, '');
      return b;
    },
    async (argv) => {
      const { makePdf } = await import('../../render/markdown/make-pdf.js');
      const a = argv as Record<string, any>;
      const result = await makePdf({
        input: a.input,
        output: a.output,
        to: a.to,
        cover: a.cover,
        toc: a.toc,
        tocDepth: a['toc-depth'],
        chapterBreaks: a['chapter-breaks'],
        // The print options go by their catalog names, like `gstack render --pdf`'s.
        print: Object.fromEntries(flagGroup('print', catalog).map((f) => [f.name, a[f.name]])),
        printUrls: a['print-urls'],
        watermark: a.watermark,
        title: a.title,
        author: a.author,
        date: a.date,
        lang: a.lang,
        allowNetwork: a['allow-network'],
        strict: a.strict,
        engine: a.engine,
        timeoutMs: a.timeout,
        env: io.env,
        cwd: io.cwd,
        signal: io.signal,
        onProgress: (line) => io.err(line + '\n'),
      });
      io.out(result.output + '\n');
    },
  );
}
