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

# Scalar's bundle for /docs (3.5 MB) is embedded gzip-compressed (1 MB): every browser takes it so, and the
# server inflates it once for a client that does not (src/platform/http/static-file.ts).
SCALAR=node_modules/@scalar/api-reference/dist/browser/standalone.js
if [ ! -f dist/web/scalar.js.gz ] || [ "$SCALAR" -nt dist/web/scalar.js.gz ]; then
  gzip -9 -n -c "$SCALAR" > dist/web/scalar.js.gz.partial && mv dist/web/scalar.js.gz.partial dist/web/scalar.js.gz
fi

# The import is skipped when the catalog is newer than every SR28 file (data/sr28's .zst files by default)
# and the importer sources.
if [ ! -f dist/catalog.sqlite ] || [ -n "$(find "$SR28_DIR" src/catalog -newer dist/catalog.sqlite -type f 2>/dev/null | head -1)" ]; then
  "$BUN" run src/main.ts import "$SR28_DIR" --out dist/catalog.sqlite
fi

# The catalog's content id names the copy a binary expands at run time (src/catalog/catalog-db.ts). It is the full
# catalog's: the copy is rebuilt to answer as this one does, and any change to the importer, its detail
# builder included, re-imports (above) and so changes it.
sha256sum dist/catalog.sqlite | cut -c1-16 > dist/catalog.id
# The binary embeds the catalog compressed, without its detail answers, and the answers file packed
# (scripts/compress-catalog.ts); packed again only when the catalog or the packing changed.
if [ ! -f dist/catalog.answers.zst ] || [ -n "$(find dist/catalog.sqlite scripts/compress-catalog.ts src/catalog/answer-file.ts src/catalog/frame-pack.ts -newer dist/catalog.answers.zst 2>/dev/null | head -1)" ]; then
  "$BUN" scripts/compress-catalog.ts dist/catalog.sqlite dist/catalog.sqlite.zst dist/catalog.answers.zst
fi

# Options, for scripts/release.sh: --target bun-<os>-<arch> (default: this machine), --outfile PATH (default
# dist/foodapi), --runtime PATH (that target's bun executable, so that bun build downloads none itself).
outfile=dist/foodapi
cross=()
compile=1
while [ $# -gt 0 ]; do
  case "$1" in
    --no-compile) compile=0; shift ;;
    --target) cross+=("--target=$2"); shift 2 ;;
    --runtime) cross+=("--compile-executable-path=$2"); shift 2 ;;
    --outfile) outfile=$2; shift 2 ;;
    *) echo "build.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
# --no-compile (npm run test:quick): everything the in-process tests read (the catalog, the web assets), no binary.
[ "$compile" -eq 1 ] || exit 0
# Bun's parser refuses a request head over --max-http-header-size itself, with a bodiless 431: raised from its
# 16 KiB so that the app answers heads between 16 and 64 KiB with its JSON 431 (src/platform/http/head-limit.ts).
# What `foodapi version` names (src/platform/version.ts): the commit built, "-dirty" when the tree differs from it.
commit=unknown
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  commit=$(git rev-parse --short=12 HEAD)
  [ -z "$(git status --porcelain)" ] || commit="$commit-dirty"
fi
built=$(date -u +%Y-%m-%dT%H:%M:%SZ)
# ESM split into chunks at each dynamic import: a start loads the code of the modules it runs, and each chunk
# imports only the built-in modules its own code names. One bundle (CommonJS, since an ESM one imported every
# built-in any module named at its top) carried the bytecode of every command, the PostgreSQL and Redis
# stores, the analysis and the upload checks into each start (docs/performance.md, "The later start").
# The binary embeds its source map (stack traces name src/ files); the bundler also writes one .map file per
# chunk beside its output, so it builds in a directory of its own, and only the binary is kept.
staging=$(mktemp -d "$(dirname "$outfile")/.build.XXXXXX")
trap 'rm -rf "$staging"' EXIT
"$BUN" build src/main.ts --compile --define "FOODAPI_BUILD_COMMIT=\"$commit\"" --define "FOODAPI_BUILD_DATE=\"$built\"" "${cross[@]}" --compile-exec-argv=--max-http-header-size=65536 --minify --sourcemap --bytecode --format=esm --splitting --outfile "$staging/${outfile##*/}" >&2
mv "$staging/${outfile##*/}" "$outfile"
echo "built $outfile ($(du -h "$outfile" | cut -f1))" >&2
