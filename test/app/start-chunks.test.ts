import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "../helpers/paths";

/**
 * What a start loads (design §18: "A start loads what its first answer needs"): the binary's code is split
 * into chunks at each dynamic import (build.sh), and `serve` loads the chunks its own module imports, each
 * loading those it imports. Bundled as build.sh bundles it (without compiling), those chunks must hold none
 * of the code the docs say loads later: Elysia and the routes it answers, the analysis, altcha, argon2,
 * drizzle and the stores built with it, the PostgreSQL and Redis stores, the import.
 */
const LOADED_LATER = [
  "node_modules/elysia/",
  "node_modules/@elysiajs/",
  "node_modules/file-type/",
  "node_modules/altcha-lib/",
  "node_modules/@node-rs/argon2/",
  "node_modules/parse-ingredient/",
  "node_modules/minisearch/",
  "src/app/elysia-routes.ts",
  "src/accounts/routes.ts",
  "src/keys/routes.ts",
  "src/trial/routes.ts",
  "src/docs/routes.ts",
  "src/dashboard/routes.ts",
  "src/meta/description-route.ts",
  // TypeBox's `Type` object (every builder, ~43 KB) comes with Elysia's `t`: the direct routes' models
  // import the builders as a namespace, of which the bundler keeps those used.
  "node_modules/@sinclair/typebox/build/esm/type/type/",
  "src/analysis/service.ts",
  // drizzle, and every store and table declaration built with it, loads with the first store used
  // (app/state/sqlite-state.ts); the SQLite state's start is plain SQL (the revocation log), and its migrations load only to migrate.
  "node_modules/drizzle-orm/",
  "src/app/state/sqlite-stores.ts",
  "src/app/state/state-schema.ts",
  "src/platform/storage/sqlite-migrations.ts",
  "src/platform/storage/declare-table.ts",
  "src/platform/storage/postgres-core.ts",
  "src/app/state/postgres-state.ts",
  "src/app/state/redis-state.ts",
  "src/cli/import.ts",
];

interface Metafile {
  outputs: Record<string, { entryPoint?: string; inputs: Record<string, unknown>; imports?: { path: string; kind: string }[] }>;
}

const outdir = mkdtempSync(join(tmpdir(), "foodapi-chunks-"));
afterAll(() => rmSync(outdir, { recursive: true, force: true }));

describe("the chunks a start loads", () => {
  test("build.sh splits the binary's code at each dynamic import", () => {
    expect(readFileSync(join(ROOT, "build.sh"), "utf8")).toContain("--format=esm --splitting");
  });

  test("hold none of what loads after the first answers, and do hold the direct routes", () => {
    const built = Bun.spawnSync(
      [process.execPath, "build", "src/main.ts", "--target=bun", "--format=esm", "--splitting", "--minify", "--outdir", outdir, `--metafile=${join(outdir, "meta.json")}`],
      { cwd: ROOT, stdout: "ignore", stderr: "pipe" },
    );
    expect(built.stderr.toString()).not.toContain("error");
    expect(built.exitCode).toBe(0);
    const { outputs } = JSON.parse(readFileSync(join(outdir, "meta.json"), "utf8")) as Metafile;
    const byFile = new Map(Object.entries(outputs).map(([path, output]) => [path.replace(/^\.\//, ""), output]));
    const serve = [...byFile].find(([, output]) => output.entryPoint === "src/cli/serve.ts")?.[0];
    const main = [...byFile].find(([, output]) => output.entryPoint === "src/main.ts")?.[0];
    expect(serve).toBeDefined();
    expect(main).toBeDefined();
    // The chunks loaded with main's and serve's modules: static imports only, a dynamic one loads later.
    const loaded = new Set<string>();
    const visit = (file: string) => {
      if (loaded.has(file)) return;
      loaded.add(file);
      for (const imported of byFile.get(file)?.imports ?? []) {
        if (imported.kind === "import-statement" && byFile.has(imported.path.replace(/^\.\//, ""))) visit(imported.path.replace(/^\.\//, ""));
      }
    };
    visit(main!);
    visit(serve!);
    const inputs = [...loaded].flatMap((file) => Object.keys(byFile.get(file)!.inputs));
    expect(inputs.filter((input) => LOADED_LATER.some((later) => input.includes(later)))).toEqual([]);
    // The walk itself finds what a start does need: a test that found nothing would pass for nothing.
    for (const needed of ["src/cli/serve.ts", "src/app/app.ts", "src/catalog/routes.ts", "src/meta/routes.ts", "node_modules/@sinclair/typebox/build/esm/type/object/", "src/app/state/sqlite-state.ts", "src/keys/sqlite-revocations.ts"]) {
      expect(inputs.some((input) => input.includes(needed))).toBe(true);
    }
  });
});
