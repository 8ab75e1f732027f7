import { afterAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { loadEvalSet, type EvalLine } from "./eval-set";

// The scorer's arithmetic, seen from outside: score.ts run as a process against a loopback server that
// answers POST /v1/analyze in §16's shape with the set's own expectations and a few planted mistakes.
// A scorer that miscounts would make the matcher's quality claim wrong however good the matcher is.

const SCORER = join(import.meta.dir, "score.ts");
const expected = new Map<string, EvalLine["expect"]>(loadEvalSet("lines").flatMap((recipe) => recipe.lines.map((line) => [line.line, line.expect] as const)));
const lines = [...expected.keys()];
const counted = lines.filter((line) => expected.get(line)!.count);
const notCounted = lines.filter((line) => !expected.get(line)!.count);

// One planted mistake of each kind, on lines chosen by position so that the counts below follow from the set.
const wrongFood = counted[0]!;
const gramsOff = counted[1]!;
const gramsJustWithin = counted[2]!;
const missed = counted[3]!;
const wronglyCounted = notCounted[0]!;

function answer(line: string) {
  const e = expected.get(line)!;
  if (!e.count) {
    if (line === wronglyCounted) return { line, status: "matched", food: { foodNumber: "02047", name: "Salt, table" }, grams: 6, confidence: 0.5, alternatives: [] };
    return { line, status: "unmatched", reason: e.reason, grams: 0 };
  }
  if (line === missed) return { line, status: "unmatched", reason: "food", grams: 0 };
  const food = line === wrongFood ? "99999" : e.foods[0]!;
  const grams = line === gramsOff ? e.grams * 1.2 : line === gramsJustWithin ? e.grams * 1.14 : e.grams;
  return { line, status: "matched", food: { foodNumber: food, name: "a food" }, grams, confidence: 0.9, alternatives: [] };
}

let requests = 0;
let maxLinesInOneRequest = 0;
const server = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  async fetch(request) {
    const url = new URL(request.url);
    if (url.pathname === "/missing/v1/analyze") return Response.json({ code: "NOT_FOUND", message: "No such route." }, { status: 404 });
    if (request.method !== "POST" || url.pathname !== "/v1/analyze" || request.headers.get("x-api-key") !== "fnk_test") return new Response(null, { status: 400 });
    const body = (await request.json()) as { lines: string[] };
    requests++;
    maxLinesInOneRequest = Math.max(maxLinesInOneRequest, body.lines.length);
    return Response.json({ items: body.lines.map(answer), servings: 1, totalGrams: 0, totals: [] });
  },
});
afterAll(() => server.stop(true));

async function runScorer(url: string) {
  const child = Bun.spawn([process.execPath, SCORER, "--url", url, "--key", "fnk_test"], { stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, exitCode] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  return { stdout, stderr, exitCode };
}

describe("score.ts", () => {
  test("counts food accuracy, precision, grams within 15 %, wrongly counted and missed lines, and lists each failure", async () => {
    const { stdout, exitCode } = await runScorer(server.url.origin);
    expect(exitCode).toBe(0);
    const n = counted.length;
    // Counted: every line expected to count but the missed one, plus the wrongly counted one.
    const row = (label: string) => new RegExp(`^  ${label} +(.*)$`, "m").exec(stdout)?.[1];
    // Counted: every line expected to count but the missed one, plus the wrongly counted one.
    expect(row("counted lines \\(answered matched\\)")).toBe(`${n}`);
    expect(row("food accuracy: acceptable food / lines expected to count")).toStartWith(`${n - 2}/${n} =`);
    expect(row("food precision: acceptable food / counted lines")).toStartWith(`${n - 2}/${n} =`);
    expect(row("grams accuracy: within 15 % / lines with an acceptable food")).toStartWith(`${n - 3}/${n - 2} =`);
    expect(row("wrongly counted: expected not to count, answered matched")).toStartWith("1 ");
    expect(row("missed: expected to count, answered unmatched")).toBe("1");
    expect(row("not counted, as expected")).toStartWith(`${notCounted.length - 1}/${notCounted.length} =`);
    expect(stdout).toContain("below the bar");
    expect(stdout).toContain("failures (4)");
    for (const [why, line] of [["wrong food", wrongFood], ["grams off", gramsOff], ["missed", missed], ["wrongly counted", wronglyCounted]] as const) {
      expect(stdout).toMatch(new RegExp(`^  ${why} .*${line.slice(0, 20).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`, "m"));
    }
    expect(stdout).not.toContain(gramsJustWithin.slice(0, 30));
    // §16's limit of 100 lines a request.
    expect(requests).toBe(Math.ceil(lines.length / 100));
    expect(maxLinesInOneRequest).toBeLessThanOrEqual(100);
  }, 30_000);

  test("a missing route is a clear message and exit code 1", async () => {
    const { stderr, exitCode } = await runScorer(`${server.url.origin}/missing`);
    expect(exitCode).toBe(1);
    expect(stderr).toContain("POST /v1/analyze answered 404: the analysis route is not built yet");
  }, 30_000);
});
