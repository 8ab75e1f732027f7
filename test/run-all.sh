#!/usr/bin/env bash
# The test runs of `npm test` (after the build and the checks): Bun twice, the whole suite on SQLite, then the
# behaviour suite on PostgreSQL + Redis (test/run-second-backend.sh). A failure in the first run would scroll
# away under the second run's "0 fail", so this ends with one summary of both: the failing tests of both runs
# named again, then one line, "N passed, N failed", the counts of both runs added up, with the time it all
# took; and it exits non-zero if either run failed. (.ci/run adds up the runs' own "N pass" and "N fail"
# lines; the summary words them otherwise, so that nothing is counted twice.)
#
# Usage: test/run-all.sh [FIRST SECOND]: the two runs, as shell commands; its test gives small ones
# (test/app/run-all.test.ts).
set -uo pipefail
cd "$(dirname "$0")/.."
BUN=./node_modules/.bin/bun
[ -x "$BUN" ] || BUN=bun
first_run=${1:-"$BUN test --timeout 60000"}
second_run=${2:-"bash test/run-second-backend.sh"}

logs=$(mktemp -d "${TMPDIR:-/tmp}/run-all.XXXXXX")
trap 'rm -rf "$logs"' EXIT
started=$SECONDS

bash -c "$first_run" 2>&1 | tee "$logs/first"
first_status=${PIPESTATUS[0]}
bash -c "$second_run" 2>&1 | tee "$logs/second"
second_status=${PIPESTATUS[0]}

# One run's counts, from Bun's summary lines (" 12 pass", " 1 fail"); a run that exited non-zero without a
# failing test (it stopped early, or a file did not load) counts as one failure.
count() { grep -aE "^ *[0-9]+ $2\$" "$1" | tr -dc '0-9\n' | awk '{ n += $1 } END { print n + 0 }'; }
summary() {
  local log=$1 status=$2 name=$3 passed failed
  passed=$(count "$log" pass)
  failed=$(count "$log" fail)
  if [ "$status" -ne 0 ] && [ "$failed" -eq 0 ]; then failed=1; fi
  if [ "$status" -eq 0 ] && ! grep -aqE '^Ran [0-9]+ tests? across' "$log"; then
    echo "$name: no tests ran (skipped, as said above)" >&2
  fi
  echo "$passed $failed"
}
# The failing tests of one run, by file: "(fail) name [1.2ms]" lines under a "file.test.ts:" header, and
# errors outside any test (a file that did not load), which Bun counts as failures without a "(fail)" line.
failures() {
  awk -v run="$2" '
    /^[^ ].*\.[jt]sx?:$/ { file = substr($0, 1, length($0) - 1) }
    # Bun names the failures again at the end, after the last file: those are already listed, under their own file.
    /^[0-9]+ tests? failed:$/ { recap = 1 }
    /^\(fail\) / && !recap { name = substr($0, 8); sub(/ \[[0-9.]+m?s\]$/, "", name); print "  " file ": " name " (" run ")" }
    /^# Unhandled error between tests/ { print "  " file ": an error outside any test (" run ")" }
  ' "$1" | awk '!seen[$0]++'
}

read -r first_passed first_failed < <(summary "$logs/first" "$first_status" "the SQLite run")
read -r second_passed second_failed < <(summary "$logs/second" "$second_status" "the PostgreSQL + Redis run")
elapsed=$((SECONDS - started))

echo
echo "the SQLite run: $first_passed passed, $first_failed failed (exit $first_status); the PostgreSQL + Redis run: $second_passed passed, $second_failed failed (exit $second_status)"
names=$( { failures "$logs/first" SQLite; failures "$logs/second" "PostgreSQL + Redis"; } )
if [ -n "$names" ]; then
  echo "failed:"
  echo "$names"
fi
echo "$((first_passed + second_passed)) passed, $((first_failed + second_failed)) failed, in both runs, in $((elapsed / 60))m $((elapsed % 60))s"
[ "$first_status" -eq 0 ] && [ "$second_status" -eq 0 ]
