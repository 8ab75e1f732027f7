import { resolve } from "node:path";

export const ROOT = resolve(import.meta.dir, "../..");
export const SR28_DIR = resolve(process.env.FOODAPI_SR28_DIR ?? resolve(ROOT, "../shared/datasets/usda-sr28"));
/** Built by build.sh, which the test command runs first. */
export const CATALOG_PATH = resolve(ROOT, "dist/catalog.sqlite");
export const BINARY_PATH = resolve(ROOT, "dist/foodapi");
