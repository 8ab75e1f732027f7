import type { Database } from "bun:sqlite";
import { closeSync, fstatSync, openSync, readSync, writeSync } from "node:fs";
import { ANSWER_FORMS, type AnswerForm } from "./store";

/**
 * The answers file: every food's `GET /v1/foods/{n}` answer, ready to send, as JSON and in each stored
 * coding, in one flat file that every worker maps (Bun.mmap). A coded detail is then a view of the mapping
 * and a plain one a read into a reused buffer: no decompression or allocation of its bytes per request, and
 * the pages are the kernel's page cache, shared by every worker rather than copied into each (design §9 and
 * §18; figures in docs/performance.md).
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

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** Little-endian u32 words as this machine's. */
function littleEndianWords(bytes: Uint8Array): Uint32Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return Uint32Array.from({ length: bytes.byteLength / 4 }, (_, i) => view.getUint32(i * 4, true));
}

/** Food numbers are five digits: a food's slot is its number. */
const SLOTS = 100_000;

export class AnswerFileInvalid extends Error {}

/** The number of foods in the answers file open as `fd`, once its header and length are those of this version's file. */
function checkedHeader(fd: number, path: string): { count: number } {
  const invalid = (why: string) => new AnswerFileInvalid(`${path} is not an answers file of this version (${why})`);
  let head: Uint8Array;
  let fileBytes: number;
  try {
    fileBytes = fstatSync(fd).size;
    head = new Uint8Array(HEADER_BYTES);
    if (readSync(fd, head, 0, HEADER_BYTES, 0) < HEADER_BYTES) throw invalid("no header");
  } catch (error) {
    if (error instanceof AnswerFileInvalid) throw error;
    throw new AnswerFileInvalid(`cannot read ${path} (${(error as Error).message})`);
  }
  if (Buffer.from(head.subarray(0, 16)).toString("latin1") !== MAGIC) throw invalid("no header");
  const fields = new DataView(head.buffer);
  if (fields.getUint32(16, true) !== VERSION) throw invalid(`version ${fields.getUint32(16, true)}`);
  const count = fields.getUint32(20, true);
  if (Number(fields.getBigUint64(24, true)) !== fileBytes) throw invalid("its length is not the one its header says");
  if (HEADER_BYTES + count * ENTRY_WORDS * 4 > fileBytes) throw invalid("its index is longer than the file");
  return { count };
}

/** A food's entry in the file (from its slot in `entryOf`, which holds entry + 1), or -1 for no such food. */
const entryIn = (entryOf: Int32Array, foodId: number): number => (foodId >= 0 && foodId < SLOTS ? entryOf[foodId]! - 1 : -1);

/** `length` bytes of `fd` at `offset` read into the start of `buffer` (pread until done or the file's end): the part read. */
export function readInto(fd: number, buffer: Uint8Array<ArrayBuffer>, offset: number, length: number): Uint8Array<ArrayBuffer> {
  let done = 0;
  while (done < length) {
    const got = readSync(fd, buffer, done, length - done, offset + done);
    if (got === 0) break;
    done += got;
  }
  return buffer.subarray(0, done);
}

/**
 * A name that opens the file behind `fd`, even once it is removed: Bun.mmap takes a path, not a descriptor.
 * Where the system has no such name, the path itself.
 */
