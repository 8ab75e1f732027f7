/**
 * Scores POST /v1/analyze (decisions §16) against the evaluation set beside this file:
 *
 *   bun test/analysis/eval/score.ts [--set lines|held-out|all] [--url http://127.0.0.1:PORT --key fnk_…]
 *
 * Without --url it starts the compiled binary (dist/foodapi) on a free loopback port with a fresh data
 * directory, issues itself a key with `foodapi keys create`, and stops the server afterwards. It prints the
 * food and grams accuracy and a table of the lines that failed. It measures and does not gate: it exits 0
 * whenever it could score, whatever the scores; 1 when the route is missing or answers out of contract, or
 * the server cannot be reached; 2 for a usage error or a missing binary.
 *
 * The held-out set is for the final measurement only: its failure table shows the lines, and looking at
 * them while tuning the matcher spends the set (README.md).
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { Subprocess } from "bun";
import { MAX_BODY_BYTES } from "../../../src/platform/http/body-limit";
import { spawnListening } from "../../helpers/listening";
import { BINARY_PATH, ROOT } from "../../helpers/paths";
import { expectedGramsFor, loadEvalSet, SET_NAMES, type CountedLine, type EvalLine, type SetName } from "./eval-set";

/** §16: one request analyses 1-100 lines. */
const MAX_LINES_PER_REQUEST = 100;
/** The issue's grams bar: within 15 % of what SR28's portions give. */
const GRAMS_TOLERANCE = 0.15;
/** The issue's bar for food precision and grams accuracy. */
const BAR = 0.9;

class ScoreError extends Error {
  constructor(
    message: string,
    readonly exitCode: 1 | 2,
  ) {
    super(message);
  }
}

interface AnalyzedItem {
  line: string;
  status: "matched" | "unmatched";
  reason?: string;
  food?: { foodNumber: string; name: string } | null;
  grams?: number;
}

interface ScoredLine {
  set: SetName;
  recipe: string;
  line: EvalLine;
  answer: AnalyzedItem;
}

interface Target {
  url: string;
  key: string;
  stop(): Promise<void>;
}

function parseCommandLine(): { sets: SetName[]; url?: string; key?: string } {
  let values: { set?: string; url?: string; key?: string; help?: boolean };
  try {
    ({ values } = parseArgs({ options: { set: { type: "string" }, url: { type: "string" }, key: { type: "string" }, help: { type: "boolean", short: "h" } } }));
  } catch (error) {
    throw new ScoreError(`${(error as Error).message}\n${USAGE}`, 2);
  }
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const set = values.set ?? "lines";
  if (set !== "all" && !(SET_NAMES as readonly string[]).includes(set)) throw new ScoreError(`--set is lines, held-out or all, not '${set}'\n${USAGE}`, 2);
  if ((values.url === undefined) !== (values.key === undefined)) throw new ScoreError(`--url and --key go together\n${USAGE}`, 2);
  return { sets: set === "all" ? [...SET_NAMES] : [set as SetName], url: values.url?.replace(/\/+$/, ""), key: values.key };
}

const USAGE = "usage: bun test/analysis/eval/score.ts [--set lines|held-out|all] [--url http://127.0.0.1:PORT --key fnk_…]";

/** The compiled binary on a free loopback port, with a throwaway data directory and a key of its own. */
async function startBinary(): Promise<Target> {
  if (!existsSync(BINARY_PATH)) throw new ScoreError(`no binary at ${BINARY_PATH}: build it first (bash build.sh)`, 2);
  const dir = mkdtempSync(join(tmpdir(), "foodapi-eval-"));
  const dataDir = join(dir, "data");
  // As the binary tests run it: nothing of the developer's FOODAPI_* settings, and the catalog expanded once per checkout.
  const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? "/tmp", XDG_CACHE_HOME: join(ROOT, "dist", "test-cache") };
  let child: Subprocess | undefined;
  const stop = async () => {
    if (child && child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM");
      await child.exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const serve = [BINARY_PATH, "serve", "--host", "127.0.0.1", "--port", "0", "--data-dir", dataDir, "--workers", "1", "--free-limit", "1000000/1h", "--log-level", "warn"];
    const listening = await spawnListening(serve, { cwd: dir, env, stdout: "ignore", timeoutMs: 60_000, what: "foodapi serve", track: (c) => (child = c) });
    const made = Bun.spawnSync([BINARY_PATH, "keys", "create", "--data-dir", dataDir, "--email", "eval@example.com", "--name", "evaluation"], { cwd: dir, env, stdout: "pipe", stderr: "pipe" });
    if (made.exitCode !== 0) throw new ScoreError(`foodapi keys create failed (exit ${made.exitCode}): ${made.stderr.toString().trim()}`, 1);
    return { url: listening.url, key: made.stdout.toString().trim(), stop };
  } catch (error) {
    await stop();
    throw error instanceof ScoreError ? error : new ScoreError(`the server could not start: ${(error as Error).message}`, 1);
  }
}

