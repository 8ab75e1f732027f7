import { join } from "node:path";
import { type Challenge, solveChallenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/pbkdf2";
import { ROOT } from "../../test/helpers/paths";
import { track } from "./processes";
import { IMPORT_RUNS } from "./settings";

/** Single figures and what the workloads need from a running server: import time, body sizes, a trial token. */

export async function importTime(): Promise<Record<string, number> & { importSeconds: number }> {
  process.stderr.write(`bench: SR28 import (median of ${IMPORT_RUNS}) ... `);
  const child = track(Bun.spawn(["bash", join(ROOT, "bench/import")], { cwd: ROOT, env: { ...process.env, BENCH_RUNS: String(IMPORT_RUNS) }, stdin: "ignore", stdout: "pipe", stderr: "pipe" }));
  const timer = setTimeout(() => child.kill("SIGKILL"), 300_000);
  const [output, errors, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  clearTimeout(timer);
  const line = output.trim().split("\n").reverse().find((l) => l.startsWith("{"));
  if (code !== 0 || !line) throw new Error(`bench/import failed (exit ${code}): ${errors}${output}`);
  const parsed = JSON.parse(line);
  process.stderr.write(`${parsed.importSeconds} s\n`);
  return parsed;
}

/** Bytes of a response body as sent: `encoding` asks for a content coding (kept, not decoded), else none. */
export async function bodyBytes(url: string, key?: string, encoding = "identity"): Promise<number> {
  const response = await fetch(url, { headers: { "accept-encoding": encoding, ...(key ? { "X-API-Key": key } : {}) }, decompress: false });
  const bytes = (await response.arrayBuffer()).byteLength;
  if (response.status !== 200) throw new Error(`${url}: ${response.status}`);
  return bytes;
}

/** A trial token, as a browser gets one: the ALTCHA challenge solved, then redeemed. */
export async function trialToken(url: string): Promise<string> {
  const challenge = (await (await fetch(`${url}/v1/trial-challenge`)).json()) as Challenge;
  const solution = await solveChallenge({ challenge, deriveKey, timeout: 60_000 });
  if (!solution) throw new Error("could not solve the trial challenge");
  const challengeToken = Buffer.from(JSON.stringify({ challenge, solution })).toString("base64");
  const response = await fetch(`${url}/v1/trial-token`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ challengeToken }) });
  if (response.status !== 201) throw new Error(`trial token: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { token: string }).token;
}
