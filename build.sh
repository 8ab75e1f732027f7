#!/usr/bin/env bash
# Builds dist/foodapi: imports SR28 into dist/catalog.sqlite, then compiles one executable that embeds it.
# SR28 is read from data/sr28 (the release, zstd-compressed, committed with the code), or $FOODAPI_SR28_DIR:
# any source `foodapi import` reads (a directory of .txt or .txt.zst files, or the USDA's sr28asc.zip).
set -euo pipefail
cd "$(dirname "$0")"
BUN=./node_modules/.bin/bun
[ -x "$BUN" ] || { echo "build.sh: run 'npm install' first (bun is a devDependency)" >&2; exit 1; }
SR28_DIR="${FOODAPI_SR28_DIR:-data/sr28}"
mkdir -p dist

# The dashboard's browser code, bundled for the browser; the server embeds the result (src/dashboard/routes.ts).
"$BUN" build src/dashboard/web/main.ts --target=browser --minify --outfile dist/web/dashboard.js >&2

# The import is skipped when the catalog is newer than every SR28 file (data/sr28's .zst files by default)
# and the importer sources.
if [ ! -f dist/catalog.sqlite ] || [ -n "$(find "$SR28_DIR" src/catalog -newer dist/catalog.sqlite -type f 2>/dev/null | head -1)" ]; then
  "$BUN" run src/main.ts import "$SR28_DIR" --out dist/catalog.sqlite
fi

# The catalog's content id names the copy a binary extracts at run time (src/db/catalog-db.ts).
sha256sum dist/catalog.sqlite | cut -c1-16 > dist/catalog.id

"$BUN" build src/main.ts --compile --minify --sourcemap --bytecode --format=esm --outfile dist/foodapi >&2
echo "built dist/foodapi ($(du -h dist/foodapi | cut -f1))" >&2
