// The catalog built by build.sh. `bun build --compile` embeds the file itself: at run time this is its path
// inside the binary ("/$bunfs/..."), or dist/catalog.sqlite when running from source. Its id (a hash of the
// content, written by build.sh) names the copy SQLite opens (see catalog-db.ts). Imported lazily, so nothing
// is loaded until a command needs the catalog.
import path from "../../dist/catalog.sqlite" with { type: "file" };
import id from "../../dist/catalog.id" with { type: "text" };

export const embeddedCatalog = { path, id: id.trim() };
