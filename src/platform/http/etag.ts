import type { ContentCoding } from "./accept-encoding";

/**
 * Entity tags for the data routes' answers. A tag is derived from the answer's identity bytes alone (a
 * 64-bit hash and the length), so the same answer has the same tag after a restart and on every instance
 * of a build, with nothing to share between them. Each content coding is a representation of its own
 * (RFC 9110 §8.8.3): the identity form's tag is `"<base>"`, a coded form's `"<base>-zstd"` and so on, and
 * `If-None-Match` is compared by the base (the weak comparison that header uses), so a client holding any
 * coding of the same answer gets its 304.
 */
export function etagBase(identity: Uint8Array | string): string {
  const length = typeof identity === "string" ? Buffer.byteLength(identity) : identity.byteLength;
  return `${length.toString(36)}-${Bun.hash(identity).toString(36)}`;
}

export function entityTag(base: string, coding: ContentCoding): string {
  return coding === "identity" ? `"${base}"` : `"${base}-${coding}"`;
}

const CODED_SUFFIX = /-(?:zstd|br|gzip)$/;

/** Whether an `If-None-Match` value names the answer whose tag base is `base` (or is `*`). */
export function ifNoneMatchHits(header: string | null, base: string): boolean {
  if (header === null) return false;
  if (!header.includes(base)) return header.trim() === "*";
  for (const raw of header.split(",")) {
    let tag = raw.trim();
    if (tag.startsWith("W/")) tag = tag.slice(2);
    if (tag.length < 2 || !tag.startsWith('"') || !tag.endsWith('"')) continue;
    if (tag.slice(1, -1).replace(CODED_SUFFIX, "") === base) return true;
  }
  return false;
}
