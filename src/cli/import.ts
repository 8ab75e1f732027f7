import { resolve } from "node:path";
import { importSr28, ImportAborted } from "../catalog/import/importer";
import { Sr28FormatError } from "../catalog/import/sr28-format";

export const DEFAULT_SR28_DIR = "../shared/datasets/usda-sr28";

/** `foodapi import [dir] [--out file]`: builds a catalog database from SR28's ASCII files. */
export async function importCommand(positionals: readonly string[], flags: ReadonlyMap<string, string>): Promise<number> {
  const sourceDir = resolve(positionals[0] ?? process.env.FOODAPI_SR28_DIR ?? DEFAULT_SR28_DIR);
  const outPath = resolve(flags.get("out") ?? "catalog.sqlite");
  const abort = new AbortController();
  const onSignal = () => abort.abort();
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  console.error(`importing SR28 from ${sourceDir}`);
  try {
    const counts = await importSr28({ sourceDir, outPath, progress: (line) => console.error(line), signal: abort.signal });
    console.error(
      `${counts.foods} foods, ${counts.foodGroups} groups, ${counts.nutrients} nutrients, ` +
        `${counts.nutrientValues} nutrient values, ${counts.portions} portions, ${counts.footnotes} footnotes`,
    );
    return 0;
  } catch (error) {
    if (error instanceof Sr28FormatError || error instanceof ImportAborted) {
      console.error(`import failed: ${error.message}; no catalog was written`);
      return error instanceof ImportAborted ? 130 : 1;
    }
    throw error;
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
}
