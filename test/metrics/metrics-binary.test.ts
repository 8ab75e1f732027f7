import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { obtainTrialToken } from "../helpers/altcha";
import { type RunningServer, runBinary, startServer } from "../helpers/binary";
import { rawFetch } from "../helpers/contract-fetch";
import { MALFORMED_ORIGIN } from "../../src/platform/http/origin-check";
import { type Family, PrometheusParseError, parsePrometheusText, sampleValue } from "../helpers/prometheus";

/**
 * /metrics on the compiled binary with two workers (design §10): one scrape holds both processes'
 * counters, exactly; anything but the right bearer token is the unknown-route 404; no e-mail, key id or
 * IP appears. Also the request ids on answers and access-log lines, --log-level, and what the log says of a
 * refused Origin or Referer.
 */

const TOKEN = "metrics-token-0123456789abcdef";
const EMAIL = "metrics-person@example.com";
const FREE_LIMIT = 50;

let server: RunningServer;
let quiet: RunningServer;
let keyA: string;
let keyB: string;

/** A fresh connection per request, so that the kernel spreads them over both workers. */
const get = (path: string, headers: Record<string, string> = {}) => rawFetch(`${server.url}${path}`, { headers: { connection: "close", ...headers } });

beforeAll(async () => {
  server = await startServer({ args: ["--workers", "2", "--free-limit", `${FREE_LIMIT}/1h`], env: { FOODAPI_METRICS_TOKEN: TOKEN } });
  const dataDir = join(server.cwd, "data");
  const create = (name: string) => {
    const created = runBinary(["keys", "create", "--email", EMAIL, "--name", name, "--data-dir", dataDir]);
    expect(created.exitCode).toBe(0);
    return created.stdout.trim();
  };
  keyA = create("a");
  keyB = create("b");
  quiet = await startServer({ args: ["--workers", "1", "--log-level", "warn"] });
});
afterAll(async () => {
  const [code] = await Promise.all([server?.stop(), quiet?.stop()]);
  // Scraped workers still drain and exit cleanly.
  expect(code).toBe(0);
});

const scrape = async (headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` }) => {
  const response = await get("/metrics", headers);
  return { response, text: await response.text() };
};

describe("the Prometheus text format parser of these tests", () => {
  test("refuses what a scraper would refuse", () => {
    const ok = '# HELP x_total A count.\n# TYPE x_total counter\nx_total{a="1"} 2\n';
    expect(parsePrometheusText(ok).get("x_total")!.samples[0]!.value).toBe(2);
    const broken = [
      ok.slice(0, -1),
      ok.replace('x_total{a="1"} 2\n', 'x_total{a="1"} 2\nx_total{a="1"} 3\n'),
      ok.replace('{a="1"}', '{a="\\x"}'),
      ok.replace(" 2\n", " two\n"),
      `${ok}# TYPE x_total counter\n`,
      '# TYPE h histogram\nh_bucket{le="1"} 3\nh_bucket{le="+Inf"} 2\nh_sum 1\nh_count 2\n',
      '# TYPE h histogram\nh_bucket{le="1"} 1\nh_bucket{le="+Inf"} 2\nh_sum 1\nh_count 3\n',
      "y 1\n",
    ];
    for (const text of broken) expect(() => parsePrometheusText(text)).toThrow(PrometheusParseError);
  });
});

