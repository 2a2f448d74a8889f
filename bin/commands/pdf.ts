// `gstack pdf <in.md> [out.pdf]`: flags come from the catalog; the Markdown pipeline
// (render/markdown/make-pdf.ts) loads only when the command runs. stdout carries only the output
// path; progress and warnings go to stderr.
import type { Argv } from 'yargs';
import type { Catalog } from '../../driver/catalog.js';
import type { CliIo } from '../../driver/cli/process-io.js';
import { commandSpec, flagGroup } from '../../driver/catalog.js';
import { applyFlags } from './flags.js';
import { readPdfFlags, readPdfPositionals } from '../../driver/catalog.gen.js';
import type { Value } from '../../render/cli/cli-args.js';

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
      // Typed from the catalog (driver/catalog.gen.ts): a flag renamed there is a compile error here.
      const f = readPdfFlags(argv);
      const result = await makePdf({
        ...readPdfPositionals(argv),
        to: f.to,
        cover: f.cover,
        toc: f.toc,
        tocDepth: f.tocDepth,
        outlineDepth: f.outlineDepth,
        remoteImages: f.remoteImages,
        chapterBreaks: f.chapterBreaks,
        // The print options go by their catalog names, like `gstack render --pdf`'s.
        print: Object.fromEntries(flagGroup('print', catalog).map((p) => [p.name, argv[p.name] as Value | undefined])),
        printUrls: f.printUrls,
        watermark: f.watermark,
        title: f.title,
        author: f.author,
        date: f.date,
        lang: f.lang,
        allowNetwork: f.allowNetwork,
        strict: f.strict,
        engine: f.engine,
        timeoutMs: f.timeout,
        env: io.env,
        cwd: io.cwd,
        signal: io.signal,
        onProgress: (line) => io.err(line + '\n'),
      });
      io.out(result.output + '\n');
    },
  );
}
