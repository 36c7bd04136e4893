#!/usr/bin/env bash
# Browser tests drive Debian's Chromium through playwright-core. Install it when it is missing and we can;
# otherwise stop with a clear message: browser tests are never skipped silently.
set -euo pipefail
bin="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ -x "$bin" ]; then exit 0; fi
if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = "0" ]; then
  echo "Chromium is missing: installing Debian's chromium package with apt-get…"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi
if [ ! -x "$bin" ]; then
  echo "ERROR: the browser tests need Chromium at $bin and it could not be installed." >&2
  echo "Install it (Debian: 'sudo apt-get install chromium') or set CHROMIUM_PATH, then run npm test again." >&2
  exit 1
fi
