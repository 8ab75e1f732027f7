// The catalog built by build.sh, zstd-compressed (dist/catalog.sqlite.zst). `bun build --compile` embeds the
// file itself: at run time this is its path inside the binary ("/$bunfs/..."), or dist/catalog.sqlite.zst when
// running from source. Its id (a hash of the uncompressed content, written by build.sh) names the expanded copy
// SQLite opens (see catalog-db.ts). Imported lazily, so nothing is loaded until a command needs the catalog.
import path from "../../dist/catalog.sqlite.zst" with { type: "file" };
import id from "../../dist/catalog.id" with { type: "text" };

export const embeddedCatalog = { path, id: id.trim() };
