// The catalog built by build.sh, zstd-compressed without its detail answers (dist/catalog.sqlite.zst).
// `bun build --compile` embeds the file itself: at run time this is its path inside the binary ("/$bunfs/..."),
// or dist/catalog.sqlite.zst when running from source. Its id (a hash of the full catalog, dist/catalog.sqlite,
// written by build.sh) names the expanded copy SQLite opens (see catalog-db.ts), which the first start
// completes with the same answers (catalog-expand.ts). Imported lazily, so nothing is loaded until a command
// needs the catalog.
import path from "../../dist/catalog.sqlite.zst" with { type: "file" };
import id from "../../dist/catalog.id" with { type: "text" };

export const embeddedCatalog = { path, id: id.trim() };
