// What an output's name must end in, for each kind of file render, pdf and diagram write.

/** The name a printed or captured output must end in: the file is opened by its name, and a
 * PDF under `report.html` is a page when opened from disk, its alt texts the page's markup, which
 * loads local files and runs scripts (pass 30, B30). Checked by
 * `gstack render` (orchestrate/validate.ts), `gstack pdf` and `gstack diagram`. */
export function outputNameProblem(path: string, kind: 'pdf' | 'png' | 'jpeg' | 'html' | 'svg'): string | undefined {
  const names = { pdf: /\.pdf$/i, png: /\.png$/i, jpeg: /\.jpe?g$/i, html: /\.html?$/i, svg: /\.svg$/i }[kind];
  if (names.test(path)) return undefined;
  const ext = { pdf: '.pdf', png: '.png', jpeg: '.jpg or .jpeg', html: '.html', svg: '.svg' }[kind];
  const what = kind === 'jpeg' ? 'a JPEG' : `${kind === 'html' || kind === 'svg' ? 'an' : 'a'} ${kind.toUpperCase()}`;
  return `${path}: ${what} is written only to a name ending in ${ext}, since the file is opened by its name (a PDF named .html opens as a page, and runs what the page put in it)`;
}
