import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runBinary, startServer } from "../helpers/binary";
import { ROOT } from "../helpers/paths";

/**
 * Where the state goes when no data directory is set (settings.ts, DATA_DIR_DEFAULT), through the binary:
 * ./data, except in a foodapi checkout, whose ./data holds SR28 (data/sr28): there ./.foodapi, so that
 * `rm -rf data` to reset the state cannot delete SR28. And where the catalog goes with no home directory.
 */

/** A directory that looks like a foodapi checkout to the binary: data/sr28/ and the package.json of foodapi. */
function checkout(packageName = "foodapi"): string {
  const dir = mkdtempSync(join(tmpdir(), "foodapi-checkout-"));
  mkdirSync(join(dir, "data", "sr28"), { recursive: true });
  writeFileSync(join(dir, "data", "sr28", "SHA256SUMS"), "");
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: packageName, version: "0.1.0" }));
  return dir;
}

const args = ["--workers", "1", "--client-ip-header", ""];

describe("the default data directory", () => {
  test("in a foodapi checkout it is ./.foodapi: the server makes it there, the start-up line names it, ./data keeps SR28 alone, and the admin commands find it", async () => {
    const cwd = checkout();
    const server = await startServer({ cwd, args });
    try {
      expect(server.stderr()).toContain(`data directory ${join(cwd, ".foodapi")},`);
      expect(readdirSync(join(cwd, ".foodapi"))).toContain("state.sqlite");
      expect(readdirSync(join(cwd, "data"))).toEqual(["sr28"]);
      const created = runBinary(["keys", "create", "--email", "dev@example.com", "--name", "laptop"], { cwd });
      expect(created.exitCode).toBe(0);
      expect(created.stderr).toContain(`(data directory ${join(cwd, ".foodapi")})`);
      expect((await fetch(`${server.url}/v1/food-groups`, { headers: { "x-api-key": created.stdout.trim() } })).status).toBe(200);
    } finally {
      expect(await server.stop()).toBe(0);
    }
    expect(readdirSync(join(cwd, "data"))).toEqual(["sr28"]);
  });

  test("outside a checkout it is ./data, also where data/sr28 exists beside another project's package.json", () => {
    const empty = mkdtempSync(join(tmpdir(), "foodapi-elsewhere-"));
    const refused = runBinary(["users", "list"], { cwd: empty });
    expect([refused.exitCode, refused.stderr]).toEqual([
      1,
      `foodapi: no data directory at ${join(empty, "data")}: 'users list' works on a server's data directory (start 'foodapi serve' there once, or pass --data-dir or FOODAPI_DATA_DIR)\n`,
    ]);
    const other = checkout("another-project");
    const listed = runBinary(["users", "list"], { cwd: other });
    expect([listed.exitCode, listed.stdout]).toEqual([0, "no accounts\n"]);
    expect(readdirSync(join(other, "data")).sort()).toEqual(["keys.epoch", "sr28", "state.sqlite"]);
    for (const cwd of [empty, other]) expect(existsSync(join(cwd, ".foodapi"))).toBe(false);
  });

  test("a checkout's state database that an earlier version left in ./data stays in use, with a notice saying how to move it; moved so, it is found in ./.foodapi", async () => {
    const cwd = checkout();
    // As an earlier version made it: the server started in the checkout with ./data as its data directory.
    const earlier = await startServer({ cwd, args: [...args, "--data-dir", "./data"] });
    expect(await earlier.stop()).toBe(0);
    const key = runBinary(["keys", "create", "--email", "kept@example.com", "--name", "old", "--data-dir", "./data"], { cwd }).stdout.trim();

    const server = await startServer({ cwd, args });
    let move: string;
    try {
      const notice = server.stderr().split("\n").find((line) => line.includes("beside SR28"));
      expect(notice).toBeDefined();
      expect(notice).toStartWith("foodapi: the state database is in ./data, beside SR28 (data/sr28), where 'rm -rf data' would delete both;");
      expect(server.stderr()).toContain(`data directory ${join(cwd, "data")},`);
      expect((await fetch(`${server.url}/v1/food-groups`, { headers: { "x-api-key": key } })).status).toBe(200);
      // The admin commands say it too, and work on the same state.
      const listed = runBinary(["users", "list"], { cwd });
      expect(listed.stdout).toContain("kept@example.com");
      expect(listed.stderr).toBe(`${notice}\n`);
      move = /stop the server, then: (.*) \(or pass/.exec(notice!)![1]!;
    } finally {
      expect(await server.stop()).toBe(0);
    }
    // The notice's command, as written.
    expect(Bun.spawnSync(["sh", "-c", move], { cwd }).exitCode).toBe(0);
    const moved = await startServer({ cwd, args });
    try {
      expect(moved.stderr()).not.toContain("beside SR28");
      expect(moved.stderr()).toContain(`data directory ${join(cwd, ".foodapi")},`);
      expect((await fetch(`${moved.url}/v1/food-groups`, { headers: { "x-api-key": key } })).status).toBe(200);
    } finally {
      expect(await moved.stop()).toBe(0);
    }
    expect(readdirSync(join(cwd, "data"))).toEqual(["sr28"]);
  });

  test("--help states the rule", () => {
    const help = runBinary(["serve", "--help"]).stdout;
    expect(help).toMatch(/--data-dir +FOODAPI_DATA_DIR +.*\(default: \.\/\.foodapi in a foodapi checkout, else \.\/data\)/);
    expect(help).toMatch(/--cache-dir +FOODAPI_CACHE_DIR +.*\(default: .*else \(no HOME\) <data-dir>\/cache/);
  });

  test("this repository is such a checkout, and ignores ./.foodapi", () => {
    expect(existsSync(join(ROOT, "data", "sr28"))).toBe(true);
    expect(JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).name).toBe("foodapi");
    const ignored = Bun.spawnSync(["git", "check-ignore", "-q", ".foodapi/state.sqlite"], { cwd: ROOT });
    expect(ignored.exitCode).toBe(0);
  });
});

describe("the cache directory without a home directory", () => {
  test("the catalog is expanded into <data-dir>/cache, and the start-up line says so; with a home directory it says nothing of it", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "foodapi-nohome-"));
    const server = await startServer({ cwd, args, env: { HOME: "", XDG_CACHE_HOME: "" } });
    try {
      expect(server.stderr()).toMatch(new RegExp(`, catalog [0-9a-f]{16} in ${join(cwd, "data", "cache")} \\(no HOME, no --cache-dir\\), data directory ${join(cwd, "data")},`));
      expect(readdirSync(join(cwd, "data", "cache")).some((name) => name.startsWith("catalog-"))).toBe(true);
    } finally {
      expect(await server.stop()).toBe(0);
    }
    const withHome = await startServer({ args });
    try {
      expect(withHome.stderr()).toMatch(/, catalog [0-9a-f]{16}, data directory /);
    } finally {
      expect(await withHome.stop()).toBe(0);
    }
  }, 60_000);
});
