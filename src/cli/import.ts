import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { importSr28, ImportAborted } from "../catalog/import/sqlite-importer";
import { Sr28FormatError } from "../catalog/import/sr28-format";
import { DEFAULT_SR28_SOURCE } from "../catalog/import/sr28-release";
import { DEFAULT_CATALOG_FILE } from "../catalog/catalog-db";
import { DirectoryRefused } from "../platform/storage/file-beside";


/** `foodapi import [DIR|sr28asc.zip] [--out file]`: builds a catalog database from SR28's ASCII files. */
export async function importCommand(positionals: readonly string[], flags: ReadonlyMap<string, string>): Promise<number> {
  const named = positionals[0] ?? (process.env.FOODAPI_SR28_DIR || undefined);
  if (named === undefined && !existsSync(DEFAULT_SR28_SOURCE)) {
    console.error(
      `import failed: no SR28 at ./${DEFAULT_SR28_SOURCE} (the default: the copy in a foodapi checkout, relative to the ` +
        "current directory); run this from a checkout, or name SR28's files: foodapi import DIR_OR_sr28asc.zip " +
        "(or set FOODAPI_SR28_DIR); no catalog was written",
    );
    return 1;
  }
  const source = named ?? DEFAULT_SR28_SOURCE;
  const outPath = resolve(flags.get("out") ?? DEFAULT_CATALOG_FILE);
  const abort = new AbortController();
  const onSignal = () => abort.abort();
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  console.error(`importing SR28 from ${source}`);
  try {
    const counts = await importSr28({ source, outPath, progress: (line) => console.error(line), signal: abort.signal });
    console.error(
      `${counts.foods} foods, ${counts.foodGroups} groups, ${counts.nutrients} nutrients, ` +
        `${counts.nutrientValues} nutrient values, ${counts.portions} portions, ${counts.footnotes} footnotes`,
    );
    return 0;
  } catch (error) {
    if (error instanceof Sr28FormatError || error instanceof ImportAborted || error instanceof DirectoryRefused) {
      console.error(`import failed: ${error.message}; no catalog was written`);
      return error instanceof ImportAborted ? 130 : 1;
    }
    throw error;
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
}
