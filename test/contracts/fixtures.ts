import type { Session, User } from "../../src/accounts/store";
import type { ApiKey } from "../../src/keys/store";

/** Records as the services would make them; each call gives distinct ids, hashes and e-mails. */

/** A fixed "now" (epoch ms), so that every time in a check is a plain offset from it. */
export const T0 = Date.parse("2026-05-01T12:00:00Z");

/** Every fixture account's password hash: the stores compare it, nothing verifies a password against it. */
export const PASSWORD_HASH = "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA";
/** SessionStore.insert's bounds for a sign-in to a fixture account, with a bound no check reaches unless it means to. */
export const SIGNED_IN = { whilePasswordHash: PASSWORD_HASH, maxPerAccount: 1000 };

let serial = 0;
const next = () => `${process.pid}-${++serial}`;
const hex = (label: string) => new Bun.CryptoHasher("sha256").update(`${label}:${next()}`).digest("hex");

export function user(overrides: Partial<User> = {}): User {
  const n = next();
  return {
    id: `user-${n}`,
    email: `user-${n}@example.com`,
    name: `User ${n}`,
    emailVerified: false,
    image: null,
    passwordHash: PASSWORD_HASH,
    createdAt: T0,
    updatedAt: T0,
    disabledAt: null,
    ...overrides,
  };
}

export function session(userId: string, overrides: Partial<Session> = {}): Session {
  return {
    id: `session-${next()}`,
    tokenHash: hex("session"),
    userId,
    expiresAt: T0 + 7 * 24 * 3600 * 1000,
    persistent: true,
    ipAddress: "192.0.2.7",
    userAgent: "contract-test/1.0",
    createdAt: T0,
    updatedAt: T0,
    ...overrides,
  };
}

export function apiKey(userId: string, overrides: Partial<ApiKey> = {}): ApiKey {
  const n = next();
  return {
    id: `key-${n}`,
    userId,
    name: `key ${n}`,
    keyPrefix: `fnk_${n.replace("-", "").slice(-8).padStart(8, "0")}`,
    keyHash: hex("key"),
    tier: "free",
    createdAt: T0,
    lastUsedAt: null,
    revokedAt: null,
    ...overrides,
  };
}
