/**
 * Reading SR28's original ASCII files: windows-1252 text, CRLF lines (the last one may lack it), fields
 * separated by `^`, text fields wrapped in `~`. Every problem is reported with the file and line number.
 */

export class Sr28FormatError extends Error {
  constructor(
    readonly file: string,
    readonly line: number | null,
    problem: string,
  ) {
    super(line === null ? `${file}: ${problem}` : `${file}:${line}: ${problem}`);
    this.name = "Sr28FormatError";
  }
}

export interface Sr28File {
  readonly name: string;
  readonly fieldCount: number;
}

export const SR28_FILES = {
  foodGroups: { name: "FD_GROUP.txt", fieldCount: 2 },
  foods: { name: "FOOD_DES.txt", fieldCount: 14 },
  nutrients: { name: "NUTR_DEF.txt", fieldCount: 6 },
  derivations: { name: "DERIV_CD.txt", fieldCount: 2 },
  nutrientValues: { name: "NUT_DATA.txt", fieldCount: 18 },
  portions: { name: "WEIGHT.txt", fieldCount: 7 },
  footnotes: { name: "FOOTNOTE.txt", fieldCount: 5 },
} as const satisfies Record<string, Sr28File>;

const windows1252 = new TextDecoder("windows-1252");

const CR = 13;
const CARET = 94;
const TILDE = 126;
const NUMBER = /^-?(\d+\.?\d*|\.\d+)$/;
const DIGITS = /^\d+$/;
const ONLY_LINE_ENDS = /^[\r\n]*$/;

/**
 * Reads one file's original bytes (as a Sr28Source reads them) row by row: `while (rows.next())`, then the
 * typed views read the current row's fields. NUT_DATA has 679,045 rows of 18 fields, of which the importer
 * keeps 6: splitting every row into strings made 12 million of them and took half the import's time. A row
 * is therefore only located (where each field starts and ends) and a field becomes a string when read.
 */
export function readSr28File(file: Sr28File, bytes: Uint8Array): Sr28Rows {
  return new Sr28Rows(file, windows1252.decode(bytes));
}

/** A cursor over a file's rows with typed views of the current row's fields; each failure names the file, line and SR28 field. */
export class Sr28Rows {
  /** The current row's 1-based line number (0 before the first `next()`). */
  line = 0;
  /** Where the line after the current one starts. */
  private rest = 0;
  private readonly starts: Int32Array;
  private readonly ends: Int32Array;

  constructor(
    private readonly file: Sr28File,
    private readonly content: string,
  ) {
    this.starts = new Int32Array(file.fieldCount);
    this.ends = new Int32Array(file.fieldCount);
  }

  /** How far through the file the current row is, from 0 to 1. */
  get progress(): number {
    return this.content.length === 0 ? 1 : this.rest / this.content.length;
  }

  /** Moves to the next row; false after the last. Only the end of the file may be blank (a final CRLF). */
  next(): boolean {
    const { content } = this;
    const start = this.rest;
    if (start < content.length) {
      const newline = content.indexOf("\n", start);
      let end = newline === -1 ? content.length : newline;
      this.rest = end + 1;
      while (end > start && content.charCodeAt(end - 1) === CR) end--;
      this.line++;
      if (end > start) {
        this.locateFields(start, end);
        return true;
      }
      if (!ONLY_LINE_ENDS.test(content.slice(this.rest))) this.fail(null, "blank line in the middle of the file");
      this.rest = content.length;
      this.line--;
    }
    if (this.line === 0) throw new Sr28FormatError(this.file.name, null, "file is empty");
    return false;
  }

  private locateFields(start: number, end: number): void {
    const { content, starts, ends } = this;
    // One pass over the characters: an indexOf call per field costs ten times as much on NUT_DATA.
    let count = 0;
    let from = start;
    for (let at = start; at <= end; at++) {
      if (at < end && content.charCodeAt(at) !== CARET) continue;
      if (count < starts.length) {
        let first = from;
        let last = at;
        if (content.charCodeAt(first) === TILDE && first < last) {
          if (last - first < 2 || content.charCodeAt(last - 1) !== TILDE) {
            this.fail(null, `unterminated ~text~ field: ${content.slice(first, Math.min(last, first + 40))}`);
          }
          first++;
          last--;
        }
        starts[count] = first;
        ends[count] = last;
      }
      count++;
      from = at + 1;
    }
    if (count !== starts.length) this.fail(null, `expected ${starts.length} fields separated by '^', found ${count}`);
  }

  private fail(field: string | null, problem: string): never {
    throw new Sr28FormatError(this.file.name, this.line, field === null ? problem : `${field} ${problem}`);
  }

  /** The field at `index` of the current row, with its `~` quoting removed. */
  field(index: number): string {
    return this.content.slice(this.starts[index]!, this.ends[index]!);
  }

  text(index: number, field: string): string {
    const value = this.field(index);
    if (value === "") this.fail(field, "is empty");
    return value;
  }

  optionalText(index: number): string | null {
    return this.field(index) || null;
  }

  /** A code of exactly `digits` digits, such as NDB_No (5) or FdGrp_Cd (4). */
  digits(index: number, field: string, digits: number): string {
    const value = this.field(index);
    if (value.length !== digits || !DIGITS.test(value)) this.fail(field, `'${value}' is not a ${digits}-digit code`);
    return value;
  }

  /** A code that must name a row of a file read before: `defined` holds that file's codes. */
  reference(code: string, field: string, defined: ReadonlySet<string>, definedIn: string): string {
    if (!defined.has(code)) this.fail(field, `'${code}' is not defined in ${definedIn}`);
    return code;
  }

  number(index: number, field: string): number {
    const value = this.optionalNumber(index, field);
    if (value === null) this.fail(field, "is empty");
    return value;
  }

  optionalNumber(index: number, field: string): number | null {
    const value = this.field(index);
    if (value === "") return null;
    if (!NUMBER.test(value)) this.fail(field, `'${value.slice(0, 40)}' is not a number`);
    return Number(value);
  }
}
