// The benchmarks' large page: `rows` rows, each a labelled input, a button and a link (about 7
// DOM nodes a row; 1,500 rows is the "1,500-row page").
export function rowsPage(rows: number): string {
  const body = Array.from({ length: rows }, (_, i) =>
    `<div class="row"><label for="q${i}">Item ${i}</label> <input id="q${i}" value="${i}"> <button>Add ${i}</button> <a href="/item/${i}">Details ${i}</a></div>`,
  ).join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${rows} rows</title></head><body><h1>Shop</h1><main>${body}</main></body></html>`;
}
