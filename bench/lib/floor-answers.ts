import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { sha256Hex } from "../../src/platform/security/tokens";
import { answerKey, type Coding, type FloorIndex } from "./floor-index";
import { startFoodapi } from "./servers";

/**
 * The floor's prepared answers (bench/floor.ts), gathered from a running foodapi: the same bytes and headers
 * it sends on each route, so that the floor sends nothing cheaper. Written to a directory as bodies.bin and
 * index.json; the floor accepts one key of its own.
 */

export type FloorRequest =
  | { method: "GET"; target: string; coding: Coding }
  | { method: "POST"; target: string; body: string }
  /** One of the sample analyses the floor sends in turn. */
  | { method: "POST"; target: string; body: string; analysis: true };

/** Set per request by each server: not part of a prepared answer. */
const PER_REQUEST = new Set(["ratelimit", "ratelimit-policy", "x-request-id", "date", "content-length"]);

const CONCURRENCY = 16;

export async function gatherFloorAnswers(source: { url: string; key: string }, requests: FloorRequest[], dir: string): Promise<{ key: string }> {
  const chunks: Uint8Array[] = [];
  let offset = 0;
  const index: FloorIndex = { keys: [], quota: { policy: "", limit: 0, windowSeconds: 0 }, answers: [], analyses: [] };
  const fetchOne = async (r: FloorRequest) => {
    const headers: Record<string, string> = { "X-API-Key": source.key, "accept-encoding": r.method === "GET" ? r.coding : "identity" };
    if (r.method === "POST") headers["content-type"] = "application/json";
    const response = await fetch(`${source.url}${r.target}`, { method: r.method, headers, body: r.method === "POST" ? r.body : undefined, decompress: false });
    const body = new Uint8Array(await response.arrayBuffer());
    if (response.status !== 200) throw new Error(`floor answers: ${r.method} ${r.target}: ${response.status} ${new TextDecoder().decode(body.slice(0, 200))}`);
    const policy = /^"([^"]+)";q=(\d+);w=(\d+)$/.exec(response.headers.get("ratelimit-policy") ?? "");
    if (!policy) throw new Error(`floor answers: ${r.target}: no RateLimit-Policy to copy`);
    index.quota = { policy: policy[1]!, limit: Number(policy[2]), windowSeconds: Number(policy[3]) };
    const kept = Object.fromEntries([...response.headers].filter(([name]) => !PER_REQUEST.has(name)));
    const entry = { key: answerKey(r.method, r.target, r.method === "GET" ? r.coding : r.body), headers: kept, offset, length: body.byteLength };
    chunks.push(body);
    offset += body.byteLength;
    ("analysis" in r ? index.analyses : index.answers).push(entry);
  };
  for (let i = 0; i < requests.length; i += CONCURRENCY) await Promise.all(requests.slice(i, i + CONCURRENCY).map(fetchOne));
  const key = `fnk_floor${Buffer.from(crypto.getRandomValues(new Uint8Array(12))).toString("hex")}`;
  index.keys.push({ hash: sha256Hex(key), id: "key_floor" });
  writeFileSync(join(dir, "bodies.bin"), Buffer.concat(chunks));
  writeFileSync(join(dir, "index.json"), JSON.stringify(index));
  return { key };
}

/**
 * The floor's answers to `requests`, gathered into `dir` from a foodapi (`binary`, one worker) started for
 * it and stopped once they are written: the floor's key, and that foodapi's data directory and key (stopped,
 * so another process may open it).
 */
export async function floorAnswersFrom(binary: string, requests: FloorRequest[], dir: string): Promise<{ key: string; source: { dataDir: string; key: string } }> {
  process.stderr.write(`bench: the floor's ${requests.length} prepared answers, from a running foodapi ... `);
  const source = await startFoodapi(binary, ["--workers", "1"]);
  try {
    const { key } = await gatherFloorAnswers(source, requests, dir);
    process.stderr.write("done\n");
    return { key, source: { dataDir: source.dataDir, key: source.key } };
  } finally {
    await source.stop();
  }
}
