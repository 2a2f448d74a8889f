// A saved flow's expectations (docs/ARCHITECTURE.md, "Saved flows"): which lines of a run are
// evidence worth keeping, and how a later run's evidence differs from the saved one. Pure
// functions; the header keeps the list (header.ts), `flows check` prints the drift.
//
// Evidence is what a flow prints under a label: `LABEL=value` or `LABEL value` with an
// upper-case LABEL (the catalog's labels and a flow's own, such as `HEADING=`), and the
// TEXT / SNAPSHOT / DIFF blocks, each kept whole. Lines that differ on every run whatever the
// site does are not expectations: paths of this call's files, timings, the sentinel.

import { SENTINEL, type EvidenceLabel } from '../catalog.gen.js';

/** Labels whose values change on every run (paths under the call's own directory, timings). */
const VOLATILE = new Set<string>([SENTINEL, 'ARTIFACT', 'ASIDE_DIR=', 'SCREENSHOT=', 'PDF=', 'NAV=', 'RESOURCES=', 'INPUT='] satisfies EvidenceLabel[]);

/** The label of an evidence line (`HEADING=`, `STEP`, `TEXT_START`), or undefined. */
export function labelOf(line: string): string | undefined {
  return /^([A-Z][A-Z0-9_]*=)/.exec(line)?.[1] ?? /^([A-Z][A-Z0-9_]*)(?:\s|$)/.exec(line)?.[1];
}

/** The value part of an evidence entry (after `LABEL=` or `LABEL `). */
function valueOf(entry: string, label: string): string {
  return entry.slice(label.length).replace(/^ /, '');
}

/** What NAV= and RESOURCES= print that changes on every load (timings and sizes, in ms and
 * bytes); their other members (a status, a type, a URL) are compared. */
const TIMING_KEYS = new Set(['ttfb', 'domContentLoaded', 'load', 'transferSize', 'duration', 'size']);

/** A NAV= or RESOURCES= value with its timings masked, its resources in a stable order; or
 * undefined when it is not what those labels print. */
function maskedTimings(value: string): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return undefined;
  }
  const mask = (o: unknown): unknown =>
    o && typeof o === 'object' && !Array.isArray(o) ? Object.fromEntries(Object.entries(o).map(([k, v]) => [k, TIMING_KEYS.has(k) && typeof v === 'number' ? 0 : v])) : o;
  if (Array.isArray(parsed)) return JSON.stringify(parsed.map(mask).map((x) => JSON.stringify(x)).sort());
  return parsed === null || typeof parsed === 'object' ? JSON.stringify(mask(parsed)) : undefined;
}

/**
 * What of a volatile line is compared: only its label when its value is what that label prints
 * (a path under the call's own directory for the file labels; NAV= and RESOURCES= JSON with
 * their timings masked); otherwise the whole line, since page text can spell such a label
 * (`SCREENSHOT=/orders/42/paid`, `NAV=ERROR payment failed`) to hide a changed line from
 * `flows check`.
 */
function volatileEntry(label: string, line: string, firstAsideDir: boolean): { first: string; alone: boolean } {
  const value = valueOf(line, label);
  if (line === label || label === SENTINEL) return { first: label, alone: false };
  if (label === 'NAV=' || label === 'RESOURCES=') {
    const masked = maskedTimings(value);
    return masked === undefined ? { first: line, alone: true } : { first: `${label}${masked}`, alone: true };
  }
  // ASIDE_DIR= names the Aside run's own folder, which is the call's pwd there: the first such
  // line only, the one the engine reads (driver/engines/aside.ts); a later one is page text
  // spelling the label (`ASIDE_DIR=/orders/42/payment-accepted`) and is compared whole.
  if (value === '<pwd>' || (label === 'ASIDE_DIR=' && firstAsideDir && /^\/\S*$/.test(value))) return { first: label, alone: false };
  // A file under pwd is compared by its name there (`<pwd>/Payment-accepted.png`): the folder
  // changes on every run, the name does not, and a page can choose it (a status read into it).
  return { first: line, alone: true };
}