describe("GET /metrics with two workers", () => {
  let families: Map<string, Family>;
  let text: string;
  let trialJti: string;

  beforeAll(async () => {
    const statuses: number[] = [];
    const record = async (response: Promise<Response>) => {
      const settled = await response;
      await settled.arrayBuffer();
      statuses.push(settled.status);
    };
    for (let i = 0; i < 30; i++) await record(get("/v1/foods?q=chicken&limit=5", { "x-api-key": keyA }));
    for (let i = 0; i < 4; i++) await record(get("/v1/foods/99999", { "x-api-key": keyA }));
    for (let i = 0; i < 7; i++) await record(get("/v1/foods?q=chicken", { "x-api-key": "not-a-key" }));
    for (let i = 0; i < 5; i++) await record(get("/v1/foods?q=chicken"));
    // Key B passes its limit by 3: 429s with the free tier's cause.
    for (let i = 0; i < FREE_LIMIT + 3; i++) await record(get("/v1/food-groups", { "x-api-key": keyB }));
    const trial = await obtainTrialToken((path, init) => rawFetch(`${server.url}${path}`, { ...init, headers: { connection: "close", ...(init?.headers as Record<string, string>) } }));
    trialJti = JSON.parse(Buffer.from(trial.token.split(".")[0]!, "base64url").toString()).jti;
    expect(statuses.filter((s) => s === 429)).toHaveLength(3);
    const scraped = await scrape();
    expect(scraped.response.status).toBe(200);
    expect(scraped.response.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
    text = scraped.text;
    families = parsePrometheusText(text);
  });

  const value = (name: string, labels: Record<string, string> = {}) => sampleValue(families, name, labels);

  test("both workers answered, and the scrape holds both", async () => {
    const lines = await server.stdoutLines((entries) => entries.filter((e) => e.path === "/v1/food-groups").length >= FREE_LIMIT + 3);
    const workers = new Set(lines.map((line) => JSON.parse(line).worker));
    expect(workers).toEqual(new Set([0, 1]));
    expect(value("foodapi_workers")).toBe(2);
    for (const worker of ["0", "1"]) {
      expect(value("foodapi_process_resident_memory_bytes", { worker })).toBeGreaterThan(10 * 1024 * 1024);
      expect(value("foodapi_process_heap_used_bytes", { worker })).toBeGreaterThan(0);
    }
  });

  test("requests by route template, method and status, exactly", () => {
    const requests = (route: string, status: string) => value("foodapi_http_requests_total", { route, method: "GET", status });
    expect(requests("/v1/foods", "200")).toBe(30);
    expect(requests("/v1/foods", "401")).toBe(12);
    expect(requests("/v1/foods/:foodNumber", "404")).toBe(4);
    expect(requests("/v1/food-groups", "200")).toBe(FREE_LIMIT);
    expect(requests("/v1/food-groups", "429")).toBe(3);
    expect(requests("/v1/trial-challenge", "200")).toBe(1);
    expect(value("foodapi_http_requests_total", { route: "/v1/trial-token", method: "POST", status: "201" })).toBe(1);
    // No series is labelled by a raw path.
    const routes = new Set(families.get("foodapi_http_requests_total")!.samples.map((s) => s.labels.route));
    expect([...routes].filter((route) => route!.includes("99999"))).toEqual([]);
  });

  test("a latency histogram per route, counting every request", () => {
    expect(value("foodapi_http_request_duration_seconds_count", { route: "/v1/foods" })).toBe(42);
    expect(value("foodapi_http_request_duration_seconds_bucket", { route: "/v1/foods", le: "+Inf" })).toBe(42);
    expect(value("foodapi_http_request_duration_seconds_sum", { route: "/v1/foods" })).toBeGreaterThan(0);
  });

  test("401 and 429 by cause, trial tokens issued, accounts and active keys", () => {
    expect(value("foodapi_unauthorized_total", { route: "/v1/foods", cause: "MISSING" })).toBe(5);
    expect(value("foodapi_unauthorized_total", { route: "/v1/foods", cause: "MALFORMED" })).toBe(7);
    expect(value("foodapi_rate_limited_total", { route: "/v1/food-groups", cause: "RATE_LIMITED" })).toBe(3);
    expect(value("foodapi_trial_tokens_issued_total")).toBe(1);
    expect(value("foodapi_accounts")).toBe(1);
    expect(value("foodapi_active_keys")).toBe(2);
  });

  test("no e-mail, key, key id, token id or IP address in it", async () => {
    const keyIds = (await server.stdoutLines((entries) => entries.some((e) => e.keyId?.startsWith("key_")))).map((line) => JSON.parse(line).keyId).filter(Boolean);
    const secrets = [EMAIL, "metrics-person", keyA, keyB, keyA.slice(0, 12), trialJti, TOKEN, "127.0.0.1", ...new Set(keyIds)];
    for (const secret of secrets) expect(text).not.toContain(secret);
    expect(text).not.toMatch(/key_[1-9A-Za-z]{6}/);
    expect(text).not.toMatch(/\b\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}\b/);
  });

  test("every scrape, whichever worker takes it, shows the whole server (its own scrapes counted exactly)", async () => {
    for (let i = 1; i <= 6; i++) {
      const { response, text: later } = await scrape();
      expect(response.status).toBe(200);
      const scraped = parsePrometheusText(later);
      expect(sampleValue(scraped, "foodapi_workers")).toBe(2);
      expect(sampleValue(scraped, "foodapi_http_requests_total", { route: "/v1/foods", status: "200" })).toBe(30);
      // The first scrape (above) and the i-1 before this one, each counted once it was answered.
      expect(sampleValue(scraped, "foodapi_http_requests_total", { route: "/metrics", status: "200" })).toBe(i);
    }
  });

  test("without the token, with another one or another scheme, or another method: the unknown-route 404", async () => {
    const unknown = await (await get("/no-such-route")).json();
    const attempts = [
      await scrape({}),
      await scrape({ authorization: "Bearer wrong-token-0123456789abcdef" }),
      await scrape({ authorization: `Bearer ${TOKEN}x` }),
      await scrape({ authorization: `Basic ${btoa(`user:${TOKEN}`)}` }),
      await scrape({ authorization: TOKEN }),
      await scrape({ "x-api-key": keyA }),
    ];
    const posted = await rawFetch(`${server.url}/metrics`, { method: "POST", headers: { authorization: `Bearer ${TOKEN}` } });
    for (const { response, text: body } of [...attempts, { response: posted, text: await posted.text() }]) {
      expect(response.status).toBe(404);
      expect(JSON.parse(body)).toEqual(unknown);
    }
  });

  test("a server without a token has no /metrics", async () => {
    const response = await rawFetch(`${quiet.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(response.status).toBe(404);
    expect(((await response.json()) as { code: string }).code).toBe("NOT_FOUND");
  });
});

describe("request ids", () => {
  test("generated when absent, echoed when well formed, replaced when not; on the access-log line", async () => {
    const generated = [await get("/v1/meta"), await get("/v1/meta")].map((r) => r.headers.get("x-request-id")!);
    for (const id of generated) expect(id).toMatch(/^[0-9a-f]{12}-[0-9a-z]+$/);
    expect(generated[0]).not.toBe(generated[1]);

    const proxied = "3f1c2a9e-7d4b-4c1e-9a2f-0b8e5d6c7a10";
    expect((await get("/v1/meta", { "x-request-id": proxied })).headers.get("x-request-id")).toBe(proxied);

    const malformed = ["has spaces in it", "x".repeat(129), '"quoted"', "id\u00e9"];
    const replaced: string[] = [];
    for (const bad of malformed) {
      const id = (await get("/v1/meta", { "x-request-id": bad })).headers.get("x-request-id")!;
      expect(id).not.toBe(bad);
      expect(id).toMatch(/^[0-9a-f]{12}-[0-9a-z]+$/);
      replaced.push(id);
    }
    // An error answer carries one too.
    const notFound = await get("/nope", { "x-request-id": "edge-42" });
    expect(notFound.headers.get("x-request-id")).toBe("edge-42");
    // So does every answer of a data route, which carries it in the headers it builds (once, not twice):
    // a detail, its 304, a 404 and a 401.
    const detail = await get("/v1/foods/01001", { "x-api-key": keyA, "x-request-id": "edge-43" });
    const dataAnswers = [
      detail,
      await get("/v1/foods/01001", { "x-api-key": keyA, "if-none-match": detail.headers.get("etag")!, "x-request-id": "edge-44" }),
      await get("/v1/foods/99999", { "x-api-key": keyA, "x-request-id": "edge-45" }),
      await get("/v1/foods/01001", { "x-request-id": "edge-46" }),
    ];
    expect(dataAnswers.map((r) => [r.status, r.headers.get("x-request-id")])).toEqual([
      [200, "edge-43"],
      [304, "edge-44"],
      [404, "edge-45"],
      [401, "edge-46"],
    ]);

    const wanted = [...generated, proxied, ...replaced, "edge-42", "edge-43", "edge-44", "edge-45", "edge-46"];
    const lines = await server.stdoutLines((entries) => wanted.every((id) => entries.some((e) => e.requestId === id)));
    const logged = lines.map((line) => JSON.parse(line)).filter((entry) => wanted.includes(entry.requestId));
    expect(logged.map((entry) => entry.requestId).sort()).toEqual([...wanted].sort());
    for (const bad of malformed) expect(lines.join("\n")).not.toContain(bad.slice(0, 20));
  });

  test("--log-level warn: no access log, and the answers still carry their request id", async () => {
    const response = await rawFetch(`${quiet.url}/v1/meta`);
    expect(response.status).toBe(200);
    expect(response.headers.get("x-request-id")).toMatch(/^[0-9a-f]{12}-/);
    expect(quiet.stderr()).toMatch(/foodapi \S+ listening on http:\/\/127\.0\.0\.1:\d+ \(1 worker, catalog [0-9a-f]+, data directory \S+, client IP from header cf-connecting-ip, log level warn/);
    await quiet.stop();
    expect(await quiet.stdoutLines()).toEqual([]);
  });
});

describe("the access log", () => {
  test("a refused Origin or Referer is logged as its origin only: never its path or query", async () => {
    const refused: [id: string, headers: Record<string, string>, logged: string][] = [
      ["origin-1", { referer: "https://other.example:8443/reset?token=SECRET-REFERER-TOKEN&password=hunter2#top" }, "INVALID_ORIGIN https://other.example:8443"],
      ["origin-2", { origin: "https://other.example/reset?token=SECRET-ORIGIN-TOKEN" }, "INVALID_ORIGIN https://other.example"],
      ["origin-3", { referer: "not a url/reset?token=SECRET-MALFORMED-TOKEN" }, `INVALID_ORIGIN ${MALFORMED_ORIGIN}`],
    ];
    for (const [id, headers] of refused) {
      const response = await rawFetch(`${server.url}/api/auth/sign-in/email`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-request-id": id, ...headers },
        body: JSON.stringify({ email: EMAIL, password: "whatever it is" }),
      });
      expect([id, response.status]).toEqual([id, 403]);
    }
    const lines = await server.stdoutLines((entries) => refused.every(([id]) => entries.some((e) => e.requestId === id)));
    const entries = lines.map((line) => JSON.parse(line));
    expect(refused.map(([id]) => entries.find((e) => e.requestId === id)?.authFailure)).toEqual(refused.map(([, , logged]) => logged));
    for (const leaked of ["SECRET-", "hunter2", "/reset", "not a url"]) expect(lines.join("\n")).not.toContain(leaked);
  });
});
