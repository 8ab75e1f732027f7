import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AnswerFile } from "../../src/catalog/answer-file";
import { runBinary, startServer } from "../helpers/binary";
import { jsonPost } from "../helpers/http";
import { CATALOG_PATH, ROOT } from "../helpers/paths";
import { differingAnswers } from "../helpers/stored-answers";

describe("the compiled binary", () => {
  test("expands its embedded catalog once into the cache directory (saying so, with the time it took), replacing older copies, and serves from it", async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), "foodapi-cache-"));
    const stale = join(cacheDir, "catalog-0123456789abcdef.sqlite");
    writeFileSync(stale, "an older build's copy");
    const id = readFileSync(join(ROOT, "dist/catalog.id"), "utf8").trim();
    const copy = join(cacheDir, `catalog-${id}.sqlite`);
    const answers = join(cacheDir, `catalog-${id}.v1.answers`);
    writeFileSync(join(cacheDir, "catalog-0123456789abcdef.v1.answers"), "an older build's answers");

    const copiedAt: number[] = [];
    for (let start = 0; start < 2; start++) {
      const server = await startServer({ args: ["--workers", "2"], env: { FOODAPI_CACHE_DIR: cacheDir } });
      try {
        expect(readdirSync(cacheDir).sort()).toEqual([`catalog-${id}.sqlite`, `catalog-${id}.v1.answers`]);
        // The first start says why it waits, and how long it took; once, from the process that expanded.
        const said = server.stderr().split("\n").filter((line) => line.startsWith("expand"));
        if (start === 0) {
          expect(said).toHaveLength(2);
          expect(said[0]).toBe(`expanding the embedded catalog into ${cacheDir} …`);
          expect(said[1]).toMatch(/^expanded the catalog in \d+\.\d s$/);
        } else {
          expect(said).toEqual([]);
        }
        // The database, and the detail answers beside it, every one as the importer stored it: the binary
        // inflates its own embedded copies, read and released frame by frame (src/catalog/frame-pack.ts).
        const expanded = new Database(copy, { readonly: true });
        expect(expanded.query("SELECT count(*) AS n FROM foods").get()).toEqual({ n: 8789 });
        expect(expanded.query("PRAGMA integrity_check").get()).toEqual({ integrity_check: "ok" });
        expanded.close();
        if (start === 0) {
          const imported = new Database(CATALOG_PATH, { readonly: true });
          const stored = new AnswerFile(answers);
          try {
            expect(differingAnswers(stored, imported)).toEqual({ foods: 8789, differing: [] });
          } finally {
            stored.close();
            imported.close();
          }
        }
        copiedAt.push(statSync(copy).mtimeMs, statSync(answers).mtimeMs);
        const key = runBinary(["keys", "create", "--email", `binary-${start}@example.com`, "--name", "expansion"], { cwd: server.cwd }).stdout.trim();
        const detail = await fetch(`${server.url}/v1/foods/01001`, { headers: { "x-api-key": key } });
        expect(detail.status).toBe(200);
        expect(((await detail.json()) as { name: string }).name).toBe("Butter, salted");
        expect(await (await fetch(`${server.url}/healthz`)).json()).toEqual({ status: "ok" });
      } finally {
        expect(await server.stop("SIGTERM")).toBe(0);
      }
    }
    // The second start found the copies and left them alone.
    expect(copiedAt.slice(2)).toEqual(copiedAt.slice(0, 2));
  });

  // Builds with another catalog share the cache directory: the start of one removes the others' copies
  // (src/catalog/catalog-expand.ts), which servers of the version before may still be answering from.
  test("a server answers details from files held open after another build's start removed them from the cache directory", async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), "foodapi-cache-removed-"));
    const server = await startServer({ args: ["--workers", "2"], env: { FOODAPI_CACHE_DIR: cacheDir } });
    try {
      const key = runBinary(["keys", "create", "--email", "removed@example.com", "--name", "removed"], { cwd: server.cwd }).stdout.trim();
      for (const name of readdirSync(cacheDir)) rmSync(join(cacheDir, name));
      // Each request on a connection of its own, so that both workers answer some.
      const statuses: number[] = [];
      for (const [i, food] of ["01001", "11090", "05006", "09003", "01009", "20081"].entries()) {
        const response = await fetch(`${server.url}/v1/foods/${food}`, { headers: { "x-api-key": key, connection: "close", ...(i % 2 ? { "accept-encoding": "gzip" } : {}) } });
        statuses.push(response.status);
        await response.arrayBuffer();
      }
      expect(statuses).toEqual([200, 200, 200, 200, 200, 200]);
      // The catalog database too (searches, groups, nutrients read it).
      const search = await fetch(`${server.url}/v1/foods?q=cheddar`, { headers: { "x-api-key": key } });
      expect(search.status).toBe(200);
      expect(((await search.json()) as { items: unknown[] }).items.length).toBeGreaterThan(0);
    } finally {
      expect(await server.stop("SIGTERM")).toBe(0);
      rmSync(cacheDir, { recursive: true, force: true });
    }
  });

  test("a missing or foreign --catalog, or a cache directory it cannot write, stops start-up with exit code 1 and says why", () => {
    const dir = mkdtempSync(join(tmpdir(), "foodapi-catalog-"));
    const missing = runBinary(["serve", "--port", "0", "--catalog", join(dir, "nope.sqlite")], { cwd: dir });
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr).toContain("catalog file not found");

    const other = join(dir, "other.sqlite");
    new Database(other).run("CREATE TABLE foods (id INTEGER PRIMARY KEY)");
    const wrong = runBinary(["serve", "--port", "0", "--catalog", other], { cwd: dir });
    expect(wrong.exitCode).toBe(1);
    expect(wrong.stderr).toContain("is not a catalog from this version of 'foodapi import' (no food_groups, nutrients");

    // A cache directory that cannot be created (a file is in the way): the embedded catalog cannot be expanded.
    const blocked = join(dir, "not-a-dir");
    writeFileSync(blocked, "");
    const unwritable = runBinary(["serve", "--port", "0", "--cache-dir", join(blocked, "cache")], { cwd: dir });
    expect(unwritable.exitCode).toBe(1);
    expect(unwritable.stderr).toContain("cannot expand the embedded catalog into");
    expect(unwritable.stderr).toContain("--cache-dir");
  });

  test("started from a temporary directory, it answers an authenticated search and stops cleanly on SIGTERM", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "foodapi-e2e-"));
    const server = await startServer({ cwd });
    let key = "";
    try {
      // In the data directory the server made (./data of the same working directory).
      const created = runBinary(["keys", "create", "--email", "Dev@Example.com", "--name", "laptop"], { cwd });
      expect(created.exitCode).toBe(0);
      key = created.stdout.trim();
      expect(created.stdout).toBe(`${key}\n`);
      expect(key).toMatch(/^fnk_[1-9A-HJ-NP-Za-km-z]{33}$/);
      expect(created.stderr).toContain(`data directory ${join(cwd, "data")}`);
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const search = await fetch(`${server.url}/v1/foods?q=cheddar&limit=5`, { headers: { "x-api-key": key } });
      expect(search.status).toBe(200);
      const body = (await search.json()) as { items: { name: string }[]; total: number };
      expect(body.items).toHaveLength(5);
      expect(body.items.every((item) => /cheddar/i.test(item.name))).toBe(true);

      const health = await fetch(`${server.url}/healthz`);
      expect(await health.json()).toEqual({ status: "ok" });

      // The uniform 401 over a real socket: status, body and headers but Date and the request's own id.
      const shapes = await Promise.all(
        ([{}, { "x-api-key": "fnk_bad" }, { "x-api-key": `fnk_${"z".repeat(33)}` }, { authorization: "Bearer a.b" }] as Record<string, string>[]).map(async (headers) => {
          const response = await fetch(`${server.url}/v1/foods/01001`, { headers });
          return { status: response.status, body: await response.text(), headers: [...response.headers].filter(([n]) => n !== "date" && n !== "x-request-id") };
        }),
      );
      expect(shapes[0]!.status).toBe(401);
      for (const shape of shapes) expect(shape).toEqual(shapes[0]!);
    } finally {
      expect(await server.stop("SIGTERM")).toBe(0);
    }
    expect(server.stderr()).toContain("stopped");

    // One JSON access-log line per request, with the key id and never the key.
    const lines = await server.stdoutLines();
    expect(lines.length).toBe(6);
    const entries = lines.map((line) => JSON.parse(line));
    // Workers write their own lines, so the order across them is not the request order.
    expect(entries.find((e) => e.path === "/v1/foods")).toMatchObject({
      method: "GET", path: "/v1/foods", status: 200, ip: "127.0.0.1", keyId: expect.stringMatching(/^key_/),
    });
    expect(lines.join("\n")).not.toContain(key);
    expect(lines.join("\n")).not.toContain("fnk_");
  });

  test("SIGINT also stops it with exit code 0", async () => {
    const server = await startServer();
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    expect(await server.stop("SIGINT")).toBe(0);
  });

  test("argon2, which Bun writes out of the binary to TMPDIR to load it, is loaded once the server listens; a TMPDIR where it cannot load is named at start", async () => {
    const scratch = mkdtempSync(join(tmpdir(), "foodapi-scratch-"));
    const server = await startServer({ args: ["--workers", "1"], env: { TMPDIR: scratch } });
    try {
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      // The password is hashed at sign-up and checked at sign-in.
      const account = { email: "first@example.com", password: "first password" };
      expect((await fetch(`${server.url}/api/auth/sign-up/email`, jsonPost({ ...account, name: "First" }))).status).toBe(200);
      expect((await fetch(`${server.url}/api/auth/sign-in/email`, jsonPost(account))).status).toBe(200);
      expect((await fetch(`${server.url}/api/auth/sign-in/email`, jsonPost({ ...account, password: "wrong password" }))).status).toBe(401);
      expect(readdirSync(scratch).some((name) => name.endsWith(".node"))).toBe(true);
    } finally {
      expect(await server.stop()).toBe(0);
    }
    // /proc takes no file: the server still answers, and says at start, in one line, why passwords will fail.
    const unusable = await startServer({ args: ["--workers", "1"], env: { TMPDIR: "/proc" } });
    try {
      expect((await fetch(`${unusable.url}/healthz`)).status).toBe(200);
      const [line] = await unusable.waitForStderr(/^foodapi: passwords cannot be hashed or checked \(argon2 did not load: .*TMPDIR must be writable and allow executables$/m);
      expect(line).toContain("sign-up and sign-in answer 500 until it can");
    } finally {
      expect(await unusable.stop()).toBe(0);
    }
  });

  test("an invalid setting stops start-up with exit code 2 and names the setting", () => {
    for (const [args, env, name] of [
      [["serve", "--port", "abc"], {}, "--port"],
      [["serve"], { FOODAPI_FREE_LIMIT: "5/xyz" }, "FOODAPI_FREE_LIMIT"],
      [["serve", "--auth-limit", "ten"], {}, "--auth-limit"],
    ] as const) {
      const result = runBinary([...args], { env });
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toContain(name);
    }
  });

  test("`foodapi version` names the commit and catalog it was built from, and when", () => {
    const head = Bun.spawnSync(["git", "rev-parse", "--short=12", "HEAD"], { cwd: ROOT }).stdout.toString().trim();
    const id = readFileSync(join(ROOT, "dist/catalog.id"), "utf8").trim();
    const version = runBinary(["version"]);
    expect(version.exitCode).toBe(0);
    expect(version.stdout).toMatch(new RegExp(`^foodapi \\d+\\.\\d+\\.\\d+ \\(commit ${head}(-dirty)?, catalog ${id}, built \\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ\\)\\n$`));
  });

  test("version, help and an unknown command", () => {
    expect(runBinary(["version"]).stdout).toMatch(/^foodapi \d+\.\d+\.\d+ \(/);
    const help = runBinary(["--help"]);
    expect(help.exitCode).toBe(0);
    expect(help.stdout).toContain("foodapi import");
    const unknown = runBinary(["frobnicate"]);
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toContain("unknown command");
  });

  test("keys create refuses a bad e-mail with exit code 2", () => {
    const result = runBinary(["keys", "create", "--email", "nope", "--name", "x"]);
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe("");
  });
});
