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

/** One parsed line: its 1-based number and its fields with the `~` quoting removed. */
export interface Sr28Row {
  readonly line: number;
  readonly fields: readonly string[];
}

/** Parses one file's original bytes (as a Sr28Source reads them). */
export function parseSr28File(file: Sr28File, bytes: Uint8Array): Sr28Row[] {
  const text = windows1252.decode(bytes);
  const lines = text.split("\n");
  const rows: Sr28Row[] = [];
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!.replace(/\r+$/, "");
    if (raw === "") {
      // Only the end of the file may be blank (the final CRLF leaves one empty piece).
      if (lines.slice(i + 1).every((rest) => rest.replace(/\r+$/, "") === "")) break;
      throw new Sr28FormatError(file.name, i + 1, "blank line in the middle of the file");
    }
    rows.push({ line: i + 1, fields: splitFields(raw, file, i + 1) });
  }
  if (rows.length === 0) throw new Sr28FormatError(file.name, null, "file is empty");
  return rows;
}

function splitFields(raw: string, file: Sr28File, line: number): string[] {
  const parts = raw.split("^");
  if (parts.length !== file.fieldCount) {
    throw new Sr28FormatError(file.name, line, `expected ${file.fieldCount} fields separated by '^', found ${parts.length}`);
  }
  return parts.map((part) => {
    if (part.startsWith("~")) {
      if (part.length < 2 || !part.endsWith("~")) throw new Sr28FormatError(file.name, line, `unterminated ~text~ field: ${part.slice(0, 40)}`);
      return part.slice(1, -1);
    }
    return part;
  });
}

const NUMBER = /^-?(\d+\.?\d*|\.\d+)$/;

/** Typed views of one row's fields; each failure names the file, line and SR28 field. */
export class FieldReader {
  constructor(
    private readonly file: Sr28File,
    private readonly row: Sr28Row,
  ) {}

  private fail(field: string, problem: string): never {
    throw new Sr28FormatError(this.file.name, this.row.line, `${field} ${problem}`);
  }

  text(index: number, field: string): string {
    const value = this.row.fields[index]!;
    if (value === "") this.fail(field, "is empty");
    return value;
  }

  optionalText(index: number): string | null {
    return this.row.fields[index] || null;
  }

  /** A code of exactly `digits` digits, such as NDB_No (5) or FdGrp_Cd (4). */
  digits(index: number, field: string, digits: number): string {
    const value = this.row.fields[index]!;
    if (value.length !== digits || !/^\d+$/.test(value)) this.fail(field, `'${value}' is not a ${digits}-digit code`);
    return value;
  }

  number(index: number, field: string): number {
    const value = this.optionalNumber(index, field);
    if (value === null) this.fail(field, "is empty");
    return value;
  }

  optionalNumber(index: number, field: string): number | null {
    const value = this.row.fields[index]!;
    if (value === "") return null;
    if (!NUMBER.test(value)) this.fail(field, `'${value.slice(0, 40)}' is not a number`);
    return Number(value);
  }
}
