#!/usr/bin/env bash
# The behaviour suite again, on the second state backend: PostgreSQL for the state, Redis for the counters
# and the revocation signal (FOODAPI_TEST_BACKEND=postgres+redis; test/helpers/test-backend.ts), on one
# throwaway server of each for the whole run. `npm test` runs it after the first (SQLite) run.
#
# Which files: every test file that builds its state through the test backend (the in-process test app,
# test/helpers/test-app.ts, or test/helpers/test-backend.ts itself), found by that import, so that a new
# behaviour test runs on both without being listed here. Not the two that test a backend itself and open
# their stores on their own (they already run against PostgreSQL and Redis in the first run).
set -uo pipefail
cd "$(dirname "$0")/.."
BUN=./node_modules/.bin/bun
[ -x "$BUN" ] || BUN=bun

OWN_BACKEND=(test/app/postgres-state.test.ts test/app/redis-counters.test.ts)

files=()
for file in $(grep -rlE --include='*.test.ts' 'from "\.\./helpers/(test-app|test-backend)"' test | sort); do
  [[ " ${OWN_BACKEND[*]} " == *" $file "* ]] || files+=("./$file")
done
if [ ${#files[@]} -eq 0 ]; then
  echo "run-second-backend.sh: no test file uses the test backend: has test/helpers/test-app.ts moved?" >&2
  exit 1
fi

if ! missing=$("$BUN" test/helpers/store-binaries.ts); then
  # CI installs both (.ci/run): there, a missing one is a failure, not a skip.
  if [ "${CI:-}" = "true" ]; then
    echo "the behaviour suite on PostgreSQL + Redis cannot run: $missing" >&2
    exit 1
  fi
  echo "skipping the behaviour suite on PostgreSQL + Redis (${#files[@]} files): $missing"
  exit 0
fi

echo "the behaviour suite on PostgreSQL + Redis (FOODAPI_TEST_BACKEND=postgres+redis), ${#files[@]} files:"
FOODAPI_TEST_BACKEND=postgres+redis exec "$BUN" test --timeout 60000 "${files[@]}"