/** The lines in requests of at most 100 lines and 16 KiB, in order. */
function batches(lines: string[]): string[][] {
  const out: string[][] = [];
  let batch: string[] = [];
  for (const line of lines) {
    const next = [...batch, line];
    if (batch.length > 0 && (next.length > MAX_LINES_PER_REQUEST || requestBody(next).length > MAX_BODY_BYTES)) {
      out.push(batch);
      batch = [line];
    } else batch = next;
  }
  if (batch.length > 0) out.push(batch);
  return out;
}

// Energy alone keeps the answers small: the scores need the foods and grams, not the totals.
const requestBody = (lines: string[]) => new TextEncoder().encode(JSON.stringify({ lines, nutrients: ["208"] }));

async function analyze(target: Target, lines: string[]): Promise<AnalyzedItem[]> {
  const items: AnalyzedItem[] = [];
  for (const batch of batches(lines)) {
    let response: Response;
    try {
      response = await fetch(`${target.url}/v1/analyze`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": target.key },
        body: requestBody(batch),
        signal: AbortSignal.timeout(60_000),
      });
    } catch (error) {
      throw new ScoreError(`POST ${target.url}/v1/analyze failed: ${(error as Error).message}`, 1);
    }
    const text = await response.text();
    if (response.status === 404) throw new ScoreError("POST /v1/analyze answered 404: the analysis route is not built yet", 1);
    if (response.status !== 200) throw new ScoreError(`POST /v1/analyze answered ${response.status}: ${text.slice(0, 300)}`, 1);
    const answer = JSON.parse(text) as { items?: AnalyzedItem[] };
    const answered = answer.items ?? [];
    if (answered.length !== batch.length || answered.some((item, i) => item.line !== batch[i] || (item.status !== "matched" && item.status !== "unmatched"))) {
      throw new ScoreError(`POST /v1/analyze did not answer one item per line, in order, with a status (decisions §16): ${text.slice(0, 300)}`, 1);
    }
    items.push(...answered);
  }
  return items;
}

interface Tally {
  lines: number;
  expectedToCount: number;
  counted: number;
  foodOk: number;
  gramsOk: number;
  wronglyCounted: number;
  missed: number;
  notCountedAgreeing: number;
  notCountedReasonAgreeing: number;
}

interface Failure {
  scored: ScoredLine;
  why: "wrong food" | "grams off" | "missed" | "wrongly counted";
  expected: string;
  got: string;
}

function score(scored: ScoredLine[]): { tally: Tally; failures: Failure[] } {
  const tally: Tally = { lines: 0, expectedToCount: 0, counted: 0, foodOk: 0, gramsOk: 0, wronglyCounted: 0, missed: 0, notCountedAgreeing: 0, notCountedReasonAgreeing: 0 };
  const failures: Failure[] = [];
  for (const s of scored) {
    const { expect: e } = s.line;
    const a = s.answer;
    const matched = a.status === "matched";
    const food = a.food?.foodNumber;
    const got = matched ? `${food ?? "?"} ${a.food?.name ?? ""}, ${showGrams(a.grams)}` : `unmatched (${a.reason ?? "no reason"})`;
    tally.lines++;
    if (matched) tally.counted++;
    if (!e.count) {
      if (matched) {
        tally.wronglyCounted++;
        failures.push({ scored: s, why: "wrongly counted", expected: `not counted (${e.reason})`, got });
      } else {
        tally.notCountedAgreeing++;
        if (a.reason === e.reason) tally.notCountedReasonAgreeing++;
      }
      continue;
    }
    tally.expectedToCount++;
    if (!matched) {
      tally.missed++;
      failures.push({ scored: s, why: "missed", expected: describeExpected(e), got });
      continue;
    }
    const expectedGrams = food === undefined ? undefined : expectedGramsFor(e, food);
    if (expectedGrams === undefined) {
      failures.push({ scored: s, why: "wrong food", expected: describeExpected(e), got });
      continue;
    }
    tally.foodOk++;
    const grams = Number(a.grams);
    if (Number.isFinite(grams) && Math.abs(grams - expectedGrams) <= GRAMS_TOLERANCE * expectedGrams) tally.gramsOk++;
    else failures.push({ scored: s, why: "grams off", expected: `${expectedGrams} g`, got: `${showGrams(a.grams)} (${percentOff(grams, expectedGrams)})` });
  }
  return { tally, failures };
}

