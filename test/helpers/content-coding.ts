import { brotliDecompressSync, gunzipSync, zstdDecompressSync } from "node:zlib";

const ZSTD_MAGIC = [0x28, 0xb5, 0x2f, 0xfd];
const GZIP_MAGIC = [0x1f, 0x8b];

/**
 * A body as its `Content-Encoding` says, decoded with node:zlib (not the code that encoded it). An
 * in-process answer comes as sent; fetch over a socket has decoded its own already, so bytes that do not
 * start like the coding (zstd and gzip have magic numbers) are taken as decoded.
 */
export function decodeContent(coding: string | null, bytes: Uint8Array): Uint8Array {
  switch (coding) {
    case null:
      return bytes;
    case "zstd":
      return ZSTD_MAGIC.every((byte, i) => bytes[i] === byte) ? zstdDecompressSync(bytes) : bytes;
    case "gzip":
      return GZIP_MAGIC.every((byte, i) => bytes[i] === byte) ? gunzipSync(bytes) : bytes;
    case "br":
      try {
        return brotliDecompressSync(bytes);
      } catch {
        return bytes;
      }
    default:
      throw new Error(`unexpected Content-Encoding: ${coding}`);
  }
}
