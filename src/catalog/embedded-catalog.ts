// The catalog built by build.sh, as the binary embeds it (scripts/compress-catalog.ts): the database
// without its detail answers (dist/catalog.sqlite.zst) and the answers file (dist/catalog.answers.zst),
// each packed in zstd frames (frame-pack.ts). `bun build --compile` embeds the files themselves: at run
// time these are their paths inside the binary ("/$bunfs/..."), or the dist/ files when running from source.
// Its id (a hash of the full catalog, dist/catalog.sqlite, written by build.sh) names the expanded copies
// (see catalog-db.ts). Imported lazily, so nothing is loaded until a command needs the catalog.
import catalog from "../../dist/catalog.sqlite.zst" with { type: "file" };
import answers from "../../dist/catalog.answers.zst" with { type: "file" };
import id from "../../dist/catalog.id" with { type: "text" };

export const embeddedCatalog = { files: { catalog, answers }, id: id.trim() };
