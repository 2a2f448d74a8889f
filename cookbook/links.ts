// links: the page's same-origin links, checked only where checking is harmless.
import type { Shape } from './types.js';
import { SENTINEL } from '../driver/catalog.gen.js';
import { EVIDENCE_HOOK, WAIT_FOR_READY, WAIT_FOR_PARAM, OPEN_AND_LOAD, PRINT_CONSOLE_ERRORS, CLOSE_AND_FINISH, IS_LOCAL_HOST, SETTLE_PARAM, URL_PARAM, script } from './snippets.js';

export const links: Shape = {
  name: 'links',
  summary: 'Link check: same-origin links, HEAD-checked on a local target (`LINK <status> <url>`), listed unfetched elsewhere (`LINK ? <url>`).',
  description:
    'Collects the same-origin links of the page (deduplicated, fragments dropped). On a local target (localhost, 127.x, 0.0.0.0, ::1, `*.localhost`, `*.test`) each is requested with HEAD (GET when the server refuses HEAD) through the browser context, so cookies apply, and printed as `LINK <status> <url>`. On any other target nothing is fetched: each link is listed as `LINK ? <url>`. Links that look like sign-out or destructive actions (logout, sign-out, delete, remove, cancel, unsubscribe) are never requested, on any target: they print `LINK ? <url> (not followed: ...)`.',
  evidence: ['ASIDE_DIR=', 'URL=', 'LINK', 'CONSOLE_ERRORS=', SENTINEL],
  params: {
    type: 'object',
    additionalProperties: false,
    required: ['url'],
    properties: {
      url: URL_PARAM,
      maxLinks: { type: 'integer', minimum: 1, maximum: 1000, default: 100, description: 'Check at most this many links (the cut is marked).' },
      waitFor: WAIT_FOR_PARAM,
      settleMs: SETTLE_PARAM,
    },
  },
  example: { url: 'http://127.0.0.1:8080/' },
  body: script(
    EVIDENCE_HOOK,
    WAIT_FOR_READY,
    OPEN_AND_LOAD,
    IS_LOCAL_HOST,
    String.raw`// Same-origin links only, as absolute URLs without #fragments.
const found = await pg.evaluate(() => Array.from(document.links)
  .filter((a) => a.origin === location.origin)
  .map((a) => ({ url: a.href.split("#")[0], text: (a.textContent || "").trim().slice(0, 80) })));
const unique = [];
for (const l of found) if (!unique.some((u) => u.url === l.url)) unique.push(l);

// Requesting one of these could sign the user out or change data: never follow them.
const UNSAFE = /(log|sign)[\s_-]?(out|off)|delete|remove|cancel|unsubscribe/i;
for (const link of unique.slice(0, PARAMS.maxLinks)) {
  if (UNSAFE.test(link.url) || UNSAFE.test(link.text)) {
    console.log("LINK ? " + link.url + " (not followed: looks like sign-out or a destructive action)");
  } else if (!isLocal) {
    console.log("LINK ? " + link.url);
  } else {
    try {
      let res = await fetch(link.url, { method: "HEAD" });
      if (res.status === 405 || res.status === 501) res = await fetch(link.url);
      console.log("LINK " + res.status + " " + link.url);
    } catch (err) {
      console.log("LINK ERR " + link.url + " (" + String(err).split("\n")[0] + ")");
    }
  }
}
if (unique.length > PARAMS.maxLinks) console.log("[links cut at " + PARAMS.maxLinks + " of " + unique.length + "]");`,
    PRINT_CONSOLE_ERRORS,
    CLOSE_AND_FINISH,
  ),
};
