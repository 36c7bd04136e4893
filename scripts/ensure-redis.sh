#!/usr/bin/env bash
# The multi-process tests run a real Redis: each starts its own redis-server on a free port (never a system
# service). Install Debian's redis-server when it is missing and we can; otherwise stop with a clear message:
# those tests are never skipped silently.
set -euo pipefail
bin="${REDIS_SERVER_PATH:-$(command -v redis-server || echo /usr/bin/redis-server)}"
if [ -x "$bin" ]; then exit 0; fi
if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = "0" ]; then
  echo "redis-server is missing: installing Debian's redis-server package with apt-get…"
  apt-get update -qq
  # RUNLEVEL=1 keeps the package from starting a system Redis on port 6379: the tests start their own.
  DEBIAN_FRONTEND=noninteractive RUNLEVEL=1 apt-get install -y -qq --no-install-recommends redis-server >/dev/null
  bin="$(command -v redis-server || echo /usr/bin/redis-server)"
fi
if [ ! -x "$bin" ]; then
  echo "ERROR: the multi-process tests need redis-server and it could not be installed." >&2
  echo "Install it (Debian: 'sudo apt-get install redis-server') or set REDIS_SERVER_PATH, then run npm test again." >&2
  exit 1
fi
