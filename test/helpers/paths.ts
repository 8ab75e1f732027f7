import { resolve } from "node:path";

export const ROOT = resolve(import.meta.dir, "../..");
/** The repository's SR28 (data/sr28: `.txt.zst` files and SHA256SUMS), or FOODAPI_SR28_DIR (a directory of `.txt` files). */
export const SR28_DIR = resolve(process.env.FOODAPI_SR28_DIR || resolve(ROOT, "data/sr28"));
/** Built by build.sh, which the test command runs first. */
export const CATALOG_PATH = resolve(ROOT, "dist/catalog.sqlite");
/** FOODAPI_TEST_BINARY runs the binary tests against another build (say, the previous commit's, to see a regression test fail). */
export const BINARY_PATH = resolve(process.env.FOODAPI_TEST_BINARY ?? resolve(ROOT, "dist/foodapi"));