/**
 * A run's lines without the ARTIFACT lines the runner adds for `--out` (one per copied file,
 * just before the closing sentinel): they name the copies in that folder, and a run without
 * `--out` prints none. Only lines naming one of the run's own copies, in that closing run of
 * lines, are left out; the same words anywhere else are the script's and are kept.
 */
export function withoutOutCopies(lines: readonly string[], copies: readonly string[]): string[] {
  const names = new Set(copies.map((c) => `ARTIFACT ${c}`));
  let end = lines.length;
  if (lines[end - 1] === SENTINEL) end--;
  let start = end;
  while (start > 0 && names.has(lines[start - 1])) start--;
  return [...lines.slice(0, start), ...lines.slice(end)];
}

/** The entry of lines printed before the first labelled line. */
const PREAMBLE = 'OUTPUT';

/**
 * The evidence of a run, in order: one entry per labelled line, one per block
 * (`TEXT_START` … `TEXT_END`, its lines joined with "\n"), each with the unlabelled lines
 * printed after it up to the next labelled line. Every line a run prints is in some entry: page
 * text can spell a label or a block's end (`TEXT_END` inside the text), and a line it pushed out
 * of a block must still be compared, or a changed page would pass `flows check`. A line of a
 * label that changes on every run is not compared, what follows it is. `pwd` (the call's own
 * directory) is written `<pwd>`, so a path under it reads the same in every run.
 */
export function evidenceOf(lines: readonly string[], pwd?: string | null): string[] {
  const norm = (l: string) => (pwd ? l.split(pwd).join('<pwd>') : l);
  const entries: string[][] = [];
  /** Entries compared even with nothing after them. */
  const kept = new Set<string[]>();
  let current: string[] | undefined;
  let sawAsideDir = false;
  const start = (first: string, alone = true) => {
    entries.push((current = [first]));
    if (alone && first !== PREAMBLE) kept.add(current);
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const label = labelOf(line);
    if (!label) {
      if (!current) start(PREAMBLE);
      current!.push(norm(line));
      continue;
    }
    const block = /^([A-Z][A-Z0-9_]*)_START$/.exec(line);
    const end = block ? lines.indexOf(`${block[1]}_END`, i + 1) : -1;
    if (end > i) {
      start(lines.slice(i, end + 1).map(norm).join('\n'));
      i = end;
    } else if (VOLATILE.has(label)) {
      // Where the call's pwd is known (Chromium) an ASIDE_DIR= line names it as `<pwd>`; only an
      // Aside run, whose folder the runner does not know, takes its first line on trust.
      const v = volatileEntry(label, norm(line), !pwd && label === 'ASIDE_DIR=' && !sawAsideDir);
      if (label === 'ASIDE_DIR=') sawAsideDir = true;
      start(v.first, v.alone);
    } else start(norm(line));
  }
  // A volatile line with nothing after it, and an empty preamble, hold nothing to compare.
  return entries.filter((e) => e.length > 1 || kept.has(e)).map((e) => e.join('\n'));
}

export interface Drift {
  label: string;
  /** The saved value; null when the run printed one this flow never did. */
  before: string | null;
  /** The run's value; null when the run did not print it. */
  after: string | null;
  /** In a block: the first line (1-based, inside the block) that differs. */
  line?: number;
}

/** The line of a run whose output a limit cut (`[truncated N bytes]` at `--max-output`, and
 * CUT_MARKERS; and a line withheld whole because its escapes nest too deep to read for
 * secrets, WITHHELD_LINE), or undefined. What a run printed after the cut was never seen, so it can be neither kept nor compared: a page
 * that pads its text up to the cap would otherwise push a changed line out of the check. A page
 * can print such a line itself; that only makes a save refuse or a check drift. */