function openFilePath(fd: number, path: string): string {
  if (process.platform === "linux") return `/proc/self/fd/${fd}`;
  if (process.platform === "darwin") return `/dev/fd/${fd}`;
  return path;
}

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
 * An answers file, mapped. Slots by food id (400 KB of this process's own memory) point into the index, which
 * stays in the mapping with the answers. Mapped private (copy-on-write): nothing this process does can
 * change the file under another worker. The file is never truncated or rewritten while it may be mapped (a
 * new one is renamed over it), which is what makes mapping it safe; and it is held open from the start, so
 * that a start of another version removing it from a shared cache directory (catalog-expand.ts) leaves this
 * process its file, mapped or not yet.
 */
export class AnswerFile {
  private mapped:
    | { bytes: (offset: number, length: number) => Uint8Array<ArrayBuffer>; index: Uint32Array; entryOf: Int32Array }
    | undefined;
  private readonly etags: (string | undefined)[];
  private readonly fd: number;
  /** Where plain answers are read (readPlain): 64 KB holds all of SR28's. */
  private plainBuffer = new Uint8Array(64 * 1024);

  /**
   * Opens the file and checks its header and length now, so that a bad file stops the start; maps it at
   * first use, with `map` (a platform where it throws reads each answer from the file instead).
   */
  constructor(
    private readonly path: string,
    private readonly map: (path: string) => Uint8Array = (file) => Bun.mmap(file, { shared: false }),
  ) {
    try {
      this.fd = openSync(path, "r");
    } catch (error) {
      throw new AnswerFileInvalid(`cannot read ${path} (${(error as Error).message})`);
    }
    try {
      this.etags = new Array(checkedHeader(this.fd, path).count);
    } catch (error) {
      closeSync(this.fd);
      throw error;
    }
  }

  /**
   * The mapping and its index, made at the first answer asked for rather than at start: mapping the file
   * makes JavaScriptCore count it as heap (young-collection.ts), which a start that serves no detail need
   * not pay for. The index is a view of the mapping on a little-endian machine (every platform the binary is
   * built for). A damaged entry cannot make a read leave the file (a subarray stops at the mapping's end);
   * it would only send wrong bytes, which the length check and the rename into place make unlikely.
   */
  private open() {
    if (this.mapped) return this.mapped;
    const bytes = this.mappedOrRead();
    const count = this.etags.length;
    const indexBytes = bytes(HEADER_BYTES, count * ENTRY_WORDS * 4);
    const index = LITTLE_ENDIAN ? new Uint32Array(indexBytes.buffer, indexBytes.byteOffset, count * ENTRY_WORDS) : littleEndianWords(indexBytes);
    const entryOf = new Int32Array(SLOTS);
    for (let i = 0; i < count; i++) {
      const id = index[i * ENTRY_WORDS + ID_FIELD]!;
      if (id < SLOTS && entryOf[id] === 0) entryOf[id] = i + 1;
    }
    this.mapped = { bytes, index, entryOf };
    return this.mapped;
  }

  /**
   * Bytes of the file: views of the mapping, or, where mapping fails (Bun.mmap is not on every platform the
   * binary is built for), each read from the file (readBytes).
   */
  private mappedOrRead(): (offset: number, length: number) => Uint8Array<ArrayBuffer> {
    try {
      const map = this.map(openFilePath(this.fd, this.path)) as Uint8Array<ArrayBuffer>;
      return (offset, length) => map.subarray(offset, offset + length);
    } catch {
      return this.readBytes;
    }
  }

  /** `length` bytes at `offset`, read into a buffer of their own, from the page cache. */
  private readonly readBytes = (offset: number, length: number): Uint8Array<ArrayBuffer> =>
    readInto(this.fd, Buffer.allocUnsafeSlow(length) as Uint8Array<ArrayBuffer>, offset, length);

  /**
   * `length` bytes at `offset`, read into the one buffer this file reuses for them (grown when an answer is
   * longer). Plain JSON is read so rather than viewed in the mapping: a Response copies its body when it is
   * made, so reading costs one pread more than copying from the mapping, and the 137 MB of JSON never enters
   * a worker's resident set (design §18). The bytes are the caller's until its next answer.
   */
  private readonly readPlain = (offset: number, length: number): Uint8Array<ArrayBuffer> => {
    if (this.plainBuffer.byteLength < length) this.plainBuffer = new Uint8Array(Math.max(length, 2 * this.plainBuffer.byteLength));
    return readInto(this.fd, this.plainBuffer, offset, length);
  };

  /** Closes the file; a mapping made stays valid for as long as it is referenced. */
  close(): void {
    closeSync(this.fd);
  }

  /** How many foods it holds. */
  get size(): number {
    return this.etags.length;
  }

  /**
   * A food's answer as `form` with its entity-tag base; undefined for no such food. A coded form is a view of
   * the mapping; the JSON is read into a buffer this file reuses, so it must be used (sent: a Response copies
   * it; parsed; copied) before the next answer is asked for.
   */
  answer(foodId: number, form: AnswerForm): { etag: string; body: Uint8Array<ArrayBuffer> } | undefined {
    const { bytes, index, entryOf } = this.open();
    const entry = entryIn(entryOf, foodId);
    if (entry < 0) return undefined;
    const field = entry * ENTRY_WORDS + FORM_FIELD[form];
    const read = form === "identity" ? this.readPlain : bytes;
    return { etag: this.etagOf(entry, bytes, index), body: read(index[field]!, index[field + 1]!) };
  }

  /** A food's entity-tag base alone (all a 304 needs), nothing read of its answer; undefined for no such food. */
  etag(foodId: number): string | undefined {
    const { bytes, index, entryOf } = this.open();
    const entry = entryIn(entryOf, foodId);
    return entry < 0 ? undefined : this.etagOf(entry, bytes, index);
  }

  /** An entry's entity-tag base, decoded on first use and kept (a string per food asked for: ~30 bytes). */
  private etagOf(entry: number, bytes: (offset: number, length: number) => Uint8Array, index: Uint32Array): string {
    let etag = this.etags[entry];
    if (etag === undefined) {
      const tag = bytes(index[entry * ENTRY_WORDS + ETAG_FIELD]!, index[entry * ENTRY_WORDS + ETAG_FIELD + 1]!);
      etag = Buffer.from(tag.buffer, tag.byteOffset, tag.byteLength).toString("latin1");
      this.etags[entry] = etag;
    }
    return etag;
  }
}
