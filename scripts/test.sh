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
if [ "$#" -gt 0 ]; then
  # Files or options given (`npm test -- test/x.spec.ts`): one process, as `npx mocha` runs them.
  PARLEY_TEST_BUILT=1 exec npx mocha "$@"
fi
# The whole suite: spec files in parallel worker processes (each with its own test database, sandboxes and ports),
# the longest first (scripts/test-order.mjs). TEST_JOBS overrides the number of workers.
jobs="${TEST_JOBS:-$(node -e 'console.log(Math.max(2, require("node:os").availableParallelism() + 1))')}"
mapfile -t files < <(node scripts/test-order.mjs)
mkdir -p test-results
timings="$(mktemp)"
trap 'rm -f "$timings"' EXIT
echo "  ${#files[@]} spec files on $jobs workers"
status=0
PARLEY_TEST_BUILT=1 PARLEY_TEST_TIMINGS="$timings" npx mocha --parallel --jobs "$jobs" "${files[@]}" || status=$?
# Each file's wall time, for the next run's order (and to copy to test/durations.tsv now and then).
if [ -s "$timings" ]; then sort -rn "$timings" > test-results/durations.tsv; fi
exit "$status"
