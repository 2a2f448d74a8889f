// Screenshots with what holds a secret painted over (docs/SECURITY.md, "What is redacted"): a
// page can draw a value the call has seen as text (an API console's curl sample with the key a
// script typed into its Authorize box, the box itself when its field is type=text: trials V32,
// V33 on Swagger UI), and the output cut never reads pixels. Before a capture, once the call has
// seen a secret, the page's text and field values are read into this process and matched here by
// the same cut as printed lines (no value is sent to the page); each element whose own text or
// value holds one gets a mark for the capture, and Playwright's `mask` paints it over.
//
// For pages that show what they were given, not for a page that hides a secret from the scan: a
// page's own scripts share the DOM it reads, and a value drawn on a canvas, in an image or by CSS
// is not text. The main frame and its open shadow roots only: child frames are not read.
import { randomBytes } from 'node:crypto';
import type { JSHandle, Locator, Page } from 'playwright-core';
import { AgentError } from '../errors.js';
import { anySecretsSeen, seenSecretSpans } from './output.js';

const MARK = 'data-gstack-secret-mask';
/** How long the page has to answer the scan: a capture waits for it. */
const SCAN_MS = 5000;

export interface SecretMask {
  /** The marked elements, for Playwright's `mask`. */
  locator: Locator;
  /** Takes the marks off again (the page is left as it was). */
  unmark(): Promise<void>;
}

interface Scan {
  texts: string[];
  nodes: Element[];
}

/** In the page: every text node's text (with the element it belongs to) and every field value
 * a screen shows (not a password field's, which the browser draws as dots), through open shadow
 * roots. */
function collect(): Scan {
  const texts: string[] = [];
  const nodes: Element[] = [];
  const skip = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE']);
  const visit = (root: Node) => {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
    for (let n: Node | null = walker.currentNode; n; n = walker.nextNode()) {
      if (n.nodeType === Node.TEXT_NODE) {
        const parent = n.parentElement ?? ((n.parentNode as ShadowRoot | null)?.host as Element | undefined);
        // An option's text shows in its closed select's box, not in its own (which has none).
        const owner = parent?.closest('select') ?? parent;
        const text = (n as Text).data;
        if (owner && parent && !skip.has(parent.tagName) && text.trim().length >= 3) {
          texts.push(text);
          nodes.push(owner);
        }
        continue;
      }
      const el = n as Element;
      if (el.shadowRoot) visit(el.shadowRoot);
      if ((el instanceof HTMLInputElement && el.type !== 'password') || el instanceof HTMLTextAreaElement) {
        if (el.value.trim().length >= 3) {
          texts.push(el.value);
          nodes.push(el);
        }
      }
    }
  };
  visit(document.documentElement);
  return { texts, nodes };
}

/** The indexes of `texts` that hold a part of a span of `spans` in `texts.join('\n')`. */
export function textsInSpans(texts: readonly string[], spans: ReadonlyArray<readonly [number, number]>): number[] {
  const hit = new Set<number>();
  let start = 0;
  texts.forEach((t, i) => {
    const end = start + t.length;
    if (spans.some(([a, b]) => a < end && b > start)) hit.add(i);
    start = end + 1;
  });
  return [...hit];
}

/**
 * Marks what on `page` holds a secret the call has seen; undefined when the call has seen none
 * or the page shows none. Fails closed: a page that does not answer the scan in time (busy,
 * navigating twice) is not captured, since what it shows is unknown.
 */
export async function maskSecrets(page: Page): Promise<SecretMask | undefined> {
  if (!anySecretsSeen()) return undefined;
  let handle: JSHandle<Scan> | undefined;
  for (let attempt = 0; !handle; attempt++) {
    try {
      handle = await withinScan(page.evaluateHandle(collect));
    } catch (err) {
      // A navigation under the scan destroys its context: once more on the new document.
      if (attempt === 0 && !page.isClosed()) continue;
      if (page.isClosed()) throw err;
      throw new AgentError(
        `screenshot not taken: this call has seen a secret, and the page did not answer the look for where it may show it (${(err as Error).message.split('\n')[0]}). Wait for the page to settle (await pg.waitForLoadState()), then take it again.`,
        'SCREENSHOT_UNMASKED',
      );
    }
  }
  const scan = handle;
  const release = () => scan.dispose().catch(() => undefined);
  try {
    const texts = await withinScan(scan.evaluate((s) => s.texts));
    const spans = seenSecretSpans(texts.join('\n'));
    // A line the matcher cannot read is withheld from output: here, every text is masked.
    const hit = spans === undefined ? texts.map((_, i) => i) : textsInSpans(texts, spans);
    if (!hit.length) {
      await release();
      return undefined;
    }
    const token = randomBytes(8).toString('hex');
    await withinScan(scan.evaluate((s, { hit, mark, token }) => hit.forEach((i) => s.nodes[i].setAttribute(mark, token)), { hit, mark: MARK, token }));
    return {
      locator: page.locator(`[${MARK}="${token}"]`),
      async unmark() {
        await scan.evaluate((s, mark) => s.nodes.forEach((n) => n.removeAttribute(mark)), MARK).catch(() => undefined);
        await release();
      },
    };
  } catch (err) {
    await release();
    throw err;
  }
}

/** Screenshot options with `mask` added to the script's own. */
export function withMask<T>(options: T, locator: Locator): T & { mask: Locator[] } {
  const own = options && typeof options === 'object' ? (options as { mask?: unknown }).mask : undefined;
  return { ...(options ?? ({} as T)), mask: [...(Array.isArray(own) ? (own as Locator[]) : []), locator] };
}

function withinScan<T>(p: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer in ${SCAN_MS} ms`)), SCAN_MS);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}
