import { afterAll, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runBinary, type RunningServer, startServer } from "../helpers/binary";

// The compiled binary over real sockets: an answer's ETag is the same after a restart, and a 304 is
// counted with its RateLimit headers.

const cwd = mkdtempSync(join(tmpdir(), "foodapi-etag-"));
let key = "";
let server: RunningServer | undefined;
afterAll(async () => {
  await server?.stop();
});

const PATHS = ["/v1/foods/01001", "/v1/foods/01009?grams=150", "/v1/foods?q=cheddar", "/v1/food-groups", "/v1/nutrients"];
const CODINGS = ["identity", "zstd", "gzip", "br"];

async function tags(url: string): Promise<string[]> {
  const found: string[] = [];
  for (const path of PATHS) {
    for (const coding of CODINGS) {
      const response = await fetch(`${url}${path}`, { headers: { "x-api-key": key, "accept-encoding": coding }, decompress: false } as RequestInit);
      expect([path, coding, response.status]).toEqual([path, coding, 200]);
      await response.arrayBuffer();
      found.push(`${path} ${coding} ${response.headers.get("etag")}`);
    }
  }
  return found;
}

test("the same answer has the same ETag after a restart of the binary; If-None-Match is a 304, counted", async () => {
  server = await startServer({ cwd });
  // Into the data directory the server made.
  const created = runBinary(["keys", "create", "--email", "etag@example.com", "--name", "etag"], { cwd });
  expect(created.exitCode).toBe(0);
  key = created.stdout.trim();
  const before = await tags(server.url);
  expect(await server.stop()).toBe(0);
  server = await startServer({ cwd });
  const after = await tags(server.url);
  expect(after).toEqual(before);

  for (const path of PATHS) {
    const first = await fetch(`${server.url}${path}`, { headers: { "x-api-key": key } });
    await first.arrayBuffer();
    const left = Number(/r=(\d+)/.exec(first.headers.get("ratelimit")!)![1]);
    const again = await fetch(`${server.url}${path}`, { headers: { "x-api-key": key, "if-none-match": first.headers.get("etag")! } });
    expect([path, again.status]).toEqual([path, 304]);
    expect((await again.arrayBuffer()).byteLength).toBe(0);
    expect(again.headers.get("etag")).toBe(first.headers.get("etag"));
    expect(again.headers.get("ratelimit")).toMatch(new RegExp(`^"free";r=${left - 1};t=\\d+$`));
  }
}, 60_000);
