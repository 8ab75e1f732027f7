import { describe, expect, test } from "bun:test";
import { parseAnalyzeBody, parseSuggestQuery } from "../../src/analysis/request";
import { ApiError } from "../../src/platform/http/errors";

/** The checks of the two requests (decisions §16): what passes, and the field each 400 names. */
function refusal(run: () => unknown): { status: number; code: string; message: string } {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return { status: error.status, code: error.code, message: error.message };
    throw error;
  }
  throw new Error("no error");
}

describe("POST /v1/analyze's body", () => {
  test("lines alone: one serving, every nutrient", () => {
    expect(parseAnalyzeBody({ lines: ["1 cup sugar"] })).toEqual({ lines: ["1 cup sugar"], servings: 1, nutrients: undefined, label: false });
  });
  test("servings and nutrients as given (nutrients trimmed, unknown ones kept for the answer to ignore)", () => {
    expect(parseAnalyzeBody({ lines: ["a", "b"], servings: 1000, nutrients: [" 208", "999"] })).toEqual({ lines: ["a", "b"], servings: 1000, nutrients: ["208", "999"], label: false });
    expect(parseAnalyzeBody({ lines: ["a"], label: true }).label).toBe(true);
  });
  test("1 to 100 lines; each 1 to 200 code points after trimming", () => {
    expect(parseAnalyzeBody({ lines: Array(100).fill("1 egg") }).lines.length).toBe(100);
    expect(parseAnalyzeBody({ lines: [`  ${"é".repeat(200)}  `] }).lines.length).toBe(1);
    // 200 code points that are 400 UTF-16 units.
    expect(parseAnalyzeBody({ lines: ["😀".repeat(200)] }).lines.length).toBe(1);
  });
  test.each([
    [null, "body"],
    [[], "body"],
    ["lines", "body"],
    [{}, "lines"],
    [{ lines: [] }, "lines"],
    [{ lines: "1 egg" }, "lines"],
    [{ lines: Array(101).fill("1 egg") }, "lines"],
    [{ lines: ["1 egg", 5] }, "lines.1"],
    [{ lines: ["1 egg", "   "] }, "lines.1"],
    [{ lines: [""] }, "lines.0"],
    [{ lines: ["x".repeat(201)] }, "lines.0"],
    [{ lines: ["😀".repeat(201)] }, "lines.0"],
    [{ lines: ["1 egg"], servings: 0 }, "servings"],
    [{ lines: ["1 egg"], servings: 1001 }, "servings"],
    [{ lines: ["1 egg"], servings: 2.5 }, "servings"],
    [{ lines: ["1 egg"], servings: "4" }, "servings"],
    [{ lines: ["1 egg"], servings: null }, "servings"],
    [{ lines: ["1 egg"], nutrients: "208" }, "nutrients"],
    [{ lines: ["1 egg"], nutrients: [208] }, "nutrients.0"],
    [{ lines: ["1 egg"], serving: 4 }, "serving"],
    [{ lines: ["1 egg"], label: "yes" }, "label"],
    [{ lines: ["1 egg"], label: null }, "label"],
  ])("%p is 400 VALIDATION_ERROR naming %p", (body, field) => {
    const error = refusal(() => parseAnalyzeBody(body));
    expect(error).toMatchObject({ status: 400, code: "VALIDATION_ERROR" });
    expect(error.message.startsWith(`${field}: `)).toBe(true);
  });
});

describe("GET /v1/foods/suggest's query", () => {
  test("q trimmed, limit 10 by default, clamped to 1-20", () => {
    expect(parseSuggestQuery("q=%20chedar%20")).toEqual({ q: "chedar", limit: 10 });
    expect(parseSuggestQuery("q=ch&limit=20")).toEqual({ q: "ch", limit: 20 });
    expect(parseSuggestQuery("q=ch&limit=50")).toEqual({ q: "ch", limit: 20 });
    expect(parseSuggestQuery("q=ch&limit=0")).toEqual({ q: "ch", limit: 1 });
    expect(parseSuggestQuery(`q=${"é".repeat(100)}`).q.length).toBe(100);
  });
  test.each([
    ["", "q"],
    ["q=", "q"],
    ["q=a", "q"],
    ["q=%20a%20", "q"],
    [`q=${"a".repeat(101)}`, "q"],
    ["q=cheese&limit=abc", "limit"],
    ["q=cheese&limit=1.5", "limit"],
  ])("%p is 400 VALIDATION_ERROR naming %p", (search, field) => {
    const error = refusal(() => parseSuggestQuery(search));
    expect(error).toMatchObject({ status: 400, code: "VALIDATION_ERROR" });
    expect(error.message.startsWith(`${field}: `)).toBe(true);
  });
});