export function truncationOf(lines: readonly string[]): string | undefined {
  return lines.find((l) => CUT_MARKERS.some((m) => m.test(l)));
}

/** The lines that say a limit cut what follows: `--max-output`'s, a snapshot's or diff's size
 * limit (driver/runtime/snapshot.ts), the `read` shape's maxChars and `links`' maxLinks, and the
 * secret filter's line withheld whole (WITHHELD_LINE in driver/runtime/secret-match.ts) and its
 * mark for a value only another origin's frame holds (FOREIGN_SECRET_MARK in
 * driver/runtime/output.ts), which can be the page's own words in both runs. A page
 * that pads its text, list or links past one hides a changed result behind it, and the cut
 * line itself reads the same in both runs. */
const CUT_MARKERS = [/^\[redacted: a line whose escapes nest past \d+ levels\]$/, /\[redacted: a field of another origin\]/, /^DIALOG .*\[the browser cut this message at \d+ characters\]$/, /^\[truncated \d+ (?:more )?bytes\]$/, /^\[\w+ truncated: showing \d+ of \d+ lines\b/, /^\[text cut at \d+ of \d+ characters\]$/, /^\[links cut at \d+ of \d+\]$/];

/** How many entries an ORDER drift shows from where the two orders part. */
const ORDER_SHOWN = 3;
/** How much of each entry's first line an ORDER drift shows. */
const ORDER_ENTRY_CHARS = 80;

/** The label of the drift a run gets when it printed the same evidence in another order. */
const ORDER_DRIFT = 'ORDER';

/** The saved evidence against a run's, label by label, the n-th value of a label against the
 * n-th: each difference, in the order of the saved evidence. When every label's values match,
 * their order is compared too: page text the script prints whole is split into lines, and a
 * line of it that starts like a label counts as one, so a page that reversed two such lines
 * ("charged, then refunded" as "refunded, then charged") would otherwise pass (pass 42, A42). A
 * run whose prints interleave (listeners, Promise.all) drifts the same way: the script prints in
 * a fixed order, or as one line it builds. */
export function compareEvidence(saved: readonly string[], now: readonly string[]): Drift[] {
  const byLabel = (entries: readonly string[]) => {
    const m = new Map<string, string[]>();
    for (const e of entries) {
      const label = labelOf(e) ?? e;
      m.set(label, [...(m.get(label) ?? []), e]);
    }
    return m;
  };
  const a = byLabel(saved);
  const b = byLabel(now);
  const drifts: Drift[] = [];
  for (const label of new Set([...a.keys(), ...b.keys()])) {
    const before = a.get(label) ?? [];
    const after = b.get(label) ?? [];
    for (let i = 0; i < Math.max(before.length, after.length); i++) {
      const x = before[i];
      const y = after[i];
      if (x === y) continue;
      if (x !== undefined && y !== undefined && x.includes('\n') && y.includes('\n')) {
        // A block: name its first differing line, not the whole page text.
        const xs = x.split('\n');
        const ys = y.split('\n');
        const at = xs.findIndex((l, j) => l !== ys[j]);
        const k = at < 0 ? xs.length : at;
        drifts.push({ label, before: xs[k] ?? null, after: ys[k] ?? null, line: k });
      } else {
        drifts.push({ label, before: x === undefined ? null : valueOf(x, label), after: y === undefined ? null : valueOf(y, label) });
      }
    }
  }
  if (drifts.length === 0) {
    // Same values label by label, so the same entries: only their order can differ.
    const at = saved.findIndex((e, i) => e !== now[i]);
    if (at >= 0) {
      const shown = (entries: readonly string[]) =>
        entries
          .slice(at, at + ORDER_SHOWN)
          .map((e) => e.split('\n')[0].slice(0, ORDER_ENTRY_CHARS))
          .join(' | ');
      drifts.push({ label: ORDER_DRIFT, before: shown(saved), after: shown(now), line: at + 1 });
    }
  }
  return drifts;
}