const showGrams = (grams: unknown) => (typeof grams === "number" && Number.isFinite(grams) ? `${Number(grams.toFixed(3))} g` : `${JSON.stringify(grams)} grams`);
const describeExpected = (e: CountedLine) => `${e.foods[0]}${e.foods.length > 1 ? ` (or ${e.foods.length - 1} more)` : ""}, ${e.grams} g`;
const percentOff = (got: number, expected: number) => (Number.isFinite(got) ? `${got >= expected ? "+" : ""}${(((got - expected) / expected) * 100).toFixed(0)} %` : "no grams");
const ratio = (part: number, whole: number) => (whole === 0 ? "n/a" : `${part}/${whole} = ${((part / whole) * 100).toFixed(1)} %`);

function printTally(name: string, t: Tally): void {
  const precision = t.counted === 0 ? 0 : t.foodOk / t.counted;
  const grams = t.foodOk === 0 ? 0 : t.gramsOk / t.foodOk;
  const meets = t.counted > 0 && precision >= BAR && grams >= BAR && t.wronglyCounted === 0;
  const rows: [string, string, string?][] = [
    ["counted lines (answered matched)", String(t.counted)],
    ["food accuracy: acceptable food / lines expected to count", ratio(t.foodOk, t.expectedToCount)],
    ["food precision: acceptable food / counted lines", ratio(t.foodOk, t.counted), "bar: 90 %"],
    ["grams accuracy: within 15 % / lines with an acceptable food", ratio(t.gramsOk, t.foodOk), "bar: 90 %"],
    ["wrongly counted: expected not to count, answered matched", String(t.wronglyCounted), "bar: none"],
    ["missed: expected to count, answered unmatched", String(t.missed)],
    ["not counted, as expected", `${ratio(t.notCountedAgreeing, t.lines - t.expectedToCount)}, the same reason: ${t.notCountedReasonAgreeing}`],
  ];
  console.log(`\n${name}: ${t.lines} lines, ${t.expectedToCount} expected to count`);
  for (const [label, value, bar] of rows) console.log(`  ${label.padEnd(60)} ${bar ? `${value.padEnd(20)} (${bar})` : value}`);
  console.log(`  ${meets ? "meets the bar" : "below the bar"}`);
}

function printFailures(failures: Failure[]): void {
  console.log(`\nfailures (${failures.length})`);
  if (failures.length === 0) return;
  const rows = failures.map((f) => [f.why, f.scored.set, f.scored.recipe, f.scored.line.line, f.expected, f.got]);
  const header = ["why", "set", "recipe", "line", "expected", "answered"];
  const widths = header.map((h, i) => Math.min(60, Math.max(h.length, ...rows.map((r) => [...r[i]!].length))));
  const cell = (text: string, i: number) => {
    const chars = [...text];
    return (chars.length > widths[i]! ? `${chars.slice(0, widths[i]! - 1).join("")}…` : text).padEnd(widths[i]!);
  };
  for (const row of [header, ...rows]) console.log(`  ${row.map((text, i) => (i === row.length - 1 ? text : cell(text, i))).join("  ")}`);
}

async function main(): Promise<number> {
  const { sets, url, key } = parseCommandLine();
  const target: Target = url && key ? { url, key, stop: async () => {} } : await startBinary();
  const stopOnSignal = () => void target.stop().finally(() => process.exit(130));
  process.once("SIGINT", stopOnSignal);
  try {
    console.log(`POST /v1/analyze at ${target.url}, sets: ${sets.join(", ")}`);
    const scored: ScoredLine[] = [];
    for (const set of sets) {
      const entries = loadEvalSet(set).flatMap((recipe) => recipe.lines.map((line) => ({ set, recipe: recipe.id, line })));
      const answers = await analyze(target, entries.map((entry) => entry.line.line));
      scored.push(...entries.map((entry, i) => ({ ...entry, answer: answers[i]! })));
    }
    for (const set of sets) printTally(set, score(scored.filter((s) => s.set === set)).tally);
    if (sets.length > 1) printTally("all", score(scored).tally);
    printFailures(score(scored).failures);
    return 0;
  } finally {
    process.off("SIGINT", stopOnSignal);
    await target.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof ScoreError ? error.message : error);
    process.exit(error instanceof ScoreError ? error.exitCode : 1);
  },
);
