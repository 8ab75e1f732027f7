import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

/** Random identifiers and secrets, their hashes, and the constant-time comparison of secrets. */

const BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

/** `bytes` random bytes in base58 (no 0/O/I/l to misread). 16 bytes = 128 bits. */
export function randomBase58(bytes: number): string {
  let value = BigInt(`0x${randomBytes(bytes).toString("hex")}`);
  let out = "";
  while (value > 0n) {
    out = BASE58[Number(value % 58n)] + out;
    value /= 58n;
  }
  // Fixed length, so that a short draw does not make a shorter (and recognisable) secret.
  const length = Math.ceil((bytes * 8) / Math.log2(58));
  return out.padStart(length, BASE58[0]);
}

/** A prefixed public identifier such as `key_3Xy...`. */
export function newId(prefix: string): string {
  return `${prefix}_${randomBase58(12)}`;
}

export function sha256Hex(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

export function constantTimeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
