import { chooseCoding, CODINGS, type Coding, type ContentCoding } from "./accept-encoding";
import { headerOf } from "./request-context";

/**
 * JSON answers in the content codings clients accept. An answer is an `EncodedAnswer`: the codings it
 * can be sent in and, for the one negotiated, its entity tag base and bytes. Three kinds exist:
 * - stored forms, compressed when the catalog was built (food details, catalog/service.ts, which makes
 *   their br form once per food, on first demand);
 * - `preparedJson`: compressed once, on first demand per coding, for answers kept in memory (search
 *   pages in the answer cache, the group and nutrient lists);
 * - `perRequestJson`: an answer computed for this request (a portion-scaled detail, a lookup), compressed
 *   with the fastest settings, since it is made for one response.
 * Bodies under 1 KiB go as they are: the codings would save a few hundred bytes for more work than the
 * answer itself.
 */
export interface EncodedAnswer {
  /** The codings available; identity always is. */
  readonly offered: readonly Coding[];
  /** The answer as `coding`: its entity-tag base now, its bytes when asked (a 304 never asks). */
  open(coding: ContentCoding): OpenedAnswer;
}

export interface OpenedAnswer {
  readonly etag: string;
  body(): Uint8Array | string;
}

const COMPRESS_MIN_BYTES = 1024;

/** How hard each coding works: `kept` for answers compressed once and served many times, `oneOff` per request. */
const EFFORT = {
  kept: { zstd: 3, gzip: 6, br: 5 },
  oneOff: { zstd: 1, gzip: 1, br: 1 },
} as const;

export type Effort = keyof typeof EFFORT;

export function compress(text: string | Uint8Array<ArrayBuffer>, coding: Coding, effort: Effort): Uint8Array {
  const level = EFFORT[effort][coding];
  switch (coding) {
    case "zstd":
      return Bun.zstdCompressSync(text, { level });
    case "gzip":
      // libdeflate: at level 1 as small as zlib's level 6 on these answers, in a third of the time.
      return Bun.gzipSync(text, { level, library: "libdeflate" });
    case "br": {
      const { brotliCompressSync, constants } = nodeZlib();
      return brotliCompressSync(text, {
        params: { [constants.BROTLI_PARAM_QUALITY]: level, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT, [constants.BROTLI_PARAM_SIZE_HINT]: byteLength(text) },
      });
    }
  }
}

/**
 * node:zlib, for brotli, at the first br answer: this module runs at every start of a server, so a
 * built-in imported at its top would be loaded by each start, and this one costs milliseconds.
 */
let zlib: typeof import("node:zlib") | undefined;
const nodeZlib = () => (zlib ??= process.getBuiltinModule("node:zlib"));

const byteLength = (body: string | Uint8Array) => (typeof body === "string" ? Buffer.byteLength(body) : body.byteLength);
const offeredFor = (body: string | Uint8Array) => (byteLength(body) < COMPRESS_MIN_BYTES ? [] : CODINGS);

/**
 * An answer kept in memory: each coding is compressed the first time a client asks for it, then kept.
 * A class with its forms made on demand: the answer cache holds thousands of these, and an empty Map and
 * a few closures per entry would weigh more than most of the answers themselves. The JSON is kept as its
 * UTF-8 bytes, encoded once: a Response made from text encodes it again for every request it answers
 * (docs/performance.md, "Kept answers are bytes").
 */
export class PreparedJson implements EncodedAnswer {
  readonly offered: readonly Coding[];
  readonly bytes: Uint8Array<ArrayBuffer>;
  private forms: Partial<Record<Coding, Uint8Array>> | undefined;
  /** Told the size of each form kept, so that a cache holding this answer can count it. */
  onFormKept: ((bytes: number) => void) | undefined;

  constructor(
    json: string,
    readonly etag: string,
  ) {
    this.bytes = utf8.encode(json);
    this.offered = offeredFor(this.bytes);
  }

  open(coding: ContentCoding): OpenedAnswer {
    return { etag: this.etag, body: () => (coding === "identity" ? this.bytes : this.form(coding)) };
  }

  private form(coding: Coding): Uint8Array {
    const kept = this.forms?.[coding];
    if (kept) return kept;
    const form = compress(this.bytes, coding, "kept");
    // JSON this size compresses to a fraction; a form that does not save half is sent but not kept.
    if (form.byteLength <= this.bytes.byteLength / 2) {
      (this.forms ??= {})[coding] = form;
      this.onFormKept?.(form.byteLength);
    }
    return form;
  }
}

const utf8 = new TextEncoder();

export const preparedJson = (json: string, etag: string) => new PreparedJson(json, etag);

/** An answer made for one request: tagged by its bytes, compressed only if it is sent compressed. */
export function perRequestJson(json: string | Uint8Array<ArrayBuffer>, etag: string): EncodedAnswer {
  return {
    offered: offeredFor(json),
    open: (coding) => ({ etag, body: () => (coding === "identity" ? json : compress(json, coding, "oneOff")) }),
  };
}

/** The coding to send `answer` in, for this request's `Accept-Encoding`. */
export function negotiate(request: Request, answer: EncodedAnswer): ContentCoding {
  return answer.offered.length === 0 ? "identity" : chooseCoding(headerOf(request, "accept-encoding"), answer.offered);
}
