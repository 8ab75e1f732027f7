import type { Database } from "bun:sqlite";
import { closeSync, fstatSync, openSync, writeSync } from "node:fs";
import { ANSWER_FORMS, type AnswerForm } from "./store";

/**
 * The answers file: every food's `GET /v1/foods/{n}` answer, ready to send, as JSON and in each stored
 * coding, in one flat file that every worker maps (Bun.mmap). A detail is then a view of the mapping: no
 * read, copy, decompression or allocation of its bytes per request, and the pages are the kernel's page
 * cache, shared by every worker rather than copied into each (design §9; figures in docs/performance.md).
 *
 * Layout (little-endian), regions in this order so that a client's coding touches only that coding's pages:
 *   header    16-byte magic, then u32 version, u32 foods, u64 file length
 *   index     per food, by food id: u32 words (id, then offset and length of its etag and each form)
 *   etags     each food's entity-tag base (ASCII)
 *   identity  each food's JSON
 *   zstd, gzip  each food's stored forms
 */
const MAGIC = "foodapi answers\n";
const VERSION = 1;
/** How an answers file's name ends: its layout's version, so that a binary never maps another layout. */
export const ANSWER_FILE_SUFFIX = `.v${VERSION}.answers`;
const HEADER_BYTES = 32;
/** A food's index entry: its id, then offset and length of its etag and of each form, in `ANSWER_FORMS` order. */
const ID_FIELD = 0;
const ETAG_FIELD = 1;
const FORM_FIELD = Object.fromEntries(ANSWER_FORMS.map((form, i) => [form, 3 + 2 * i])) as Record<AnswerForm, number>;
const ENTRY_WORDS = 3 + 2 * ANSWER_FORMS.length;

/** Food numbers are five digits: a food's slot is its number. */
const SLOTS = 100_000;

export class AnswerFileInvalid extends Error {}

/**
 * Writes the answers of a catalog's `food_details` (the importer's: etag, zstd, gzip; the JSON is the gzip
 * form inflated) to `path`, a new empty file. Two passes over the rows, one food in memory at a time: the
 * first takes the lengths from SQLite (a gzip member ends with its inflated length), so every offset is
 * known before the second writes each piece in its place.
 */
export function writeAnswerFile(catalog: Database, path: string): void {
  type Sizes = { foodId: number; etag: string; zstd: number; gzip: number; tail: Uint8Array };
  const sizes = catalog
    .query<Sizes, []>("SELECT food_id AS foodId, etag, length(zstd) AS zstd, length(gzip) AS gzip, substr(gzip, -4) AS tail FROM food_details ORDER BY food_id")
    .all();
  const entries = sizes.map((row) => ({
    foodId: row.foodId,
    etag: Buffer.from(row.etag, "latin1"),
    lengths: { identity: new DataView(row.tail.buffer, row.tail.byteOffset, 4).getUint32(0, true), zstd: row.zstd, gzip: row.gzip },
  }));
  const layout = layOut(entries);
  const fd = openSync(path, "r+");
  try {
    const put = (bytes: Uint8Array, at: number) => {
      for (let written = 0; written < bytes.byteLength; ) written += writeSync(fd, bytes, written, bytes.byteLength - written, at + written);
    };
    put(layout.head, 0);
    type Row = { foodId: number; zstd: Uint8Array; gzip: Uint8Array<ArrayBuffer> };
    let i = 0;
    for (const row of catalog.query<Row, []>("SELECT food_id AS foodId, zstd, gzip FROM food_details ORDER BY food_id").iterate()) {
      const forms: Record<AnswerForm, Uint8Array> = { identity: Bun.gunzipSync(row.gzip, { library: "libdeflate" }), zstd: row.zstd, gzip: row.gzip };
      const entry = entries[i]!;
      if (row.foodId !== entry.foodId || forms.identity.byteLength !== entry.lengths.identity) {
        throw new Error(`food_details changed while being read (food ${row.foodId})`);
      }
      put(entry.etag, layout.etagAt[i]!);
      for (const form of ANSWER_FORMS) put(forms[form], layout.offsets[form][i]!);
      i++;
    }
    if (i !== entries.length) throw new Error("food_details changed while being read");
    if (fstatSync(fd).size !== layout.fileBytes) throw new Error("the answers file is not the length its header says");
  } finally {
    closeSync(fd);
  }
}

