import type { Clock } from "../platform/clock";
import { constantTimeEqual, hmacSha256 } from "../platform/security/tokens";

/**
 * Trial tokens: `base64url(JSON payload) "." base64url(HMAC-SHA256(secret, that base64url text))`.
 * Stateless to verify; only their usage count lives in the state database.
 */
export const TRIAL_TOKEN_LIFETIME_SECONDS = 24 * 3600;
export const TRIAL_TOKEN_REQUESTS = 30;
/** "30 requests over 24 hours": the trial token's allowance, in words. */
export const TRIAL_ALLOWANCE = `${TRIAL_TOKEN_REQUESTS} requests over ${TRIAL_TOKEN_LIFETIME_SECONDS / 3600} hours`;

export interface TrialClaims {
  jti: string;
  iat: number;
  exp: number;
  tier: "anon";
}

const sign = (secret: string, payload: string) => hmacSha256(secret, payload, "base64url");

export function issueTrialToken(secret: string, clock: Clock): { token: string; claims: TrialClaims } {
  const iat = Math.floor(clock() / 1000);
  const claims: TrialClaims = { jti: crypto.randomUUID(), iat, exp: iat + TRIAL_TOKEN_LIFETIME_SECONDS, tier: "anon" };
  const payload = Buffer.from(JSON.stringify(claims)).toString("base64url");
  return { token: `${payload}.${sign(secret, payload)}`, claims };
}

export type TrialCheck = { ok: true; claims: TrialClaims } | { ok: false; reason: "MALFORMED" | "BAD_SIGNATURE" | "EXPIRED" };

const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** Canonical base64url only: padding, `+`/`/`, or stray low bits make a different token, so they are refused. */
function decodeCanonical(text: string): Buffer | null {
  if (!BASE64URL.test(text)) return null;
  const bytes = Buffer.from(text, "base64url");
  return bytes.toString("base64url") === text ? bytes : null;
}

export function verifyTrialToken(secret: string, clock: Clock, token: string): TrialCheck {
  const parts = token.split(".");
  if (parts.length !== 2 || token.length > 1024) return { ok: false, reason: "MALFORMED" };
  const [payload, signature] = parts as [string, string];
  const payloadBytes = decodeCanonical(payload);
  if (!payloadBytes || !decodeCanonical(signature)) return { ok: false, reason: "MALFORMED" };
  if (!constantTimeEqual(signature, sign(secret, payload))) return { ok: false, reason: "BAD_SIGNATURE" };
  let claims: unknown;
  try {
    claims = JSON.parse(payloadBytes.toString("utf8"));
  } catch {
    return { ok: false, reason: "MALFORMED" };
  }
  if (!isClaims(claims)) return { ok: false, reason: "MALFORMED" };
  if (claims.exp * 1000 <= clock()) return { ok: false, reason: "EXPIRED" };
  return { ok: true, claims };
}

function isClaims(value: unknown): value is TrialClaims {
  const c = value as Partial<TrialClaims> | null;
  return (
    typeof c === "object" && c !== null && typeof c.jti === "string" && c.jti.length > 0 && c.jti.length <= 64 &&
    Number.isSafeInteger(c.iat) && Number.isSafeInteger(c.exp) && c.tier === "anon"
  );
}
