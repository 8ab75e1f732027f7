import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { type RunningServer, startServer } from "../helpers/binary";
import { rawFetch } from "../helpers/contract-fetch";
import { forgetChild, trackChild } from "../helpers/hygiene";
import { ROOT } from "../helpers/paths";
import { rawHttp } from "../helpers/raw-http";
import { readStream } from "../helpers/wait";
import { MAX_HEAD_BYTES, RUNTIME_MAX_HEAD_BYTES } from "../../src/platform/http/head-limit";

/**
 * Slow and idle clients (design §10) on the compiled binary: 1,000 connections held open and silent do
 * not keep a normal client waiting, and the server closes them after --idle-timeout. Both processes get a
 * raised file-descriptor limit (a bash `ulimit -n` before exec): 1,000 sockets each, and more.
 */

const IDLE_SECONDS = 2;
const CONNECTIONS = 1000;
const TRICKLING = 100;
/** Raises the soft fd limit as far as the hard one allows (up to 4096), then runs the command. */
const WITH_FDS = ["bash", "-c", 'ulimit -n "$(( $(ulimit -Hn) < 4096 ? $(ulimit -Hn) : 4096 ))" 2>/dev/null; exec "$@"', "bash"];

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ args: ["--workers", "1", "--idle-timeout", String(IDLE_SECONDS)], prefix: WITH_FDS });
});
afterAll(async () => {
  await server?.stop();
});

test(`${CONNECTIONS} idle connections and ${TRICKLING} trickling ones: a normal request is answered within 1 s; the idle ones are closed after --idle-timeout, the trickling ones by Bun's header deadline`, async () => {
  const { hostname, port } = new URL(server.url);
  const clients = trackChild(
    Bun.spawn([...WITH_FDS, process.execPath, join(ROOT, "test/helpers/idle-clients.ts"), hostname, port, String(CONNECTIONS), String(TRICKLING)], {
      stdin: "pipe",
      stdout: "pipe",
      stderr: "pipe",
    }),
  );
  try {
    const out = readStream(clients.stdout);
    const opened = await out.until((text) => /\{"open":.*\}/.exec(text)?.[0], 30_000, "the connections to open");
    expect(JSON.parse(opened)).toEqual({ open: CONNECTIONS + TRICKLING, answered: CONNECTIONS, closedAlready: 0 });

    const started = performance.now();
    const response = await rawFetch(`${server.url}/v1/meta`, { signal: AbortSignal.timeout(5_000) });
    const ms = performance.now() - started;
    expect(response.status).toBe(200);
    expect(ms).toBeLessThan(1_000);

    const closedMs = async (group: string) =>
      JSON.parse(await out.until((text) => new RegExp(`\\{"group":"${group}","closedMs":\\d+\\}`).exec(text)?.[0], 30_000, `the server to close the ${group} ones`)).closedMs as number;
    // Closed by the idle timeout: not before it, and well before Bun's own 10 s (Bun checks idle sockets
    // every 4 s, so 2 s reads as 2 to 4 s).
    const idle = await closedMs("idle");
    expect(idle).toBeGreaterThanOrEqual(IDLE_SECONDS * 1000 - 500);
    expect(idle).toBeLessThan(IDLE_SECONDS * 1000 + 4_500);
    // A byte every 500 ms does not keep an unfinished request open: Bun closes it about 10 s after it began.
    const trickle = await closedMs("trickle");
    expect(trickle).toBeLessThan(15_000);
    // And the server serves on.
    expect((await rawFetch(`${server.url}/healthz`)).status).toBe(200);
  } finally {
    clients.stdin.end();
    clients.kill();
    await clients.exited;
    forgetChild(clients);
  }
}, 60_000);

const manyHeaders = (count: number, valueBytes: number) => Array.from({ length: count }, (_, i) => `X-H${i}: ${"c".repeat(valueBytes)}\r\n`).join("");

test("a request head over 16 KiB is the JSON 431 (HEADERS_TOO_LARGE), up to Bun's raised 64 KiB; past that Bun's bodiless 431 and the connection closed; the server serves on", async () => {
  const head = (big: number) => `GET /v1/meta HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(big)}\r\nConnection: close\r\n\r\n`;
  // Just under the app's limit (the request line and the other headers take the rest): served.
  const under = await rawHttp(server.url, head(MAX_HEAD_BYTES - 200));
  expect(under.status).toBe(200);
  // Over it, in one header or in many: the API's error shape, logged like any answer.
  for (const text of [head(MAX_HEAD_BYTES + 1), `GET /v1/foods?q=${"b".repeat(MAX_HEAD_BYTES)} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`, `GET /v1/meta HTTP/1.1\r\nHost: x\r\n${manyHeaders(150, 120)}Connection: close\r\n\r\n`]) {
    const refused = await rawHttp(server.url, text);
    expect(refused.status).toBe(431);
    expect(refused.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(JSON.parse(refused.body)).toEqual({ code: "HEADERS_TOO_LARGE", message: `Request headers, with the request line, are limited to ${MAX_HEAD_BYTES} bytes.` });
  }
  await server.stdoutLines((entries) => entries.filter((entry) => entry.status === 431).length >= 3);
  // Past Bun's own limit: its parser answers before the app, without a body, and closes the connection.
  const huge = await rawHttp(server.url, head(RUNTIME_MAX_HEAD_BYTES + 1000));
  expect(huge.status).toBe(431);
  expect(huge.body).toBe("");
  // So is a head of more than about 200 lines, however short (Bun's parser has a fixed table for them).
  const tooManyLines = await rawHttp(server.url, `GET /v1/meta HTTP/1.1\r\nHost: x\r\n${manyHeaders(250, 1)}Connection: close\r\n\r\n`);
  expect(tooManyLines.status).toBe(431);
  expect(tooManyLines.body).toBe("");
  const normal = await rawHttp(server.url, head(8_000));
  expect(normal.status).toBe(200);
});
