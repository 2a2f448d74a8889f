// The environment a Chromium we start gets, derived from the call's own environment.
//
// Owns: which variables reach the browser. Only those that change what a browser does (time
// zone, language, proxies, display, fonts, certificates, where it keeps caches) and what it
// needs to run at all (PATH, HOME) are passed; the rest of the caller's environment (tokens,
// secrets) never reaches the browser. The same list is the browser's fingerprint: a session
// host restarts its browser for a call whose fingerprint differs from the running browser's,
// so every call sees its own TZ, LANG and proxy, never those of the call that started it.

const KEYS = new Set([
  'PATH', 'HOME', 'USER', 'LOGNAME', 'TMPDIR', 'TZ', 'LANG', 'LANGUAGE',
  'DISPLAY', 'WAYLAND_DISPLAY', 'XAUTHORITY',
  'XDG_RUNTIME_DIR', 'XDG_CONFIG_HOME', 'XDG_CACHE_HOME', 'XDG_DATA_HOME', 'XDG_DATA_DIRS', 'XDG_CONFIG_DIRS',
  'DBUS_SESSION_BUS_ADDRESS', 'FONTCONFIG_FILE', 'FONTCONFIG_PATH', 'SSL_CERT_FILE', 'SSL_CERT_DIR',
  'LD_LIBRARY_PATH', 'CHROME_DEVEL_SANDBOX',
]);
const PREFIXES = ['LC_', 'CHROME_', 'CHROMIUM_'];
const PROXIES = new Set(['http_proxy', 'https_proxy', 'ftp_proxy', 'all_proxy', 'no_proxy']);

export function isBrowserVariable(name: string): boolean {
  return KEYS.has(name) || PROXIES.has(name.toLowerCase()) || PREFIXES.some((p) => name.startsWith(p));
}

/** The part of `env` a browser is started with. */
export function browserEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (typeof v === 'string' && isBrowserVariable(k)) out[k] = v;
  return out;
}

/** What makes two browsers interchangeable: the binary, headed or not, and the browser
 * environment. */
export function browserFingerprint(executablePath: string, headed: boolean, env: NodeJS.ProcessEnv): string {
  const vars = browserEnv(env);
  const sorted = Object.keys(vars).sort().map((k) => [k, vars[k]]);
  return JSON.stringify([executablePath, headed, sorted]);
}
