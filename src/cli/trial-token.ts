import { solveChallenge, type Challenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/pbkdf2";
import { CannotStart } from "./errors";

/**
 * `foodapi trial-token [--url URL]`: what the dashboard's widget does, from a shell. Fetches a challenge
 * from a running server, solves it (a fraction of a second), redeems it and prints the token as the only
 * line on stdout, so that `TOKEN=$(foodapi trial-token)` works in scripts and the README.
 */
export async function trialTokenCommand(url: string): Promise<number> {
  const challenge = (await call(url, "/v1/trial-challenge")) as Challenge;
  const solution = await solveChallenge({ challenge, deriveKey, timeout: 60_000 });
  if (!solution) throw new CannotStart("could not solve the trial challenge within a minute");
  const challengeToken = Buffer.from(JSON.stringify({ challenge, solution })).toString("base64");
  const issued = (await call(url, "/v1/trial-token", { challengeToken })) as { token: string; expiresAt: string };
  console.error(`trial token for ${url}: 30 requests until ${issued.expiresAt}`);
  process.stdout.write(`${issued.token}\n`);
  return 0;
}

async function call(url: string, path: string, body?: unknown): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(`${url}${path}`, body === undefined ? {} : { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  } catch (error) {
    throw new CannotStart(`no foodapi answers at ${url} (${(error as Error).message}); start 'foodapi serve' or pass --url`);
  }
  if (response.ok) return response.json();
  const refusal = (await response.json().catch(() => ({}))) as { message?: string };
  const wait = response.headers.get("retry-after");
  throw new CannotStart(`${path}: ${response.status} ${refusal.message ?? response.statusText}${wait ? ` (retry in ${wait} s)` : ""}`);
}
