import { Database } from "bun:sqlite";
import { existsSync } from "node:fs";

export class CatalogUnavailable extends Error {}

/**
 * The read-only food catalog: a file named by `--catalog`, else the one embedded in the binary (or, when
 * running from source, dist/catalog.sqlite as build.sh leaves it).
 */
export async function openCatalog(path: string | undefined): Promise<Database> {
  if (path !== undefined) {
    if (!existsSync(path)) throw new CatalogUnavailable(`catalog file not found: ${path}`);
    return new Database(path, { readonly: true, strict: true });
  }
  try {
    return (await import("./embedded-catalog")).default;
  } catch (error) {
    throw new CatalogUnavailable(
      `no embedded catalog (${(error as Error).message}); run build.sh, or pass --catalog <file> from 'foodapi import'`,
    );
  }
}
