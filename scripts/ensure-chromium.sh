#!/usr/bin/env bash
# Browser tests drive Debian's Chromium through playwright-core, in its headless shell (Debian's
# chromium-headless-shell package: the same Blink without the browser's own UI, about half the CPU a test costs in
# the full browser's headless mode). Install it when it is missing and we can; otherwise stop with a clear message:
# browser tests are never skipped silently.
set -euo pipefail
bin="${CHROMIUM_PATH:-/usr/bin/chromium-headless-shell}"
if [ -x "$bin" ]; then exit 0; fi
if [ -z "${CHROMIUM_PATH:-}" ] && command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = "0" ]; then
  echo "Chromium's headless shell is missing: installing Debian's chromium-headless-shell package with apt-get…"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium-headless-shell >/dev/null
fi
if [ ! -x "$bin" ]; then
  echo "ERROR: the browser tests need Chromium's headless shell at $bin and it could not be installed." >&2
  echo "Install it (Debian: 'sudo apt-get install chromium-headless-shell') or set CHROMIUM_PATH to a Chromium" >&2
  echo "(e.g. CHROMIUM_PATH=/usr/bin/chromium), then run npm test again." >&2
  exit 1
fi
