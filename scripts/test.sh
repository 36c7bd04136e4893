#!/usr/bin/env bash
# The whole suite: lint and format check, type check, build the web bundles, then every test (browser tests included).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-chromium.sh
bash scripts/ensure-redis.sh
echo "› lint"
npm run --silent lint
echo "› type check"
npx tsc --noEmit -p .
echo "› build"
npm run --silent build
echo "› tests"
# The glob lives here, not in .mocharc.json, so `npx mocha test/some.spec.ts` runs just that file.
if [ "$#" -eq 0 ]; then set -- "test/**/*.spec.ts"; fi
npx mocha "$@"
