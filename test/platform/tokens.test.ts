import { describe, expect, test } from "bun:test";
import { base58Length, randomBase58 } from "../../src/platform/security/tokens";

describe("randomBase58", () => {
  test("every draw has the length base58Length says, short draws padded", () => {
    for (const bytes of [1, 2, 12, 24, 32]) {
      const lengths = new Set(Array.from({ length: 400 }, () => randomBase58(bytes).length));
      expect([...lengths]).toEqual([base58Length(bytes)]);
    }
  });

  test("the length holds every value of the bytes: 24 bytes take 33 base58 characters", () => {
    // 58^32 < 2^192 <= 58^33: a key's secret (keys/service.ts) is 33 characters.
    expect(58n ** 32n < 2n ** 192n && 2n ** 192n <= 58n ** 33n).toBe(true);
    expect(base58Length(24)).toBe(33);
  });

  test("only base58's alphabet (no 0, O, I or l)", () => {
    expect(randomBase58(64)).toMatch(/^[1-9A-HJ-NP-Za-km-z]+$/);
  });
});
