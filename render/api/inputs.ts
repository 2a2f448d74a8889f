// The files a render reads from the user: how big each may be, and the usage message for an
// input that cannot be read. The reading itself (a non-blocking open, regular files only,
// bounded by the bytes read) is the one reader the driver's `--in` uses too,
// driver/read-file.ts.
import type { ReadRefusal } from '../../driver/read-file.js';

/** The largest Markdown, Mermaid or header/footer file a render reads. */
export const MAX_RENDER_INPUT_BYTES = 16 * 1024 * 1024;
/** The largest local image `gstack pdf` inlines. */
export const MAX_IMAGE_BYTES = 32 * 1024 * 1024;

/** The usage message for an input file (`gstack pdf`, `gstack diagram`) that cannot be read. */
export function inputProblem(given: string, abs: string, r: ReadRefusal): string {
  switch (r.why) {
    case 'missing':
      // An address is read as a relative path (trial V36): say that inputs are files.
      if (/^[a-z][a-z0-9+.-]*:\/\//i.test(given)) return `the input is a local file, not an address (${given.slice(0, 80)}): save it and name the file (a page of a site prints with the browse skill's pdf shape, \`gstack cookbook pdf --url URL\`).`;
      return `input file not found: ${given} (looked at ${abs})`;
    case 'directory':
      return `input is a directory: ${given}; name a file`;
    case 'special':
      // A kernel file holds the machine's state (the environment, the command line); a pipe,
      // socket or device could wait forever.
      return `input ${given} is ${r.detail}: only regular files are read (${/kernel/.test(r.detail) ? 'a kernel file holds the machine\'s state, not a document' : 'a pipe, socket or device could wait forever'}). Save the text to a file and name that file.`;
    case 'too-big':
      return `input ${given} is ${r.detail}: split it into smaller files.`;
    default:
      return `cannot read input ${given}: ${r.detail} (looked at ${abs})`;
  }
}
