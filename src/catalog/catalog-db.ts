import { constants, Database } from "bun:sqlite";
import { existsSync } from "node:fs";
import { catalogFileName, expandCatalog } from "./catalog-expand";
import { join } from "node:path";

export class CatalogUnavailable extends Error {}

/** Where a compiled binary keeps its embedded files. */
const EMBEDDED_ROOT = "/$bunfs/";

/** Where `foodapi import` writes a catalog unless told (`--out`): in the current directory. */
export const DEFAULT_CATALOG_FILE = "catalog.sqlite";

/**
 * The read-only food catalog: a file named by `--catalog`, else the one embedded in the binary (or, when
 * running from source, dist/catalog.sqlite as build.sh leaves it).
 */
export async function openCatalog(path: string | undefined, cacheDir: string, log?: (line: string) => void): Promise<Database> {
  if (path !== undefined && !existsSync(path)) throw new CatalogUnavailable(`catalog file not found: ${path}`);
  const file = path ?? (await embeddedCatalogFile(cacheDir, log));
  // `immutable`: nothing writes a catalog once imported (a new import renames a new file into place), so
  // SQLite may skip the file locks and change checks it would otherwise make around every read (two
  // thirds of the cost of a one-row lookup).
  const uri = `file:${file.split("/").map(encodeURIComponent).join("/")}?immutable=1`;
  // Read with read(), not mmap: a mapped catalog would count every page a process touched as its own
  // resident memory (tens of MB per worker under a detail load, docs/performance.md) to save a few
  // microseconds a lookup. Either way the kernel's page cache holds the file once for every worker.
  const database = new Database(uri, constants.SQLITE_OPEN_READONLY | constants.SQLITE_OPEN_URI);
  const tables = new Set(database.query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table'").all().map((t) => t.name));
  const detailColumns = new Set(database.query<{ name: string }, []>("SELECT name FROM pragma_table_info('food_details')").all().map((c) => c.name));
  const missing = [
    ...REQUIRED_TABLES.filter((table) => !tables.has(table)),
    ...REQUIRED_DETAIL_COLUMNS.filter((column) => tables.has("food_details") && !detailColumns.has(column)).map((column) => `food_details.${column}`),
  ];
  if (missing.length > 0) {
    database.close();
    throw new CatalogUnavailable(`${file} is not a catalog from this version of 'foodapi import' (no ${missing.join(", ")}); import it again`);
  }
  return database;
}

/** What the server reads; a catalog from an older importer lacks the stored detail answers. */
const REQUIRED_TABLES = ["foods", "food_groups", "nutrients", "food_search", "food_details", "catalog_info"];
/** A catalog from before the answers were stored in every content coding has only a zstd `detail`. */
const REQUIRED_DETAIL_COLUMNS = ["etag", "zstd", "gzip"];

/**
 * The embedded catalog as a real file. SQLite cannot open a file inside the binary, and loading it into
 * memory would cost every process its full size (44 MB) and start-up time, so it is expanded once (it is
 * embedded zstd-compressed without its detail answers, 4.5 MB; catalog-expand.ts rebuilds them) into the
 * cache directory, named by its content id, and read from there. `log` hears of an expansion (1.5-2 s, on the
 * first start of a build), so that the wait before the start-up line is explained.
 */
export async function embeddedCatalogFile(cacheDir: string, log?: (line: string) => void): Promise<string> {
  const embedded = await loadEmbeddedCatalog();
  // Running from source: build.sh leaves the uncompressed catalog next to the compressed one.
  if (!embedded.path.startsWith(EMBEDDED_ROOT)) return embedded.path.replace(/\.zst$/, "");
  const target = join(cacheDir, catalogFileName(embedded.id));
  // An expanded copy is renamed into place only once complete and flushed (catalog-expand.ts).
  if (existsSync(target)) return target;
  try {
    log?.(`expanding the embedded catalog into ${target} …`);
    const started = performance.now();
    const expanded = await expandCatalog(embedded.path, embedded.id, cacheDir);
    log?.(`expanded the catalog in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    return expanded;
  } catch (error) {
    throw new CatalogUnavailable(
      `cannot expand the embedded catalog into ${cacheDir} (${(error as Error).message}); set --cache-dir or FOODAPI_CACHE_DIR to a writable directory`,
    );
  }
}

/** How the start-up line names the catalog served: the embedded one by its content id, else its file. */
export async function describeCatalog(path: string | undefined): Promise<string> {
  if (path !== undefined) return `catalog ${path}`;
  const embedded = await loadEmbeddedCatalog().catch(() => undefined);
  return embedded ? `catalog ${embedded.id.slice(0, 16)}` : "no embedded catalog";
}

type EmbeddedCatalog = { path: string; id: string };

async function loadEmbeddedCatalog(): Promise<EmbeddedCatalog> {
  try {
    return (await import("./embedded-catalog")).embeddedCatalog;
  } catch (error) {
    throw new CatalogUnavailable(
      `no embedded catalog (${(error as Error).message}); run build.sh, or pass --catalog <file> from 'foodapi import'`,
    );
  }
}
