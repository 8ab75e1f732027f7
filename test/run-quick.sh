#!/usr/bin/env bash
# The quick lane (`npm run test:quick`): the tests that run in this process, while working. Not CI's: `npm test`
# is the whole suite (the compiled binary, PostgreSQL and Redis, nginx and Caddy, the browser, both backends).
#
# Which files: every test file that starts no process of its own, found by what it imports or calls (the binary's
# helpers, throwaway PostgreSQL/Redis servers, the browser, the proxies, Bun.spawn), so that a new test file is in
# the right lane without being listed here. The test files mirror src/ (test/<capability>/, test/platform/, test/app/,
# test/cli/); test/browser/ drives a browser, so none of it is in this lane.
set -uo pipefail
cd "$(dirname "$0")/.."
BUN=./node_modules/.bin/bun
[ -x "$BUN" ] || BUN=bun

STARTS_A_PROCESS='helpers/(binary|store-servers|store-processes|browser|proxies)"|Bun\.spawn|BINARY_PATH|dist/foodapi'
files=()
for file in $(find test -name '*.test.ts' -not -path 'test/browser/*' | sort); do
  grep -qE "$STARTS_A_PROCESS" "$file" || files+=("./$file")
done
echo "the quick lane: ${#files[@]} in-process test files (npm test runs all of them and the rest)"
exec "$BUN" test --timeout 60000 "${files[@]}"
