/**
 * Content negotiation for answers stored compressed. The catalog keeps each food detail zstd-compressed
 * (~2.3 KB for ~15.6 KB of JSON): a client that accepts zstd gets those bytes as they are, with
 * `Content-Encoding: zstd`; any other gets them decoded. Either way the answer varies by Accept-Encoding.
 */
export interface ZstdJson {
  readonly zstd: Uint8Array;
  decoded(): Uint8Array | string;
}

export function isZstdJson(body: unknown): body is ZstdJson {
  return typeof body === "object" && body !== null && "zstd" in body;
}

/** Whether an Accept-Encoding value lists zstd with a weight above zero (`gzip, zstd`, `zstd;q=0.5`). */
export function acceptsZstd(header: string | null): boolean {
  const value = header?.toLowerCase();
  if (value === undefined || !value.includes("zstd")) return false;
  for (const part of value.split(",")) {
    const [coding = "", ...params] = part.split(";");
    if (coding.trim() !== "zstd") continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    return q === undefined || Number(q.slice(2)) > 0;
  }
  return false;
}
