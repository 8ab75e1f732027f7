import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gatherFloorAnswers } from "../../bench/lib/floor-answers";
import { startFloor } from "../../bench/lib/servers";
import { type RunningServer, runBinary, startServer } from "../helpers/binary";

// The floor (bench/floor.ts) is only a floor if it sends what foodapi sends: the same header names, the same
// bytes, the same ETag and caching headers, RateLimit of the same shape. Checked on one search and one detail.

const ROUTES = [
  { target: "/v1/foods?q=chicken&limit=20", coding: "identity" },
  { target: "/v1/foods/01009", coding: "identity" },
  { target: "/v1/foods/01009", coding: "gzip" },
] as const;

let dir: string;
let foodapi: RunningServer;
let floor: Awaited<ReturnType<typeof startFloor>>;
let key: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "foodapi-floor-test-"));
  const cwd = join(dir, "foodapi");
  mkdirSync(cwd);
  foodapi = await startServer({ cwd });
  const created = runBinary(["keys", "create", "--email", "floor@example.com", "--name", "floor"], { cwd });
  expect(created.exitCode).toBe(0);
  key = created.stdout.trim();
  const answers = join(dir, "answers");
  mkdirSync(answers);
  const gathered = await gatherFloorAnswers(
    { url: foodapi.url, key },
    ROUTES.map((r) => ({ method: "GET", ...r })),
    answers,
  );
  floor = await startFloor(answers, gathered.key);
});

afterAll(async () => {
  await floor?.stop();
  await foodapi?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const get = async (url: string, apiKey: string, coding: string) => {
  const response = await fetch(url, { headers: { "x-api-key": apiKey, "accept-encoding": coding }, decompress: false });
  return { status: response.status, headers: response.headers, body: new Uint8Array(await response.arrayBuffer()) };
};

for (const { target, coding } of ROUTES) {
  test(`the floor answers ${target} (${coding}) with foodapi's header names, values and bytes`, async () => {
    const real = await get(`${foodapi.url}${target}`, key, coding);
    const floored = await get(`${floor.url}${target}`, floor.key, coding);
    expect([real.status, floored.status]).toEqual([200, 200]);
    expect([...floored.headers.keys()].sort()).toEqual([...real.headers.keys()].sort());
    for (const name of ["content-type", "content-encoding", "etag", "cache-control", "vary", "x-content-type-options", "content-length"]) {
      expect([name, floored.headers.get(name)]).toEqual([name, real.headers.get(name)]);
    }
    const shape = (value: string | null) => value?.replace(/^[0-9a-f]{12}-[0-9a-z]+$/, "ID").replace(/\d+/g, "N");
    for (const name of ["ratelimit", "ratelimit-policy", "x-request-id"]) expect([name, shape(floored.headers.get(name))]).toEqual([name, shape(real.headers.get(name))]);
    expect(Buffer.from(floored.body).equals(Buffer.from(real.body))).toBe(true);
  });
}

test("the floor refuses a key it does not know, as foodapi does", async () => {
  const refused = await get(`${floor.url}${ROUTES[0].target}`, "fnk_unknown", "identity");
  expect(refused.status).toBe(401);
});
