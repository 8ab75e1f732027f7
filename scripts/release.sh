#!/usr/bin/env bash
# `npm run release`: builds dist/release/foodapi-<version>-<os>-<arch>[.exe] for every platform foodapi ships
# to, plus dist/release/SHA256SUMS. <version> is package.json's, which is what `foodapi version` prints.
#
# Each target needs two things this machine does not have, both fetched with `npm pack` (so npm's own
# registry, proxy and cache settings apply) and kept in dist/release-cache/ between runs:
# - the target's Bun runtime, @oven/bun-<os>-<arch> at the version of the bun that compiles, handed to
#   `bun build --compile` as --compile-executable-path. (Without it bun downloads the same tarball itself,
#   from a registry address built into it that ignores npm's settings.)
# - the target's @node-rs/argon2 native addon, @node-rs/argon2-<platform> at the installed @node-rs/argon2's
#   version. For a --target, bun defines process.platform and process.arch as the target's, so the bundler
#   keeps only that platform's branch of @node-rs/argon2's loader and embeds the .node file that branch
#   requires, if it can resolve it: the package is linked into node_modules for that one compile. A missing
#   one would still compile and only fail at the first password hash, so each artifact is checked for it.
set -euo pipefail
cd "$(dirname "$0")/.."
BUN=./node_modules/.bin/bun
[ -x "$BUN" ] || { echo "release.sh: run 'npm install' first (bun is a devDependency)" >&2; exit 1; }

version=$(node -p 'require("./package.json").version')
bun_version=$("$BUN" --version)
argon2_version=$(node -p 'require("@node-rs/argon2/package.json").version')
out=dist/release
cache=dist/release-cache
mkdir -p "$cache"
rm -rf "$out"
mkdir -p "$out"

# name (in the artifact) | bun --target | Bun runtime package | argon2 native package
TARGETS="
linux-x64     bun-linux-x64     @oven/bun-linux-x64       @node-rs/argon2-linux-x64-gnu
linux-arm64   bun-linux-arm64   @oven/bun-linux-aarch64   @node-rs/argon2-linux-arm64-gnu
darwin-x64    bun-darwin-x64    @oven/bun-darwin-x64      @node-rs/argon2-darwin-x64
darwin-arm64  bun-darwin-arm64  @oven/bun-darwin-aarch64  @node-rs/argon2-darwin-arm64
windows-x64   bun-windows-x64   @oven/bun-windows-x64     @node-rs/argon2-win32-x64-msvc
"

# Unpacks package@version into $cache/<name>-<version>/ (once) and prints that directory.
fetch() {
  local spec=$1 dir
  dir="$cache/$(echo "${spec#@}" | tr '/@' '--')"
  if [ ! -d "$dir" ]; then
    local tarball
    tarball=$(npm pack "$spec" --pack-destination "$cache" --silent 2>/dev/null | tail -1)
    [ -f "$cache/$tarball" ] || { echo "release.sh: npm pack $spec failed" >&2; exit 1; }
    mkdir -p "$dir.partial"
    tar -xzf "$cache/$tarball" -C "$dir.partial" --strip-components=1
    rm "$cache/$tarball"
    mv "$dir.partial" "$dir"
  fi
  echo "$dir"
}

linked=""
unlink_native() { if [ -n "$linked" ]; then rm -f "$linked"; linked=""; fi; }
trap unlink_native EXIT

while read -r name target runtime_pkg native_pkg <&3; do
  [ -n "$name" ] || continue
  ext=""; [ "${name%%-*}" = windows ] && ext=".exe"
  artifact="$out/foodapi-$version-$name$ext"
  runtime_dir=$(fetch "$runtime_pkg@$bun_version")
  native_dir=$(fetch "$native_pkg@$argon2_version")
  # Linked only where npm installed none (it installs this machine's own platform package).
  if [ ! -e "node_modules/$native_pkg" ]; then
    ln -s "$(pwd)/$native_dir" "node_modules/$native_pkg"
    linked="node_modules/$native_pkg"
  fi
  bash build.sh --target "$target" --runtime "$runtime_dir/bin/bun$ext" --outfile "$artifact"
  unlink_native
  # The bundler names an embedded file <name>-<hash>.<ext>: this one is the addon itself, not the string
  # naming it in the loader's source.
  node_file=$(basename "$(ls "$native_dir"/*.node)" .node)
  grep -a -q -E "$node_file-[a-z0-9]{8}\.node" "$artifact" || { echo "release.sh: $artifact lacks $node_file.node" >&2; exit 1; }
done 3<<< "$TARGETS"

(cd "$out" && sha256sum foodapi-* > SHA256SUMS)
echo "release $version in $out:" >&2
ls -l "$out" >&2
