#!/usr/bin/env bash
# One-command set-up for a fresh machine (README quick start, step 1):
#   1. installs the npm dependencies and builds the CLI,
#   2. makes a Chromium available — an existing one; else Playwright's download where the
#      network allows; else the OS package (Debian/Ubuntu as root: apt-get install chromium),
#   3. installs what rendering and the tests need on Debian/Ubuntu (emoji/CJK fonts, poppler,
#      Xvfb and xdotool for the sign-in window tests),
#   4. runs a real flow offline against a local page, to prove the whole path works.
# It says what it did at each step. Set GSTACK_SETUP_SKIP_DEMO=1 to skip step 4.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf 'setup: %s\n' "$*"; }
have() { command -v "$1" >/dev/null 2>&1; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; elif have sudo; then sudo -n "$@"; else return 1; fi; }

node_major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
if [ "$node_major" -lt 20 ]; then say "Node.js >= 20 is required (found ${node_major}). Install it first."; exit 1; fi

# 1. dependencies + build
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  say "installing npm dependencies (npm ci)"
  npm ci --no-audit --no-fund --loglevel=error
else
  say "npm dependencies already installed"
fi
say "building (tsc + bundle -> dist/)"
npm run --silent build

find_chromium() { node -e 'import("./dist/driver/browser/chromium-find.js").then(m=>{try{const f=m.findChromium();console.log(f.source+" "+f.kind+" "+f.path)}catch{process.exit(1)}})'; }

# 2. Chromium
apt_updated=0
apt_install() {
  have apt-get || return 1
  if [ "$apt_updated" = 0 ]; then as_root apt-get update -qq || return 1; apt_updated=1; fi
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq "$@" >/dev/null
}
if found=$(find_chromium); then
  say "Chromium found (${found})"
  # Headless calls run twice as fast on Chromium's headless shell (driver/browser/chromium-find.ts);
  # add Debian's package next to a system chromium when we can. Optional: the full browser works.
  case "$found" in
    "system browser "*)
      if have dpkg && ! dpkg -s chromium-headless-shell >/dev/null 2>&1 && apt_install chromium-headless-shell && found=$(find_chromium); then
        say "installed Debian's chromium-headless-shell for faster headless calls (${found})"
      fi ;;
  esac
else
  say "no Chromium found; trying Playwright's download (needs network)"
  if timeout 180 npx --no-install playwright-core install chromium >/tmp/gstack-playwright-install.log 2>&1 && found=$(find_chromium); then
    say "installed Playwright's Chromium (${found})"
  else
    say "Playwright's download is not possible here; trying the OS package"
    if { apt_install chromium chromium-headless-shell || apt_install chromium; } && found=$(find_chromium); then
      say "installed Debian's chromium package (${found})"
    else
      say "could not install a Chromium. Install one yourself: sudo apt-get install -y chromium, or npx playwright-core install chromium, or set GSTACK_CHROMIUM=/path/to/chrome"
      exit 3
    fi
  fi
fi

# 3. fonts for emoji/CJK in PDFs, poppler for the PDF checks in the tests, Xvfb + xdotool for
#    the `gstack login` tests (a virtual display and a typist) (Debian/Ubuntu only)
if have dpkg && have apt-get; then
  missing=()
  for p in fonts-noto-color-emoji fonts-noto-cjk fonts-liberation fonts-dejavu-core poppler-utils xvfb xdotool; do
    dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    if apt_install "${missing[@]}"; then say "installed ${missing[*]}"; else say "could not install ${missing[*]} (emoji/CJK glyphs, PDF or sign-in window tests may suffer)"; fi
  else
    say "fonts, poppler-utils, xvfb and xdotool already installed"
  fi
fi

# 4. a real flow, offline, against a page served on 127.0.0.1
if [ "${GSTACK_SETUP_SKIP_DEMO:-0}" != 1 ]; then
  say "running a real flow against a local page:"
  node bin/demo-flow.mjs
fi
say "done. Run flows with: npx gstack run '<script>'   (tests: npm test)"
