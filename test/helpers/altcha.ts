import { solveChallenge, type Challenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/pbkdf2";

/** Solves a challenge with altcha-lib's own solver and encodes it as the widget does (base64 JSON). */
export async function solveToWidgetPayload(challenge: Challenge): Promise<string> {
  const solution = await solveChallenge({ challenge, deriveKey, timeout: 30_000 });
  if (!solution) throw new Error("could not solve the challenge");
  return Buffer.from(JSON.stringify({ challenge, solution })).toString("base64");
}

/** Fetches a challenge from `fetcher`, solves it, and redeems it for a trial token. */
export async function obtainTrialToken(fetcher: (path: string, init?: RequestInit) => Promise<Response>, headers: Record<string, string> = {}) {
  const challenge = (await (await fetcher("/v1/trial-challenge", { headers })).json()) as Challenge;
  const challengeToken = await solveToWidgetPayload(challenge);
  const response = await fetcher("/v1/trial-token", {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify({ challengeToken }),
  });
  if (response.status !== 201) throw new Error(`trial token: ${response.status} ${await response.text()}`);
  return (await response.json()) as { token: string; expiresAt: string };
}
