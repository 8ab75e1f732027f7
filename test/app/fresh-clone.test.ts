import { Database } from "bun:sqlite";
import { afterAll, describe, expect, test } from "bun:test";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "../helpers/paths";

/**
 * The data travels with the code: the repository's committed HEAD, cloned into an empty temporary
 * directory (no ../shared or anything else beside it), builds with the README's first command's build
 * step and imports SR28 from its own data/sr28. node_modules is linked from this checkout rather than
 * installed again (the README's `npm install` is what CI itself runs first). What is tested is the
 * commit, not the working tree: uncommitted changes are not in the clone.
 */

const parent = mkdtempSync(join(tmpdir(), "foodapi-clone-"));
const clone = join(parent, "foodapi");
const BUN = join(ROOT, "node_modules/.bin/bun");
// Nothing of the developer's environment (FOODAPI_SR28_DIR above all) reaches the clone's build.
const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? "/tmp" };

afterAll(() => rmSync(parent, { recursive: true, force: true }));

const run = (cmd: string[], cwd: string) => {
  const result = Bun.spawnSync(cmd, { cwd, env, stdout: "pipe", stderr: "pipe" });
  return { exitCode: result.exitCode, output: result.stdout.toString() + result.stderr.toString() };
};

describe("a fresh clone with nothing beside it", () => {
  test("clones, builds (bash build.sh, as npm start does first) and imports SR28 from data/sr28", () => {
    const head = run(["git", "rev-parse", "HEAD"], ROOT).output.trim();
    const top = run(["git", "rev-parse", "--show-toplevel"], ROOT).output.trim();
    expect(run(["git", "clone", "--quiet", "--no-checkout", top, clone], parent).exitCode).toBe(0);
    expect(run(["git", "checkout", "--quiet", "--detach", head], clone).exitCode).toBe(0);
    expect(readdirSync(parent)).toEqual(["foodapi"]);
    expect(existsSync(join(clone, "data/sr28/NUT_DATA.txt.zst"))).toBe(true);
    symlinkSync(join(ROOT, "node_modules"), join(clone, "node_modules"));

    const build = run(["bash", "build.sh"], clone);
    if (build.exitCode !== 0) throw new Error(build.output);
    expect(build.output).toContain("importing SR28 from data/sr28");
    expect(build.output).toContain("data/sr28: all 11 files match the SR28 release's SHA-256");

    const db = new Database(join(clone, "dist/catalog.sqlite"), { readonly: true });
    const count = (table: string) => db.query<{ n: number }, []>(`SELECT count(*) AS n FROM ${table}`).get()!.n;
    expect(count("foods")).toBe(8789);
    expect(count("nutrient_values")).toBe(679045);
    expect(db.query("SELECT unit FROM nutrients WHERE number = '317'").get()).toEqual({ unit: "µg" });
    const portions = db.query<{ description: string }, []>("SELECT description FROM portions WHERE food_id = 22996").all();
    expect(portions.map((p) => p.description)).toContain("Entrée");
    db.close();
    expect(existsSync(join(clone, "dist/foodapi"))).toBe(true);
  }, 300_000);

  test("nothing a user reads or runs refers to ../shared (tests and CI may read the contract there)", () => {
    const found = run(["git", "grep", "-n", "-F", "../shared", "--", ".", ":!test", ":!.ci"], clone);
    expect(found.output).toBe("");
    expect(found.exitCode).toBe(1); // git grep: 1 is "no match"
  });

  test("one changed byte in one file of the clone's data/sr28 is refused by name; no catalog is written", () => {
    const altered = join(parent, "sr28-altered");
    cpSync(join(clone, "data/sr28"), altered, { recursive: true });
    const packed = join(altered, "NUT_DATA.txt.zst");
    const bytes = Buffer.from(Bun.zstdDecompressSync(readFileSync(packed)));
    bytes[1_000_000]! ^= 0x01;
    writeFileSync(packed, Bun.zstdCompressSync(bytes, { level: 1 }));

    const out = join(parent, "out");
    mkdirSync(out);
    const refused = run([join(clone, "dist/foodapi"), "import", altered, "--out", join(out, "catalog.sqlite")], clone);
    expect(refused.exitCode).toBe(1);
    expect(refused.output).toMatch(
      /import failed: NUT_DATA\.txt: checksum differs from the SR28 release \(expected 8b86e1d65bfa…, got [0-9a-f]{12}…\); restore .* \(git checkout -- data\/sr28\) or point FOODAPI_SR28_DIR at an unmodified copy of SR28; no catalog was written\n/,
    );
    expect(readdirSync(out)).toEqual([]);
  }, 60_000);
});
