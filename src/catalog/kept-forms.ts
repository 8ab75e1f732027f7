/**
 * The br forms of food details made for a client (made once: catalog/service.ts), kept in memory for the
 * next client asking for the same food in br. Each form is copied once into a 1 MB chunk: no
 * object, buffer or allocation per form, so the collector has nothing to walk or free, and memory grows by
 * the forms' bytes alone, at most the catalog's (8,789 answers, ~20 MB a coding). A form is sent as a view of
 * its chunk: the view is the only allocation per request.
 */

/** Food numbers are five digits: a food's slot is its number. */
const SLOTS = 100_000;
const CHUNK_BYTES = 1024 * 1024;

export class KeptForms {
  private readonly chunks: Uint8Array<ArrayBuffer>[] = [];
  /**
   * Three numbers per slot: the chunk holding the form + 1 (0: not kept), its offset there, its length. Made
   * with the first form kept, not at start: most servers never make a br form.
   */
  private slots: Int32Array | undefined;
  private free = 0;

  get(foodId: number): Uint8Array<ArrayBuffer> | undefined {
    const chunk = this.slots?.[foodId * 3];
    if (!chunk) return undefined;
    const offset = this.slots![foodId * 3 + 1]!;
    return this.chunks[chunk - 1]!.subarray(offset, offset + this.slots![foodId * 3 + 2]!);
  }

  /** Keeps a copy of `form` for `foodId` (once: a food's form never changes while served); returns the form. */
  keep(foodId: number, form: Uint8Array): Uint8Array {
    if (foodId < 0 || foodId >= SLOTS) return form;
    const slots = (this.slots ??= new Int32Array(SLOTS * 3));
    if (slots[foodId * 3]) return form;
    let last = this.chunks.at(-1);
    if (last === undefined || this.free < form.byteLength) {
      // What is left of the last chunk goes unused: a form never spans two chunks.
      last = new Uint8Array(Math.max(CHUNK_BYTES, form.byteLength));
      this.chunks.push(last);
      this.free = last.byteLength;
    }
    const offset = last.byteLength - this.free;
    last.set(form, offset);
    this.free -= form.byteLength;
    slots.set([this.chunks.length, offset, form.byteLength], foodId * 3);
    return form;
  }

  /** The bytes held (whole chunks), for a test of the bound. */
  get bytes(): number {
    return this.chunks.reduce((total, chunk) => total + chunk.byteLength, 0);
  }
}
