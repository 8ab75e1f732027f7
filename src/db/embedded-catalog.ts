// The catalog built by build.sh, embedded by `bun build --compile` and deserialised into memory at run
// time. Imported lazily (see catalog-db.ts) so that nothing is loaded until a command needs the catalog.
import catalog from "../../dist/catalog.sqlite" with { type: "sqlite", embed: "true" };

export default catalog;
