import { describe, expect, test } from "bun:test";
import { readSr28File, type Sr28File } from "../../src/catalog/import/sr28-format";

// The reader on its own, on small files written here; the importer's use of it on the real release is
// covered by catalog-import.test.ts.
const FILE: Sr28File = { name: "TEST.txt", fieldCount: 4 };
const bytes = (text: string) => new Uint8Array(Buffer.from(text, "latin1"));

function readAll(text: string, file = FILE): string[][] {
  const rows = readSr28File(file, bytes(text));
  const all: string[][] = [];
  while (rows.next()) all.push(Array.from({ length: file.fieldCount }, (_, i) => rows.field(i)));
  return all;
}

const errorOf = (text: string) => {
  try {
    readAll(text);
  } catch (error) {
    return (error as Error).message;
  }
  return "no error";
};

describe("SR28 rows", () => {
  test("fields lose their ~quoting~; numbers and empty fields stay as they are", () => {
    expect(readAll("~01001~^~Butter, salted~^0.85^\r\n~01002~^~~^^12\r\n")).toEqual([
      ["01001", "Butter, salted", "0.85", ""],
      ["01002", "", "", "12"],
    ]);
  });

  test("a last line without CRLF, bare LF lines and trailing blank lines are read", () => {
    expect(readAll("a^b^c^d\ne^f^g^h\r\n\r\n\r\n")).toEqual([["a", "b", "c", "d"], ["e", "f", "g", "h"]]);
    expect(readAll("a^b^c^d\r\ne^f^g^h")).toEqual([["a", "b", "c", "d"], ["e", "f", "g", "h"]]);
  });

  test("windows-1252 bytes are decoded (0x96 is an en dash, 0xE9 é)", () => {
    const rows = readSr28File(FILE, new Uint8Array([0x7e, 0xe9, 0x96, 0x7e, 0x5e, 0x5e, 0x5e]));
    expect(rows.next()).toBe(true);
    expect(rows.field(0)).toBe("é–");
  });

  test("the line number follows the rows and progress reaches 1", () => {
    const rows = readSr28File(FILE, bytes("a^b^c^d\r\ne^f^g^h\r\n"));
    const seen: [number, number][] = [];
    while (rows.next()) seen.push([rows.line, rows.progress]);
    expect(seen.map(([line]) => line)).toEqual([1, 2]);
    expect(seen[0]![1]).toBeGreaterThan(0);
    expect(seen[1]![1]).toBe(1);
  });

  test("typed views name the field and line of a bad value", () => {
    const rows = readSr28File(FILE, bytes("x^y^z^w\r\n12345^0100^1.5^\r\n"));
    rows.next();
    rows.next();
    expect(rows.digits(0, "NDB_No", 5)).toBe("12345");
    expect(rows.number(2, "Nutr_Val")).toBe(1.5);
    expect(rows.optionalNumber(3, "Std_Error")).toBeNull();
    expect(rows.optionalText(3)).toBeNull();
    expect(() => rows.digits(1, "NDB_No", 5)).toThrow("TEST.txt:2: NDB_No '0100' is not a 5-digit code");
    expect(() => rows.number(3, "Gm_Wgt")).toThrow("TEST.txt:2: Gm_Wgt is empty");
    expect(() => rows.text(3, "Msre_Desc")).toThrow("TEST.txt:2: Msre_Desc is empty");
  });

  test.each([
    ["too few fields", "a^b^c^d\r\na^b^c\r\n", "TEST.txt:2: expected 4 fields separated by '^', found 3"],
    ["too many fields", "a^b^c^d^e\r\n", "TEST.txt:1: expected 4 fields separated by '^', found 5"],
    ["an unterminated ~text~", "~a^b^c^d\r\n", "TEST.txt:1: unterminated ~text~ field: ~a"],
    ["a lone ~", "a^b^c^~\r\n", "TEST.txt:1: unterminated ~text~ field: ~"],
    ["a blank line in the middle", "a^b^c^d\r\n\r\na^b^c^d\r\n", "TEST.txt:2: blank line in the middle of the file"],
    ["an empty file", "", "TEST.txt: file is empty"],
    ["a file of blank lines", "\r\n\r\n", "TEST.txt: file is empty"],
  ])("%s is refused with file and line", (_, text, message) => {
    expect(errorOf(text)).toBe(message);
  });
});
