/** What bench/floor.ts reads: its prepared answers (bodies.bin, sliced by offset), its keys and its quota. */

export interface FloorIndex {
  /** Accepted keys by SHA-256 of the key, as foodapi stores them. */
  keys: { hash: string; id: string }[];
  /** The window every key is counted in: read from foodapi's RateLimit-Policy. */
  quota: { policy: string; limit: number; windowSeconds: number };
  /** By answerKey: foodapi's answer's headers (without RateLimit, X-Request-Id, Date, Content-Length) and its body's bytes. */
  answers: { key: string; headers: Record<string, string>; offset: number; length: number }[];
  /** Real analyses of sample recipes, sent in turn to every POST /v1/analyze. */
  analyses: { key: string; headers: Record<string, string>; offset: number; length: number }[];
}

export type Coding = "zstd" | "gzip" | "identity";

/** The coding a floor sends: zstd, else gzip when the client accepts them (foodapi stores both), else none. q-values are not read. */
export function preferredCoding(acceptEncoding: string | null): Coding {
  if (acceptEncoding === null) return "identity";
  if (acceptEncoding.includes("zstd")) return "zstd";
  if (acceptEncoding.includes("gzip")) return "gzip";
  return "identity";
}

/** A GET's answer by path and coding; a POST's by path and body text. */
export function answerKey(method: "GET" | "POST", target: string, codingOrBody: string): string {
  return `${method} ${target} ${codingOrBody}`;
}
