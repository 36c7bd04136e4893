#!/usr/bin/env bash
# Where the suite's CPU goes: the CPU seconds (user and system, of the process and every child it waited for:
# Chromium, the embedded store, child Parleys) and the wall seconds of npm test's fixed steps (lint, type check,
# build, a mocha worker's start) and of each spec file run alone, one after the other, at low priority (nice).
# CPU seconds barely move with the machine's load; wall seconds do. Writes test-results/cpu.tsv (or $CPU_OUT):
# `user<TAB>sys<TAB>cpu<TAB>wall<TAB>status<TAB>what` lines, the costliest first.
#
#   bash scripts/bench/suite-cpu.sh                  # the fixed steps and every spec file (about 25 minutes)
#   bash scripts/bench/suite-cpu.sh test/e2e/*.spec.ts   # these spec files only
#   SKIP_FIXED=1 bash scripts/bench/suite-cpu.sh FILE  # without the fixed steps
set -euo pipefail
cd "$(dirname "$0")/../.."
out="${CPU_OUT:-test-results/cpu.tsv}"
mkdir -p "$(dirname "$out")" test-results/cpu-logs
rows="$(mktemp)"
timing="$(mktemp)"
empty="$(mktemp -d)/empty.spec.ts"
trap 'rm -f "$rows" "$timing"; rm -rf "$(dirname "$empty")"' EXIT
mocha=node_modules/.bin/mocha

# measure NAME COMMAND...: one row for the command run to its end.
measure() {
  local name="$1"
  shift
  local log
  log="test-results/cpu-logs/$(printf '%s' "$name" | tr -c 'A-Za-z0-9._-' '_').log"
  local status=0
  /usr/bin/time -f '%U %S %e' -o "$timing" nice -n 10 "$@" >"$log" 2>&1 || status=$?
  local user sys wall
  read -r user sys wall < <(tail -n 1 "$timing")
  local row
  row="$(printf '%s\t%s\t%.2f\t%s\t%s\t%s' "$user" "$sys" "$(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }')" "$wall" "$status" "$name")"
  echo "$row" | tee -a "$rows"
}

if [ "${SKIP_FIXED:-}" != "1" ]; then
  measure '(lint)' npm run --silent lint
  measure '(type check)' npx tsc --noEmit -p .
  measure '(build)' npm run --silent build
  # A mocha process with the root hooks and tsx's loader and one empty spec: what every worker pays to start.
  echo "it('starts', () => {});" >"$empty"
  measure '(mocha start)' "$mocha" "$empty"
fi

if [ "$#" -gt 0 ]; then files=("$@"); else mapfile -t files < <(node scripts/test-order.mjs); fi
# The widget's bundles are built (above, or by the caller): a browser spec must not rebuild them each time.
export PARLEY_TEST_BUILT=1
for file in "${files[@]}"; do
  measure "$file" "$mocha" "$file"
done

{
  printf 'user\tsys\tcpu\twall\tstatus\twhat\n'
  sort -t "$(printf '\t')" -k3,3 -rn "$rows"
  awk -F '\t' '{ u += $1; s += $2; w += $4 } END { printf "%.2f\t%.2f\t%.2f\t%.2f\t-\t(total)\n", u, s, u + s, w }' "$rows"
} >"$out"
echo "› $out"
