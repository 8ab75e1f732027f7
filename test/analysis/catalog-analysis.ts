import { join } from "node:path";
import { openCatalogStore } from "../../src/catalog/catalog-db";
import type { CatalogStore } from "../../src/catalog/store";
import { type Analysis, analyzeRecipe, createAnalysis } from "../../src/analysis/service";
import type { AnalyzedLine } from "../../src/analysis/model";
import { CATALOG_PATH, ROOT } from "../helpers/paths";

/**
 * The analysis over the built catalog (dist/catalog.sqlite, as the catalog tests open it), made once per
 * test process: building the name index reads every food, and every analysis test file shares it.
 */
let shared: Promise<{ store: CatalogStore; analysis: Analysis }> | undefined;

export function catalogAnalysis(): Promise<{ store: CatalogStore; analysis: Analysis }> {
  shared ??= openCatalogStore(CATALOG_PATH, join(ROOT, "dist", "test-cache")).then((store) => ({ store, analysis: createAnalysis(store) }));
  return shared;
}

/** One line's item, analysed alone. */
export async function analyzeLine(line: string): Promise<AnalyzedLine> {
  const { analysis } = await catalogAnalysis();
  return analyzeRecipe(analysis, { lines: [line], servings: 1, nutrients: ["208"] }).items[0]!;
}
