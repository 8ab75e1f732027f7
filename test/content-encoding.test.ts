import { describe, expect, test } from "bun:test";
import { acceptsZstd } from "../src/http/content-encoding";

describe("acceptsZstd", () => {
  test.each([
    ["zstd", true],
    ["gzip, deflate, br, zstd", true],
    ["ZSTD;q=0.5", true],
    ["zstd ; q=1.0, gzip", true],
    ["zstd;q=0", false],
    ["zstd;q=0.000", false],
    ["gzip, br", false],
    ["x-zstd", false],
    ["*", false],
    ["", false],
  ])("%p -> %p", (header, expected) => {
    expect(acceptsZstd(header)).toBe(expected);
  });

  test("no header: no", () => expect(acceptsZstd(null)).toBe(false));
});
