// What a render says when its page or a step fails, written once for the orchestrator and both
// engines. The messages are plain data (templates with {slot}s), not functions, because the
// Aside engine runs the whole render as a script inside Aside's browser sandbox, which cannot
// import anything: that script receives RENDER_MESSAGES in its job and fills a template with
// the same one-line rule as `fillMessage` below (engines/aside-render-script.js, `say`).
// Each message says what happened and what to do next.

export const RENDER_MESSAGES = {
  /** How a step is named in every message about it (1-based, with its flag). */
  stepLabel: 'step {n} (--{kind})',
  loadTimeout:
    'the page did not finish loading within --wait-timeout {ms} ms ({cause}). A resource may hang; raise --wait-timeout or remove the slow resource.',
  pageStatus: 'the loopback server answered {status} for the page; check the file path and --serve-root',
  waitSelectorInvalid: '--wait-selector "{selector}" is not a valid selector: {cause}',
  waitSelectorTimeout:
    '--wait-selector "{selector}" matched nothing within --wait-timeout {ms} ms. Check the selector against the page, or raise --wait-timeout if the page is slow.',
  waitExprInvalid: '--wait-expr is not a valid JavaScript expression: {cause}',
  /** {lastError} is '' or the `lastError` message. */
  waitExprTimeout:
    "--wait-expr never became truthy within --wait-timeout {ms} ms{lastError}. Check the expression in the page's console, or raise --wait-timeout.",
  lastError: ' (last error: {cause})',
  stepFailed: '{label} failed: {cause}',
  selectorNoMatch: '{label}: --selector "{selector}" matched no element; check it against the page (or add --wait-selector)',
  evalThrew: '{label}: the expression threw in the page: {cause}',
  evalTooBig:
    '{label}: the expression returned {size} characters, over the {max} an --eval value may hold. Return less (a slice, the fields you need, a count), or split it over several --eval steps.',
  /** The whole-render deadline fired while the engine worked (the orchestrator reports the
   * --timeout; this only ends the engine's part). */
  deadlinePassed: 'the render deadline passed',
} as const;

export type RenderMessageName = keyof typeof RENDER_MESSAGES;

/** The slot names of a template, so a missing or misspelt value is a compile error. */
type Slots<T extends string> = T extends `${string}{${infer K}}${infer Rest}` ? K | Slots<Rest> : never;

export function renderMessage<N extends RenderMessageName>(
  name: N,
  values: Record<Slots<(typeof RENDER_MESSAGES)[N]>, string | number>,
): string {
  return fillMessage(RENDER_MESSAGES[name], values);
}

/** Each {slot} becomes its value, in one pass: a value that itself contains "{x}" (page text)
 * stays as it is. A slot without a value is left visible rather than silently emptied. */
export function fillMessage(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => (key in values ? String(values[key]) : whole));
}

/** `step 2 (--screenshot)`. */
export function stepLabel(index: number, kind: string): string {
  return renderMessage('stepLabel', { n: index + 1, kind });
}
