import type { Challenge, Solution } from "altcha-lib";
import type { Clock } from "../platform/clock";

/**
 * altcha-lib, loaded with the first challenge made or checked: it imports node:crypto and node:util, which
 * would otherwise be loaded by every start (~5 ms, docs/performance.md) for a route few requests take.
 */
const altcha = async () => {
  const [{ createChallenge, verifySolution }, { deriveKey }] = await Promise.all([import("altcha-lib"), import("altcha-lib/algorithms/pbkdf2")]);
  return { createChallenge, verifySolution, deriveKey };
};

/**
 * The self-hosted ALTCHA proof of work (v2 protocol). PBKDF2/SHA-256 at cost 5000 with the default key
 * prefix takes a browser a fraction of a second and costs the server one derivation to check.
 */
export const CHALLENGE_LIFETIME_SECONDS = 10 * 60;
const ALGORITHM = "PBKDF2/SHA-256";
const COST = 5000;

export async function newChallenge(hmacSecret: string, clock: Clock): Promise<Challenge> {
  const { createChallenge, deriveKey } = await altcha();
  return createChallenge({
    algorithm: ALGORITHM,
    cost: COST,
    deriveKey,
    hmacSignatureSecret: hmacSecret,
    expiresAt: Math.floor(clock() / 1000) + CHALLENGE_LIFETIME_SECONDS,
  });
}

export type ChallengeCheck =
  | { ok: true; id: string; expiresAt: number }
  | { ok: false; reason: "MALFORMED" | "EXPIRED" | "BAD_SIGNATURE" | "WRONG_SOLUTION" };

interface WidgetPayload {
  challenge: Challenge;
  solution: Solution;
}

/** Checks a widget payload (base64 of `{challenge, solution}`): shape, expiry by our clock, signature, work. */
export async function checkChallengeToken(hmacSecret: string, clock: Clock, challengeToken: string): Promise<ChallengeCheck> {
  const payload = parseWidgetPayload(challengeToken);
  if (!payload) return { ok: false, reason: "MALFORMED" };
  const { parameters } = payload.challenge;
  if (typeof parameters.expiresAt !== "number" || parameters.expiresAt * 1000 <= clock()) return { ok: false, reason: "EXPIRED" };
  if (parameters.algorithm !== ALGORITHM || parameters.cost !== COST) return { ok: false, reason: "MALFORMED" };
  const { verifySolution, deriveKey } = await altcha();
  try {
    const result = await verifySolution({ challenge: payload.challenge, solution: payload.solution, deriveKey, hmacSignatureSecret: hmacSecret });
    if (result.verified) return { ok: true, id: parameters.nonce, expiresAt: parameters.expiresAt * 1000 };
    if (result.expired) return { ok: false, reason: "EXPIRED" };
    return { ok: false, reason: result.invalidSignature ? "BAD_SIGNATURE" : "WRONG_SOLUTION" };
  } catch {
    // verifySolution throws on malformed fields: that is bad input, not a server fault.
    return { ok: false, reason: "MALFORMED" };
  }
}

function parseWidgetPayload(token: string): WidgetPayload | null {
  if (token.length > 4096) return null;
  try {
    const value = JSON.parse(Buffer.from(token, "base64").toString("utf8")) as WidgetPayload;
    const p = value?.challenge?.parameters;
    const s = value?.solution;
    const valid =
      typeof value.challenge.signature === "string" && typeof p?.nonce === "string" && typeof p.salt === "string" &&
      typeof p.keyPrefix === "string" && Number.isInteger(p.keyLength) && Number.isInteger(s?.counter) && typeof s?.derivedKey === "string";
    return valid ? value : null;
  } catch {
    return null;
  }
}
