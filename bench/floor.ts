/**
 * The floor of foodapi's measured routes (decisions §18): a hand-written Bun.serve that does only what a
 * route promises, so that foodapi / floor is foodapi's own cost. Per request it reads the URL and the
 * credential (X-API-Key), hashes the key with SHA-256 and finds it in a Map, counts the request (or a POST's
 * units) in a fixed window in memory, finds the prepared answer (the bytes foodapi sent, gathered by
 * bench/lib/floor-answers.ts), sends it with the headers foodapi sends on that route (its own ETag,
 * Cache-Control, Vary, X-Content-Type-Options, Content-Encoding, a fresh RateLimit, X-Request-Id) and writes
 * a batched access-log line to stdout (src/app/http/access-log.ts, as `serve` does). A POST's body is read and
 * JSON-parsed; the analysis answers with a prepared answer of one of foodapi's real analyses (its work is the
 * computation the floor does not do: see docs/performance.md).
 *
 * Usage: bun bench/floor.ts ANSWERS_DIR   (FLOOR_PORT=0 picks a free port). Loopback only.
 * Prints "floor listening on http://127.0.0.1:PORT" on stderr; SIGTERM/SIGINT flush the log and stop it.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createAccessLog } from "../src/app/http/access-log";
import { sha256Hex } from "../src/platform/security/tokens";
import { answerKey, type FloorIndex, preferredCoding } from "./lib/floor-index";

const dir = process.argv[2];
if (!dir) {
  console.error("floor: usage: bun bench/floor.ts ANSWERS_DIR");
  process.exit(2);
}
const index = JSON.parse(readFileSync(join(dir, "index.json"), "utf8")) as FloorIndex;
const bodies = new Uint8Array(readFileSync(join(dir, "bodies.bin")));

interface Prepared {
  headers: [string, string][];
  body: Uint8Array;
}
const prepare = (entry: FloorIndex["answers"][number]): Prepared => ({ headers: Object.entries(entry.headers), body: bodies.subarray(entry.offset, entry.offset + entry.length) });
const answers = new Map(index.answers.map((entry) => [entry.key, prepare(entry)]));
const analyses = index.analyses.map(prepare);
const keys = new Map(index.keys.map((k) => [k.hash, k.id]));
const { policy, limit, windowSeconds } = index.quota;

/** Fixed-window counters by key id: the window's number and what it has used. */
const used = new Map<string, { window: number; units: number }>();
function count(keyId: string, units: number): { remaining: number; resetSeconds: number } | undefined {
  const nowSeconds = Date.now() / 1000;
  const window = Math.floor(nowSeconds / windowSeconds);
  let entry = used.get(keyId);
  if (!entry || entry.window !== window) used.set(keyId, (entry = { window, units: 0 }));
  if (entry.units + units > limit) return undefined;
  entry.units += units;
  return { remaining: limit - entry.units, resetSeconds: Math.ceil((window + 1) * windowSeconds - nowSeconds) };
}

const prefix = Buffer.from(crypto.getRandomValues(new Uint8Array(6))).toString("hex");
let requests = 0;
const accessLog = createAccessLog((text) => process.stdout.write(text));
let lastMs = 0;
let lastIso = "";
const isoNow = () => {
  const now = Date.now();
  if (now !== lastMs) lastIso = new Date((lastMs = now)).toISOString();
  return lastIso;
};

const refusal = (status: number, code: string, message: string) => ({ headers: [["content-type", "application/json; charset=utf-8"]] as [string, string][], body: new TextEncoder().encode(JSON.stringify({ code, message })), status });

function parsed(text: string): { lines?: unknown[]; foodNumbers?: unknown[] } | undefined {
  try {
    return JSON.parse(text) ?? undefined;
  } catch {
    return undefined;
  }
}

const server = Bun.serve({
  hostname: "127.0.0.1",
  port: Number(process.env.FLOOR_PORT ?? 0),
  async fetch(request, server) {
    const started = performance.now();
    const url = request.url;
    const target = url.slice(url.indexOf("/", url.indexOf("//") + 2));
    const path = target.split("?", 1)[0]!;
    const key = request.headers.get("x-api-key");
    const keyId = key === null ? undefined : keys.get(sha256Hex(key));
    let answer: (Prepared & { status?: number }) | undefined;
    let units = 1;
    if (keyId === undefined) answer = refusal(401, "UNAUTHORIZED", "A valid API key is required.");
    else if (request.method === "POST") {
      const text = await request.text();
      const body = parsed(text);
      if (body === undefined) answer = refusal(400, "INVALID_JSON", "The body is not JSON.");
      else if (path === "/v1/analyze") {
        units = body.lines?.length ?? 1;
        answer = analyses[requests % analyses.length];
      } else {
        units = body.foodNumbers?.length ?? 1;
        answer = answers.get(answerKey("POST", target, text));
      }
    } else answer = answers.get(answerKey("GET", target, preferredCoding(request.headers.get("accept-encoding"))));
    answer ??= refusal(404, "NOT_FOUND", "No prepared answer.");
    const headers = new Headers(answer.headers);
    if (keyId !== undefined && (answer.status ?? 200) === 200) {
      const counted = count(keyId, units);
      if (!counted) answer = refusal(429, "RATE_LIMITED", "Quota exhausted.");
      headers.set("ratelimit-policy", `"${policy}";q=${limit};w=${windowSeconds}`);
      headers.set("ratelimit", `"${policy}";r=${counted?.remaining ?? 0};t=${counted?.resetSeconds ?? windowSeconds}`);
    }
    const requestId = `${prefix}-${(++requests).toString(36)}`;
    headers.set("x-request-id", requestId);
    const status = answer.status ?? 200;
    accessLog.log({ time: isoNow(), method: request.method, path, status, ms: Math.round((performance.now() - started) * 100) / 100, ip: server.requestIP(request)?.address ?? "", keyId: keyId ?? null, requestId });
    return new Response(answer.body, { status, headers });
  },
});
console.error(`floor listening on http://127.0.0.1:${server.port} (${answers.size} answers, ${analyses.length} analyses)`);

const stop = () => {
  accessLog.flush();
  server.stop(true);
  process.exit(0);
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
