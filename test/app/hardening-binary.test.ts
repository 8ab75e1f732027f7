import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runBinary, startServer, type RunningServer } from "../helpers/binary";
import { rawHttp } from "../helpers/raw-http";

/**
 * Hardening regressions (design §14) against the compiled binary: what only a real socket can send
 * (no Host, a short Host, a huge declared body) and what only a real process shows (its memory).
 */
let server: RunningServer;
let key: string;
const cacheDir = mkdtempSync(join(tmpdir(), "foodapi-cache-"));
beforeAll(async () => {
  const args = ["--workers", "1", "--cache-dir", cacheDir, "--auth-limit", "4/1m", "--free-limit", "1000000/1h", "--client-ip-header", ""];
  // The very first start of a build copies the catalog out of the binary, and the pages it read stay
  // resident in that process (~45 MB): the memory test measures a server as it usually runs.
  const first = await startServer({ args });
  await first.stop();
  server = await startServer({ args });
  key = runBinary(["keys", "create", "--email", "h@example.com", "--name", "h"], { cwd: server.cwd }).stdout.trim();
});
afterAll(async () => {
  expect(await server.stop()).toBe(0);
  rmSync(cacheDir, { recursive: true, force: true });
});

const post = (target: string, headers: string, body = "{}") =>
  `POST ${target} HTTP/1.1\r\n${headers}Content-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`;

describe("routing on the real path", () => {
  test("sign-in limits hold whatever the Host header and trailing slash; a prefixed path is not sign-in", async () => {
    const prefixed = await rawHttp(server.url, post("/anything/api/auth/sign-in/email", "Host: x\r\n"));
    expect(prefixed.status).toBe(404);
    const statuses = [];
    for (const request of [
      post("/api/auth/sign-in/email", "Host: x\r\n"),
      post("/api/auth/sign-in/email/", "Host: 127.0.0.1\r\n"),
      // No Host at all: Bun then hands over the bare request target.
      post("/api/auth/sign-in/email", "").replace("HTTP/1.1", "HTTP/1.0"),
      post("/api/auth/sign-in/email", "Host: a/b\r\n"),
      post("/api/auth/sign-in/email", "Host: y\r\n"),
    ]) {
      statuses.push((await rawHttp(server.url, request)).status);
    }
    expect(statuses).toEqual([400, 400, 400, 400, 429]);
    // One worker logs in order: once the last of them (the 429) is logged, so are the four before it.
    const lastLogged = (entries: Record<string, any>[]) => entries.some((e) => e.status === 429 && e.path.startsWith("/api/auth/sign-in/email"));
    const lines = (await server.stdoutLines(lastLogged)).map((line) => JSON.parse(line));
    const logged = lines.filter((line) => line.path.includes("sign-in")).map((line) => [line.path, line.ip]);
    expect(logged.slice(-5).every(([path, ip]) => path.startsWith("/api/auth/sign-in/email") && ip === "127.0.0.1")).toBe(true);
  });
});

describe("answers the runtime could give before the app", () => {
  test("a huge declared body is the JSON 413, logged, without the body being read", async () => {
    const started = performance.now();
    const answer = await rawHttp(
      server.url,
      "POST /api/auth/sign-up/email HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: 99999999999\r\nConnection: close\r\n\r\n{",
    );
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toEqual({ code: "PAYLOAD_TOO_LARGE", message: "Request bodies are limited to 16384 bytes." });
    expect(answer.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(performance.now() - started).toBeLessThan(2000);
    const logged = (entries: Record<string, any>[]) => entries.some((e) => e.status === 413 && e.path === "/api/auth/sign-up/email");
    expect(logged((await server.stdoutLines(logged)).map((line) => JSON.parse(line)))).toBe(true);
  });

  test("what Bun refuses itself (docs/api.md, Errors: unknown method, malformed line, oversized headers) leaves the server serving", async () => {
    const refused = [
      await rawHttp(server.url, "FOO / HTTP/1.1\r\nHost: a\r\n\r\n", 1000),
      await rawHttp(server.url, "garbage\r\n\r\n", 1000),
      await rawHttp(server.url, `GET /v1/meta HTTP/1.1\r\nHost: a\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`, 1000),
      await rawHttp(server.url, "GET / HTTP/9.9\r\nHost: a\r\n\r\n", 1000),
    ];
    // None of them is a 2xx or a 5xx from the app; the runtime's own answers are listed in docs/api.md.
    expect(refused.map((r) => r.status)).toEqual([0, 400, 431, 505]);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });
});

describe("memory under junk queries", () => {
  test("100,000 searches with distinct junk q and group values keep the worker under 150 MB", async () => {
    const rss = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${server.process.pid}/status`, "utf8"))![1]) / 1024;
    const junk = (i: number) => `${i.toString(36)}zq${"x".repeat(i % 64)}`;
    const total = 100_000;
    const concurrency = 64;
    const deadline = Date.now() + 120_000;
    let next = 0;
    let peak = 0;
    const statuses = new Map<number, number>();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < total && Date.now() < deadline) {
          const i = next++;
          // Junk names (valid, matching nothing), junk groups up to ~2 KB, distinct pages of a name that
          // matches (mostly past its last page), and 5,000 distinct pages and sizes that all list foods (answers
          // that are cached, bounded by bytes, and pushed out again and again).
          const query = [
            `q=${junk(i)}`,
            `group=${junk(i).repeat(1 + (i % 30))}`,
            `q=a&page=${i}`,
            `q=a&limit=${1 + (i % 100)}&page=${1 + (Math.floor(i / 100) % 50)}`,
          ][i % 4];
          const response = await fetch(`${server.url}/v1/foods?${query}`, { headers: { "x-api-key": key } });
          await response.arrayBuffer();
          statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
          if (i % 5000 === 0) peak = Math.max(peak, rss());
        }
      }),
    );
    peak = Math.max(peak, rss());
    expect(next).toBe(total);
    expect(statuses.get(200)).toBe(total);
    console.log(`peak worker RSS over ${total} junk searches: ${peak.toFixed(0)} MB`);
    expect(peak).toBeLessThan(150);
  }, 180_000);
});
