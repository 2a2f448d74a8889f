// links: the page's same-origin links, checked only where checking is harmless.
import type { Shape } from './types.js';
import { SENTINEL } from '../driver/catalog.gen.js';
import { EVIDENCE_HOOK, WAIT_FOR_READY, WAIT_FOR_PARAM, OPEN_AND_LOAD, LEARN_SECRET_FIELDS, PRINT_CONSOLE_ERRORS, CLOSE_AND_FINISH, IS_LOCAL_HOST, SETTLE_PARAM, URL_PARAM, script } from './snippets.js';

export const links: Shape = {
  name: 'links',
  summary: 'Link check: same-origin links, HEAD-checked on a local target (`LINK <status> <url>`), listed unfetched elsewhere (`LINK ? <url>`).',
  description:
    'Collects the same-origin links of the page (deduplicated, fragments dropped: links that differ only in their `#fragment`, a slide deck\'s `#/3` or a hash-routed app\'s `#/settings`, are their page, checked once, so a route that goes nowhere is not found here: follow those with a script). Links to other origins are left out, never listed. On a local target (localhost, 127.x, 0.0.0.0, ::1, `*.localhost`, `*.test`) each is requested with HEAD (GET when the server refuses HEAD) from the page\'s own origin, without cookies unless `signedIn` is true, and printed as `LINK <status> <url>`. On any other target nothing is fetched: each link is listed as `LINK ? <url>`. Links that look like sign-out or destructive actions (logout, sign-out, delete, remove, cancel, unsubscribe, destroy, deactivate, revoke, and sign-out words of other languages, in the URL after %-decoding or in the link text, aria-label, title or image alt, with invisible characters dropped) are never requested, on any target: they print `LINK ? <url> (not followed: ...)`. The page only hands over its raw `href` attributes: each is resolved outside the page against the address the browser loaded, and same origin means the same scheme, host and port. Each check is a fetch from an isolated world of the page, which the page\'s scripts cannot touch, and never follows a redirect: a link that answers 3xx prints `LINK 3xx <url> (redirect not followed)` (the browser does not tell a script the Location), so a same-origin link cannot lead the check to another site or to a sign-out. A page with no same-origin link prints a `[no ...]` line that says why.',
  evidence: ['ASIDE_DIR=', 'URL=', 'LINK', 'CONSOLE_ERRORS=', SENTINEL],
  params: {
    type: 'object',
    additionalProperties: false,
    required: ['url'],
    properties: {
      url: URL_PARAM,
      maxLinks: { type: 'integer', minimum: 1, maximum: 1000, default: 100, description: 'Check at most this many links (the cut is marked).' },
      signedIn: { type: 'boolean', default: false, description: 'Send the session\'s cookies with each check, for pages behind a sign-in. Without it no check carries cookies, so no link can act as the user whatever the page calls it (a page behind a sign-in then answers 3xx or 401). With it, only the sign-out and destructive word rule keeps such links unrequested, and a hostile page can disguise one: use it on your own app.' },
      waitFor: WAIT_FOR_PARAM,
      settleMs: SETTLE_PARAM,
    },
  },
  example: { url: 'http://127.0.0.1:8080/' },
  body: script(
    EVIDENCE_HOOK,
    WAIT_FOR_READY,
    OPEN_AND_LOAD,
    LEARN_SECRET_FIELDS,
    IS_LOCAL_HOST,
    String.raw`// Same-origin links only. The page hands over its raw href attributes and link texts as plain
// data, and everything is decided here, outside the page: a page can replace any built-in its
// own scripts see (Array.from, URL, location's helpers), so nothing it computes is trusted, not
// an origin and not a resolved URL. The sandbox has no URL class, so links are resolved by the
// small, strict reader below; whatever it cannot read plainly is never requested.
const rawLinks = await pg.evaluate(() => {
  const out = [];
  // The link's words as a person meets them: its text, aria-label, title and its images' alt.
  document.querySelectorAll("a[href], area[href]").forEach((a) => {
    let words = "";
    try {
      words = [a.textContent, a.getAttribute("aria-label"), a.getAttribute("title"), a.getAttribute("alt"), ...Array.from(a.querySelectorAll("img[alt], [aria-label], [title]"), (i) => i.getAttribute("alt") || i.getAttribute("aria-label") || i.getAttribute("title"))].filter(Boolean).join(" ");
    } catch (e) {}
    out.push([a.getAttribute("href"), words]);
  });
  return out;
});

// scheme://host[:port] of an absolute http(s) URL, with the rest (path, query) apart. A host
// with anything but letters, digits, dots and dashes (user@host, %-escapes) or a bracketed
// IPv6 address is not read, so it is never taken for the page's own origin.
function originOf(u) {
  const m = /^(https?):\/\/([^\/?#]*)([^#]*)/i.exec(u);
  const auth = m && /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::(\d{1,5}))?$/i.exec(m[2]);
  if (!auth) return null;
  const scheme = m[1].toLowerCase();
  const port = auth[2] === undefined ? "" : String(Number(auth[2]));
  const origin = scheme + "://" + auth[1].toLowerCase() + (port === "" || port === (scheme === "http" ? "80" : "443") ? "" : ":" + port);
  const rest = m[3] === "" ? "/" : m[3].startsWith("?") ? "/" + m[3] : m[3];
  return { scheme, origin, rest, path: rest.split("?")[0] };
}
// An href as an absolute URL against the page's address, read as a browser reads it (spaces
// and controls around it dropped, tabs and newlines inside dropped, a backslash before the
// query is a slash), or null: another scheme (mailto:, javascript:) or a form it does not read.
function resolveLink(href, base) {
  // By char codes, not escapes in a regex: --print passes the script through the terminal
  // filter, which would turn a written-out control (NUL, CR) into U+FFFD and break the script.
  let h = String(href);
  while (h && h.charCodeAt(0) <= 32) h = h.slice(1);
  while (h && h.charCodeAt(h.length - 1) <= 32) h = h.slice(0, -1);
  h = Array.from(h).filter((c) => c !== "\t" && c !== "\n" && c.charCodeAt(0) !== 13).join("").split("#")[0];
  const q = h.indexOf("?");
  h = q < 0 ? h.replace(/\\/g, "/") : h.slice(0, q).replace(/\\/g, "/") + h.slice(q);
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(h);
  if (scheme) {
    const abs = /^https?:\/\//i.test(h) && originOf(h);
    return abs ? abs.origin + abs.rest : null;
  }
  if (h.startsWith("//")) {
    const abs = originOf(base.scheme + ":" + h);
    return abs ? abs.origin + abs.rest : null;
  }
  if (h.startsWith("/")) return base.origin + h;
  if (h === "") return base.origin + base.rest;
  if (h.startsWith("?")) return base.origin + base.path + h;
  return base.origin + base.path.replace(/[^\/]*$/, "") + h;
}
// %-escapes decoded (again, while any are left) before the rule is matched: a server reads
// /%64elete as /delete, and /d%C3%A9connexion as /déconnexion: each run of escapes is UTF-8
// (one byte per letter read /dÃ©connexion, and no listed word of another language matched;
// pass 35, B35). A byte that starts no UTF-8 letter is read alone, so a stray %FF in a run
// cannot hide the letters after it.
function decodedRun(run) {
  const bytes = run.match(/%[0-9a-f]{2}/gi) || [];
  let out = "";
  for (let i = 0; i < bytes.length; ) {
    let n = 4;
    for (; n > 0; n--) {
      if (i + n > bytes.length) continue;
      try {
        out += decodeURIComponent(bytes.slice(i, i + n).join(""));
        break;
      } catch (e) {
        // not a whole UTF-8 letter of n bytes
      }
    }
    if (n === 0) {
      out += String.fromCharCode(parseInt(bytes[i].slice(1), 16));
      n = 1;
    }
    i += n;
  }
  return out;
}
function decoded(s) {
  for (let i = 0; i < 5 && /%[0-9a-f]{2}/i.test(s); i++) s = s.replace(/(?:%[0-9a-f]{2})+/gi, decodedRun);
  return s.replace(/\+/g, " ");
}

const page = originOf(pg.url());
if (!page) throw new Error("links: the page's address " + pg.url() + " is not a plain http(s) URL; give the shape an http:// or https:// URL.");
const unique = [];
for (const entry of Array.isArray(rawLinks) ? rawLinks.slice(0, 10000) : []) {
  if (!Array.isArray(entry) || typeof entry[0] !== "string" || entry[0].length > 4096) continue;
  const url = resolveLink(entry[0], page);
  // Same origin: scheme, host and port equal to the page's, as read here.
  if (url === null || originOf(url)?.origin !== page.origin || unique.some((u) => u.url === url)) continue;
  unique.push({ url, text: typeof entry[1] === "string" ? entry[1].trim().slice(0, 400) : "" });
}

// Requesting one of these could sign the user out or change data: never follow them. Matched
// on the URL (after %-decoding) and the link's words, each folded first (compatibility forms to
// plain letters, characters that show nothing, such as a soft hyphen, dropped), in English and
// the sign-out words of other languages.
const UNSAFE = /(log|sign)[\s_+.-]?(out|off)|delete|remove|cancel|unsubscribe|destroy|deactivat|revoke|terminate|erase|wipe|abmelden|ausloggen|d[ée]connexion|d[ée]connecter|cerrar sesi[óo]n|desconectar|sair|esci|disconnetti|uitloggen|afmelden|wyloguj|выйти|выход|ログアウト|サインアウト|退出|登出|注销|로그아웃/i;
// White space folded too: "Sign\n   out" in the markup reads "Sign out".
const folded = (s) => String(s).normalize("NFKC").replace(/[\p{Default_Ignorable_Code_Point}\p{Cf}]/gu, "").replace(/\s+/g, " ");
// Each check is a fetch from an isolated world of the page (CDP): the page's cookies apply (same
// origin), its scripts cannot reach that world's built-ins, and redirect: "manual" stops at a
// redirect without requesting where it leads (a same-origin link may redirect to a sign-out or
// to another site). Such a link prints LINK 3xx; the browser does not tell a script its Location.
const frames = await pg._sendToTarget("Page.getFrameTree", {});
const world = await pg._sendToTarget("Page.createIsolatedWorld", { frameId: frames.frameTree.frame.id, worldName: "gstack links check" });
async function check(url) {
  const ask = "(async (u) => { const ask = (method) => fetch(u, { method, redirect: 'manual', credentials: " + JSON.stringify(PARAMS.signedIn ? "same-origin" : "omit") + ", cache: 'no-store' });" +
    " let r = await ask('HEAD'); if (r.status === 405 || r.status === 501) r = await ask('GET');" +
    " return { status: r.status, redirect: r.type === 'opaqueredirect' }; })(" + JSON.stringify(url) + ")";
  const out = await pg._sendToTarget("Runtime.evaluate", { expression: ask, contextId: world.executionContextId, awaitPromise: true, returnByValue: true });
  if (out.exceptionDetails) throw new Error((out.exceptionDetails.exception && out.exceptionDetails.exception.description) || out.exceptionDetails.text);
  const res = out.result.value;
  return res.redirect ? "LINK 3xx " + url + " (redirect not followed)" : "LINK " + res.status + " " + url;
}
for (const link of unique.slice(0, PARAMS.maxLinks)) {
  if (UNSAFE.test(folded(decoded(link.url))) || UNSAFE.test(folded(link.text))) {
    console.log("LINK ? " + link.url + " (not followed: looks like sign-out or a destructive action)");
  } else if (!isLocal) {
    console.log("LINK ? " + link.url);
  } else {
    try {
      console.log(await check(link.url));
    } catch (err) {
      console.log("LINK ERR " + link.url + " (" + String(err).split("\n")[0] + ")");
    }
  }
}
if (unique.length > PARAMS.maxLinks) console.log("[links cut at " + PARAMS.maxLinks + " of " + unique.length + "]");
// No LINK line at all read as a page still drawing or a broken check (trial V26): say which.
const allLinks = Array.isArray(rawLinks) ? rawLinks.length : 0;
if (unique.length === 0) console.log(allLinks ? "[no same-origin links: the page's " + allLinks + " link" + (allLinks === 1 ? " leads" : "s lead") + " to other sites or schemes, which are not listed]" : '[no links on the page: if the app draws them after load, pass waitFor, e.g. {"selector": "a[href]"}]');`,
    PRINT_CONSOLE_ERRORS,
    CLOSE_AND_FINISH,
  ),
};
