// Session cookies (no expiry) in a session's profile: Chromium drops them whenever the profile's
// browser starts again, which a session host does after an idle stop, a timeout or a call that
// left the context dirty. A login that lives in one would end there, so the profile gives them
// an expiry: `gstack login` and `sessions import-cookies` for what they bring in, the host for
// what a call's own sign-in set (driver/hosts/session-browser.ts).

/** How long a session cookie (no expiry) imported into a profile is kept: Chromium drops
 * session cookies when the profile is opened again, so without an expiry an import (or a
 * `gstack login`) would vanish at once. */
export const SESSION_COOKIE_KEEP_S = 30 * 86400;

/** Gives session cookies (no expiry) one of SESSION_COOKIE_KEEP_S, so a profile keeps them. */
export function keepSessionCookies<C extends { expires: number }>(list: C[], nowS = Math.floor(Date.now() / 1000)): { cookies: C[]; kept: number } {
  let kept = 0;
  const cookies = list.map((c) => {
    if (c.expires > 0) return c;
    kept++;
    return { ...c, expires: nowS + SESSION_COOKIE_KEEP_S };
  });
  return { cookies, kept };
}

