// Which URLs a flow script may open (docs/SECURITY.md, "The page is hostile"): the one place
// that decides whether a value a script passes to a navigation (goto, openTab, a route's
// continue, fetch, raw CDP params) is a `file:` URL.
//
// The check must see the URL the browser will load, not the string the script holds. A URL
// taken from a page link can be spelled so that a prefix check misses it and Chromium still
// opens the file: `fi\tle:///etc/passwd` (tabs and newlines are removed by the URL parser),
// `\x01file:…` (leading C0 controls and spaces are stripped), `view-source: file:…` (the inner
// URL is parsed again). A script may also hand over a String object or an object with
// `toJSON`, which Playwright and CDP serialize to the string they hold. So values are first
// coerced to the primitive that will be sent (`plainUrl`, `plainData`), then parsed with the
// WHATWG URL parser (the same rules Chromium's GURL applies to these inputs), and wrappers
// that load another URL's content (`view-source:`, and `blob:`/`filesystem:`, whose inner
// URL names the origin) are unwrapped before the scheme is read.

/** The value a navigation will send, as Playwright or CDP would serialize it: a String object
 * becomes its string, an object with `toJSON` what that returns (once), a URL its href. Any
 * other value comes back as it is (Playwright refuses it as a wrong type). */
export function plainUrl(v: unknown): unknown {
  if (typeof v === 'string' || v === null || typeof v !== 'object') return v;
  // A script's String object comes from its own realm (the vm context): `instanceof String`
  // would miss it, the internal slot does not.
  const boxed = stringValue(v);
  if (boxed !== undefined) return boxed;
  if (v instanceof URL) return v.href;
  const toJSON = (v as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === 'function') {
    const out: unknown = toJSON.call(v);
    return typeof out === 'object' && out !== null ? (stringValue(out) ?? out) : out;
  }
  return v;
}

/** The string inside a String object of any realm (undefined for anything else). */
function stringValue(v: object): string | undefined {
  try {
    return String.prototype.valueOf.call(v);
  } catch {
    return undefined;
  }
}

/** A CDP message's params as the wire will carry them: JSON, so every String object, `toJSON`
 * and getter has been resolved once, and what is checked is exactly what is sent. */
export function plainData<T>(v: T): T {
  if (v === undefined) return v;
  const json = JSON.stringify(v);
  return json === undefined ? (undefined as T) : (JSON.parse(json) as T);
}

// eslint-disable-next-line no-control-regex
const EDGE_C0_OR_SPACE = /^[\u0000-\u0020]+|[\u0000-\u0020]+$/g;
// eslint-disable-next-line no-control-regex
const TAB_OR_NEWLINE = /[\t\n\r]/g;
/** Schemes whose URL carries another URL whose content (or origin) it shows. */
const WRAPPERS = ['view-source:', 'blob:', 'filesystem:'];

/** What the URL parser does before it reads a scheme: strip leading and trailing C0 controls
 * and spaces, remove every tab and newline. */
export function normalizeUrl(s: string): string {
  return s.replace(EDGE_C0_OR_SPACE, '').replace(TAB_OR_NEWLINE, '');
}

/** Whether the browser would load a local file for this value (after coercion and
 * normalization, through view-source:/blob:/filesystem: wrappers, at any depth). */
export function isFileUrl(value: unknown, depth = 0): boolean {
  const v = plainUrl(value);
  if (typeof v !== 'string' || depth > 4) return false;
  const s = normalizeUrl(v);
  let scheme: string;
  try {
    scheme = new URL(s).protocol.toLowerCase();
  } catch {
    // Not an absolute URL (the browser cannot navigate to it either); a scheme-like prefix
    // is still read, so that no parser difference can turn a refusal into an open.
    scheme = /^[a-z][a-z0-9+.-]*:/i.exec(s)?.[0].toLowerCase() ?? '';
  }
  if (scheme === 'file:') return true;
  if (WRAPPERS.includes(scheme)) return isFileUrl(s.slice(s.indexOf(':') + 1), depth + 1);
  return false;
}

/** The first string inside `v` (params of a CDP message, at any depth) that is a file: URL. */
export function findFileUrl(v: unknown, depth = 0): string | undefined {
  if (typeof v === 'string') return isFileUrl(v) ? v : undefined;
  if (!v || typeof v !== 'object' || depth > 8) return undefined;
  for (const x of Array.isArray(v) ? v : Object.values(v)) {
    const found = findFileUrl(x, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}
