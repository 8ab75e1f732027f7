import { afterAll, expect, test } from "bun:test";
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cleanup } from "../../bench/lib/processes";
import { startFoodapi } from "../../bench/lib/servers";

// Two builds compared in one bench run must not share a cache directory: each removes the catalog the other
// expanded there, so that every start would expand it again (bench/lib/servers.ts benchCacheDir). Stood in
// for by executables that make a key, serve /healthz and note the --cache-dir they were given.

const dir = mkdtempSync(join(tmpdir(), "foodapi-bench-cache-test-"));

afterAll(() => {
  cleanup();
  rmSync(dir, { recursive: true, force: true });
});

/** An executable answering `keys create` with a key and `serve ... --cache-dir D` by serving, appending D to `<path>.dirs`. */
function fakeBuild(name: string): string {
  const path = join(dir, name);
  writeFileSync(
    path,
    `#!${process.execPath}
import { appendFileSync } from "node:fs";
const arg = (name) => process.argv[process.argv.indexOf(name) + 1];
if (process.argv[2] === "keys") console.log("fnk_fake");
else {
  appendFileSync(${JSON.stringify(`${path}.dirs`)}, arg("--cache-dir") + "\\n");
  const server = Bun.serve({ hostname: arg("--host"), port: 0, fetch: () => new Response("ok") });
  console.error("listening on " + server.url.href.replace(/\\/$/, ""));
}
`,
  );
  chmodSync(path, 0o755);
  return path;
}

const cacheDirsOf = (build: string) => readFileSync(`${build}.dirs`, "utf8").trim().split("\n");

test("each build's servers share one cache directory, and two builds have one each", async () => {
  const builds = [fakeBuild("build-a"), fakeBuild("build-b")];
  for (const build of [...builds, ...builds]) await (await startFoodapi(build, ["--workers", "1"])).stop();
  const [a, b] = builds.map(cacheDirsOf) as [string[], string[]];
  expect([a.length, new Set(a).size, b.length, new Set(b).size]).toEqual([2, 1, 2, 1]);
  expect(a[0]).not.toBe(b[0]!);
});
