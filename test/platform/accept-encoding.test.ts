import { describe, expect, test } from "bun:test";
import { chooseCoding } from "../../src/platform/http/accept-encoding";
import { entityTag, etagBase, ifNoneMatchHits } from "../../src/platform/http/etag";

describe("chooseCoding: Accept-Encoding with q-values", () => {
  test.each([
    ["zstd", "zstd"],
    ["gzip", "gzip"],
    ["br", "br"],
    // Browsers list several at q=1: the server's order (zstd, br, gzip) decides.
    ["gzip, deflate, br, zstd", "zstd"],
    ["gzip, deflate, br", "br"],
    ["ZSTD;q=0.5", "zstd"],
    ["zstd;q=0.5, gzip", "gzip"],
    ["zstd;q=0.5, br;q=0.9, gzip;q=0.1", "br"],
    ["zstd ; q=1.0, gzip", "zstd"],
    ["zstd;q=0, gzip;q=0.2", "gzip"],
    ["zstd;q=0.000", "identity"],
    ["gzip;q=0.5, identity", "identity"],
    ["identity;q=0.1, gzip;q=0.5", "gzip"],
    ["*", "zstd"],
    ["*;q=0.5, gzip", "gzip"],
    ["*;q=0", "identity"],
    ["deflate, compress", "identity"],
    ["x-zstd, x-gzip", "identity"],
    ["gzip;q=2", "identity"],
    ["gzip;q=abc, br", "br"],
    ["", "identity"],
    [",,;", "identity"],
  ] as [string, string][])("%p -> %p", (header, expected) => {
    expect<string>(chooseCoding(header)).toBe(expected);
    // The memo of recent headers answers the same.
    expect<string>(chooseCoding(header)).toBe(expected);
  });

  test("no header: identity", () => expect(chooseCoding(null)).toBe("identity"));
  test("only what is offered", () => expect(chooseCoding("br, gzip;q=0.5", ["zstd", "gzip"])).toBe("gzip"));
});

describe("entity tags", () => {
  test("the same bytes give the same tag, other bytes another", () => {
    expect(etagBase('{"a":1}')).toBe(etagBase(new TextEncoder().encode('{"a":1}')));
    expect(etagBase('{"a":1}')).not.toBe(etagBase('{"a":2}'));
  });

  test("each coding is its own tag; If-None-Match compares the answer (weakly)", () => {
    const base = etagBase("x");
    expect(entityTag(base, "identity")).toBe(`"${base}"`);
    expect(entityTag(base, "gzip")).toBe(`"${base}-gzip"`);
    for (const header of [`"${base}"`, `"${base}-zstd"`, `W/"${base}-br"`, `"other", "${base}-gzip"`, "*"]) expect(ifNoneMatchHits(header, base)).toBe(true);
    for (const header of [`"${base}x"`, `${base}`, `"x${base}"`, `"${base}-deflate"`, '""', ""]) expect(ifNoneMatchHits(header, base)).toBe(false);
    expect(ifNoneMatchHits(null, base)).toBe(false);
  });
});