/** Where every piece goes, and the header and index that say so. */
function layOut(entries: readonly { foodId: number; etag: Uint8Array; lengths: Record<AnswerForm, number> }[]) {
  const count = entries.length;
  let at = HEADER_BYTES + count * ENTRY_WORDS * 4;
  const etagAt = entries.map((entry) => ((at += entry.etag.byteLength), at - entry.etag.byteLength));
  const offsets = {} as Record<AnswerForm, number[]>;
  for (const form of ANSWER_FORMS) offsets[form] = entries.map((entry) => ((at += entry.lengths[form]), at - entry.lengths[form]));
  const head = new Uint8Array(HEADER_BYTES + count * ENTRY_WORDS * 4);
  const view = new DataView(head.buffer);
  head.set(Buffer.from(MAGIC, "latin1"), 0);
  view.setUint32(16, VERSION, true);
  view.setUint32(20, count, true);
  view.setBigUint64(24, BigInt(at), true);
  entries.forEach((entry, i) => {
    const word = (field: number, value: number) => view.setUint32(HEADER_BYTES + (i * ENTRY_WORDS + field) * 4, value, true);
    word(ID_FIELD, entry.foodId);
    word(ETAG_FIELD, etagAt[i]!);
    word(ETAG_FIELD + 1, entry.etag.byteLength);
    for (const form of ANSWER_FORMS) {
      word(FORM_FIELD[form], offsets[form][i]!);
      word(FORM_FIELD[form] + 1, entry.lengths[form]);
    }
  });
  return { head, etagAt, offsets, fileBytes: at };
}

/**
 * An answers file, mapped. The index is read once into slots by food id (~1.2 MB of this process's own
 * memory); the answers stay in the mapping. Mapped private (copy-on-write): nothing this process does can
 * change the file under another worker. The file is never truncated or rewritten while it may be mapped (a
 * new one is renamed over it, and a removed file stays mapped until its readers exit), which is what makes
 * mapping it safe.
 */
export class AnswerFile {
  private readonly map: Uint8Array;
  /** Per slot (food id): its entry's index + 1, 0 for no food. */
  private readonly entryOf = new Int32Array(SLOTS);
  private readonly index: Uint32Array;
  private readonly etags: (string | undefined)[];

  constructor(path: string) {
    let map: Uint8Array;
    try {
      map = Bun.mmap(path, { shared: false });
    } catch (error) {
      throw new AnswerFileInvalid(`cannot map ${path} (${(error as Error).message})`);
    }
    this.map = map;
    const invalid = (why: string) => new AnswerFileInvalid(`${path} is not an answers file of this version (${why})`);
    if (map.byteLength < HEADER_BYTES || Buffer.from(map.subarray(0, 16)).toString("latin1") !== MAGIC) throw invalid("no header");
    const head = new DataView(map.buffer, map.byteOffset, HEADER_BYTES);
    if (head.getUint32(16, true) !== VERSION) throw invalid(`version ${head.getUint32(16, true)}`);
    const count = head.getUint32(20, true);
    if (Number(head.getBigUint64(24, true)) !== map.byteLength) throw invalid("its length is not the one its header says");
    if (HEADER_BYTES + count * ENTRY_WORDS * 4 > map.byteLength) throw invalid("its index is longer than the file");
    // Copied out word by word (whatever this machine's byte order), and every range checked once here, so
    // that a request never reads outside the file.
    const words = new DataView(map.buffer, map.byteOffset + HEADER_BYTES, count * ENTRY_WORDS * 4);
    this.index = new Uint32Array(count * ENTRY_WORDS);
    for (let w = 0; w < this.index.length; w++) this.index[w] = words.getUint32(w * 4, true);
    for (let i = 0; i < count; i++) {
      const id = this.index[i * ENTRY_WORDS + ID_FIELD]!;
      if (id >= SLOTS || this.entryOf[id] !== 0) throw invalid(`food id ${id}`);
      for (const field of [ETAG_FIELD, ...ANSWER_FORMS.map((form) => FORM_FIELD[form])]) {
        const offset = this.index[i * ENTRY_WORDS + field]!;
        if (offset + this.index[i * ENTRY_WORDS + field + 1]! > map.byteLength) throw invalid(`food ${id} lies past its end`);
      }
      this.entryOf[id] = i + 1;
    }
    this.etags = new Array(count);
  }

  /** How many foods it holds. */
  get size(): number {
    return this.etags.length;
  }

  has(foodId: number): boolean {
    return foodId >= 0 && foodId < SLOTS && this.entryOf[foodId] !== 0;
  }

  /** A food's answer as `form` (a view of the mapping) with its entity-tag base; undefined for no such food. */
  answer(foodId: number, form: AnswerForm): { etag: string; body: Uint8Array<ArrayBuffer> } | undefined {
    const entry = foodId >= 0 && foodId < SLOTS ? this.entryOf[foodId]! - 1 : -1;
    if (entry < 0) return undefined;
    const base = entry * ENTRY_WORDS;
    const field = base + FORM_FIELD[form];
    const offset = this.index[field]!;
    return { etag: this.etagOf(entry), body: this.map.subarray(offset, offset + this.index[field + 1]!) as Uint8Array<ArrayBuffer> };
  }

  /** An entry's entity-tag base, decoded on first use and kept (a string per food asked for: ~30 bytes). */
  private etagOf(entry: number): string {
    let etag = this.etags[entry];
    if (etag === undefined) {
      const offset = this.index[entry * ENTRY_WORDS + ETAG_FIELD]!;
      etag = Buffer.from(this.map.buffer, this.map.byteOffset + offset, this.index[entry * ENTRY_WORDS + ETAG_FIELD + 1]!).toString("latin1");
      this.etags[entry] = etag;
    }
    return etag;
  }
}
