import { constants, Database } from "bun:sqlite";
import { existsSync } from "node:fs";
import { AnswerFile, AnswerFileInvalid } from "./answer-file";
import { answersFileName, answersForCatalogFile, type CatalogFiles, catalogFileName, expandCatalog } from "./catalog-expand";
import { createSqliteCatalogStore } from "./sqlite-store";
import type { CatalogStore } from "./store";
import { join } from "node:path";

export class CatalogUnavailable extends Error {}

/** Where a compiled binary keeps its embedded files. */
const EMBEDDED_ROOT = "/$bunfs/";

/** Where `foodapi import` writes a catalog unless told (`--out`): in the current directory. */
export const DEFAULT_CATALOG_FILE = "catalog.sqlite";

/**
 * The read-only food catalog: a file named by `--catalog`, else the one embedded in the binary (or, when
 * running from source, dist/catalog.sqlite as build.sh leaves it), with its answers file (answer-file.ts).
 */
export async function openCatalogStore(path: string | undefined, cacheDir: string, log?: (line: string) => void): Promise<CatalogStore> {
  const files = await catalogFiles(path, cacheDir, log);
  const database = openCatalog(files.catalog);
  try {
    const answers = files.answers ?? (await answersFor(files.catalog, database, cacheDir, log));
    return createSqliteCatalogStore(database, new AnswerFile(answers));
  } catch (error) {
    database.close();
    if (error instanceof AnswerFileInvalid) throw new CatalogUnavailable(`${error.message}; remove it to have it made again`);
    throw error;
  }
}

/**
 * The files to serve, made first when they are not there yet: the embedded catalog expanded into
 * `cacheDir`; a catalog file's answers are made once it is open (`answersFor`).
 */
async function catalogFiles(path: string | undefined, cacheDir: string, log?: (line: string) => void): Promise<{ catalog: string; answers?: string }> {
  if (path !== undefined) {
    if (!existsSync(path)) throw new CatalogUnavailable(`catalog file not found: ${path}`);
    return { catalog: path };
  }
  const embedded = await loadEmbeddedCatalog();
  // Running from source: build.sh leaves the full catalog next to the compressed one, served as a catalog file.
  if (!embedded.files.catalog.startsWith(EMBEDDED_ROOT)) return { catalog: embedded.files.catalog.replace(/\.zst$/, "") };
  return embeddedCatalogFiles(embedded, cacheDir, log);
}

/**
 * The embedded catalog as real files. SQLite cannot open a file inside the binary, and loading it into
 * memory would cost every process its full size and start-up time, so it is expanded once (catalog-expand.ts)
 * into the cache directory, named by its content id, and read from there. `log` hears of an expansion
 * (under a second, on the first start of a build), so that the wait before the start-up line is explained.
 */
async function embeddedCatalogFiles(embedded: EmbeddedCatalog, cacheDir: string, log?: (line: string) => void): Promise<CatalogFiles> {
  const ready = { catalog: join(cacheDir, catalogFileName(embedded.id)), answers: join(cacheDir, answersFileName(embedded.id)) };
  // Each is renamed into place only once complete and flushed (catalog-expand.ts).
  if (existsSync(ready.catalog) && existsSync(ready.answers)) return ready;
  try {
    log?.(`expanding the embedded catalog into ${cacheDir} …`);
    const started = performance.now();
    const expanded = await expandCatalog(embedded.files, embedded.id, cacheDir);
    log?.(`expanded the catalog in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    return expanded;
  } catch (error) {
    throw new CatalogUnavailable(
      `cannot expand the embedded catalog into ${cacheDir} (${(error as Error).message}); set --cache-dir or FOODAPI_CACHE_DIR to a writable directory`,
    );
  }
}

async function answersFor(catalogPath: string, database: Database, cacheDir: string, log?: (line: string) => void): Promise<string> {
  // Checked only when its answers are to be made from it: a later start finds them made.
  const complete = () => {
    const count = (table: string) => database.query<{ n: number }, []>(`SELECT count(*) AS n FROM ${table}`).get()!.n;
    if (count("food_details") !== count("foods")) {
      throw new CatalogUnavailable(`${catalogPath} lacks its foods' detail answers (not written by 'foodapi import'); import it again`);
    }
  };
  try {
    return await answersForCatalogFile(catalogPath, database, cacheDir, log, complete);
  } catch (error) {
    if (error instanceof CatalogUnavailable) throw error;
    throw new CatalogUnavailable(
      `cannot write the detail answers of ${catalogPath} into ${cacheDir} (${(error as Error).message}); set --cache-dir or FOODAPI_CACHE_DIR to a writable directory`,
    );
  }
}

/** The catalog database at `file`, read-only, checked to be one this version serves. */
export function openCatalog(file: string): Database {
  // `immutable`: nothing writes a catalog once imported (a new import renames a new file into place), so
  // SQLite may skip the file locks and change checks it would otherwise make around every read (two
  // thirds of the cost of a one-row lookup).
  const uri = `file:${file.split("/").map(encodeURIComponent).join("/")}?immutable=1`;
  // Read with read(), not mmap: a mapped catalog would count every page a process touched as its own
  // resident memory to save a few microseconds a lookup. Either way the kernel's page cache holds the file
  // once for every worker. (The answers file is mapped: its pages are sent as they are, answer-file.ts.)
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

/** How the start-up line names the catalog served: the embedded one by its content id, else its file. */
export async function describeCatalog(path: string | undefined): Promise<string> {
  if (path !== undefined) return `catalog ${path}`;
  const embedded = await loadEmbeddedCatalog().catch(() => undefined);
  return embedded ? `catalog ${embedded.id.slice(0, 16)}` : "no embedded catalog";
}

type EmbeddedCatalog = { files: CatalogFiles; id: string };

async function loadEmbeddedCatalog(): Promise<EmbeddedCatalog> {
  try {
    return (await import("./embedded-catalog")).embeddedCatalog;
  } catch (error) {
    throw new CatalogUnavailable(
      `no embedded catalog (${(error as Error).message}); run build.sh, or pass --catalog <file> from 'foodapi import'`,
    );
  }
}
