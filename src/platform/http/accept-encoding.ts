/**
 * `Accept-Encoding` negotiation (RFC 9110 §12.5.3): which of the codings an answer is available in the
 * client prefers, by q-value. A coding the header does not name (nor `*`) is not acceptable; `identity` is
 * acceptable unless refused (`identity;q=0`, or `*;q=0` without naming it), and when nothing offered is
 * acceptable the answer goes as identity anyway (the spec's choice: never a 406). Without the header the
 * answer is identity: a client that sends none may not decode anything.
 */
export type Coding = "zstd" | "br" | "gzip";
export type ContentCoding = Coding | "identity";

/** Among equal q-values, the server's order: zstd decodes fastest, brotli is smallest, gzip is everywhere. */
export const CODINGS: readonly Coding[] = ["zstd", "br", "gzip"];

/** An entry's weight: RFC 9110 qvalues, `0` to `1` with at most three decimals; anything else drops the entry. */
const QVALUE = /^q=(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;

interface Weights {
  readonly byCoding: ReadonlyMap<string, number>;
  readonly any: number | undefined;
}

function parse(header: string): Weights {
  const byCoding = new Map<string, number>();
  let any: number | undefined;
  for (const part of header.toLowerCase().split(",")) {
    const [rawName = "", ...params] = part.split(";");
    const name = rawName.trim();
    if (name === "") continue;
    let q = 1;
    let valid = true;
    for (const param of params) {
      const p = param.replaceAll(" ", "").replaceAll("\t", "");
      if (!p.startsWith("q=")) continue;
      if (!QVALUE.test(p)) valid = false;
      else q = Number(p.slice(2));
    }
    if (!valid) continue;
    // A coding named twice keeps its first weight.
    if (name === "*") any ??= q;
    else if (!byCoding.has(name)) byCoding.set(name, q);
  }
  return { byCoding, any };
}

/** The coding to send: the offered one with the highest q above zero (ties by `offered` order), else identity. */
export function chooseCoding(header: string | null, offered: readonly Coding[] = CODINGS): ContentCoding {
  if (header === null || header === "") return "identity";
  let choices = recent.get(offered);
  if (!choices) recent.set(offered, (choices = new Map()));
  const cached = choices.get(header);
  if (cached !== undefined) return cached;
  const { byCoding, any } = parse(header);
  let best: ContentCoding = "identity";
  let bestQ = 0;
  for (const coding of offered) {
    const q = byCoding.get(coding) ?? any ?? 0;
    if (q > bestQ) [best, bestQ] = [coding, q];
  }
  // An explicitly preferred identity wins over a coding the client ranks lower (`gzip;q=0.5, identity`);
  // an identity it does not name has no rank and loses to any acceptable coding.
  const identityQ = byCoding.get("identity");
  if (identityQ !== undefined && identityQ > bestQ) best = "identity";
  if (header.length <= RECENT_HEADER_MAX_CHARS) {
    if (choices.size >= RECENT_MAX) choices.clear();
    choices.set(header, best);
  }
  return best;
}

/**
 * Clients send a handful of distinct headers (`gzip, deflate, br, zstd`, `gzip`...): the choice for the
 * most recent ones is kept per list of codings offered (module constants), so the hot path parses
 * nothing. Bounded by count and by header length.
 */
const recent = new WeakMap<readonly Coding[], Map<string, ContentCoding>>();
const RECENT_MAX = 64;
const RECENT_HEADER_MAX_CHARS = 256;
