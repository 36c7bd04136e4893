#!/usr/bin/env bash
# The whole suite: lint and format check, then the type check beside the build of the web bundles and every test
# (browser tests included).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-chromium.sh
bash scripts/ensure-redis.sh
echo "› lint"
npm run --silent lint
# The type check (about 35 s of CPU) needs nothing the tests make and they nothing of it: it runs beside the build
# and the first spec files, and its verdict is awaited (and its errors printed) after the tests.
echo "› type check (beside the build and the tests)"
typecheck_log="$(mktemp)"
npx tsc --noEmit -p . >"$typecheck_log" 2>&1 &
typecheck=$!
timings=""
# A failed build or an interrupted run does not leave the type check running.
cpu=""
trap 'kill "$typecheck" 2>/dev/null || true; rm -f "$typecheck_log" ${timings:+"$timings"} ${cpu:+"$cpu"}' EXIT
typecheck_done() {
  local status=0
  wait "$typecheck" || status=$?
  if [ "$status" -ne 0 ]; then
    echo "› type check failed:"
    cat "$typecheck_log"
  else
    echo "› type check passed"
  fi
  rm -f "$typecheck_log"
  return "$status"
}
echo "› build"
npm run --silent build
# The specs' child processes (Parleys, the store, the Slack sandbox) start from JavaScript built now rather than
# through tsx's loader: about 1.7 s of CPU less for each Parley started (scripts/build-test-processes.ts).
npx tsx scripts/build-test-processes.ts
export PARLEY_TEST_NODE_DIR="$PWD/dist/node"
echo "› tests"
if [ "$#" -gt 0 ]; then
  # Files or options given (`npm test -- test/x.spec.ts`): one process, as `npx mocha` runs them.
  status=0
  PARLEY_TEST_BUILT=1 npx mocha "$@" || status=$?
  typecheck_done || status=1
  exit "$status"
fi
# The whole suite: spec files in parallel worker processes (each with its own test database, sandboxes and ports),
# the longest first (scripts/test-order.mjs). TEST_JOBS overrides the number of workers.
jobs="${TEST_JOBS:-$(node -e 'console.log(Math.max(2, require("node:os").availableParallelism() + 1))')}"
mapfile -t files < <(node scripts/test-order.mjs)
mkdir -p test-results
timings="$(mktemp)"
cpu="$(mktemp)"
echo "  ${#files[@]} spec files on $jobs workers"
status=0
PARLEY_TEST_BUILT=1 PARLEY_TEST_TIMINGS="$timings" PARLEY_TEST_CPU="$cpu" npx mocha --parallel --jobs "$jobs" "${files[@]}" || status=$?
# Each file's wall time, for the next run's order (and to copy to test/durations.tsv now and then).
if [ -s "$timings" ]; then sort -rn "$timings" > test-results/durations.tsv; fi
# And the CPU milliseconds each file cost (its worker and the worker's descendants: Chromium, child processes).
if [ -s "$cpu" ]; then sort -rn "$cpu" > test-results/cpu-parallel.tsv; fi
typecheck_done || status=1
exit "$status"
