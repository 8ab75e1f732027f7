/**
 * Random identifiers and secrets, their hashes, and the constant-time comparison of secrets. Web Crypto and
 * Bun's hashers, not node:crypto, which costs a start that loads it ~5 ms (docs/performance.md, "The later start").
 */

const BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

/** `bytes` random bytes in base58 (no 0/O/I/l to misread). 16 bytes = 128 bits. */
export function randomBase58(bytes: number): string {
  let value = BigInt(`0x${randomHex(bytes)}`);
  let out = "";
  while (value > 0n) {
    out = BASE58[Number(value % 58n)] + out;
    value /= 58n;
  }
  // Fixed length, so that a short draw does not make a shorter (and recognisable) secret.
  return out.padStart(base58Length(bytes), BASE58[0]);
}

/** How many characters `randomBase58(bytes)` always has. */
export const base58Length = (bytes: number): number => Math.ceil((bytes * 8) / Math.log2(58));

/** `bytes` random bytes in hex. */
export function randomHex(bytes: number): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(bytes))).toString("hex");
}

/** HMAC-SHA-256 of `data` under `key`. */
export function hmacSha256(key: string, data: string, encoding: "hex" | "base64url"): string {
  return new Bun.CryptoHasher("sha256", key).update(data).digest(encoding);
}

/** A prefixed public identifier such as `key_3Xy...`. */
export function newId(prefix: string): string {
  return `${prefix}_${randomBase58(12)}`;
}

/** Bun's one-shot hash: a third of node:crypto's createHash cost, and it runs on every API request. */
export function sha256Hex(text: string): string {
  return Bun.SHA256.hash(text, "hex");
}

/**
 * Compares two secret-derived strings (hashes, signatures) without an early exit on the first difference.
 * Only the length may leak, and it is public (fixed per kind). No allocation: it runs on every request.
 */
export function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}
