import { describe, expect, test } from "bun:test";
import { sr28File } from "../../helpers/sr28-files";
import {
  GRAMS_PER_MASS_UNIT,
  LINE_FEATURES,
  loadEvalSet,
  type CountedLine,
  type EvalLine,
  type EvalRecipe,
  type ExpectedGrams,
  type MassUnit,
} from "./eval-set";

// The yardstick for POST /v1/analyze (decisions §16, issue #30), checked against SR28 itself and not against
// the matcher: a figure here that SR28 does not give would make every score built on it a wrong claim.

const sets = { lines: loadEvalSet("lines"), "held-out": loadEvalSet("held-out") };
const everyLine = (recipes: EvalRecipe[]) => recipes.flatMap((recipe) => recipe.lines.map((line) => ({ recipe, ...line })));
const all = [...everyLine(sets.lines), ...everyLine(sets["held-out"])];

// SR28 read here with a regex per line from the repository's own files (windows-1252), sharing no code with
// the importer or the matcher.
const sr28Lines = (file: string) => new TextDecoder("windows-1252").decode(sr28File(file)).split(/\r?\n/).filter(Boolean);
const foodNames = new Map(
  sr28Lines("FOOD_DES.txt").map((line) => {
    const match = /^~(\d{5})~\^~\d{4}~\^~([^~]*)~/.exec(line);
    if (!match) throw new Error(`cannot read FOOD_DES: ${line.slice(0, 60)}`);
    return [match[1]!, match[2]!];
  }),
);
interface WeightRow {
  amountText: string;
  description: string;
  gramsText: string;
}
const weightRows = new Map<string, WeightRow>(
  sr28Lines("WEIGHT.txt").map((line) => {
    const match = /^~(\d{5})~\^(\d+)\^([\d.]+)\^~([^~]*)~\^([\d.]+)\^/.exec(line);
    if (!match) throw new Error(`cannot read WEIGHT: ${line.slice(0, 60)}`);
    return [`${match[1]} ${Number(match[2])}`, { amountText: match[3]!, description: match[4]!, gramsText: match[5]! }];
  }),
);

/** What is wrong with one expected figure for `food`, or undefined: reproduced from its WEIGHT row or mass unit. */
function derivationProblem(line: string, food: string, expected: ExpectedGrams): string | undefined {
  const within = (computed: number) => Math.abs(expected.grams - computed) <= 0.005 * computed;
  const via = expected.via;
  if ("mass" in via) {
    const perUnit = GRAMS_PER_MASS_UNIT[via.unit as MassUnit];
    if (perUnit === undefined) return `unknown mass unit ${via.unit}`;
    if (!MASS_UNIT_WORDS[via.unit as MassUnit].test(line)) return `the line names no ${via.unit}`;
    if (!expected.gramsNote.startsWith(`mass: ${via.mass} ${via.unit} `)) return `gramsNote "${expected.gramsNote}" does not name the mass`;
    return within(via.mass * perUnit) ? undefined : `${expected.grams} g is not ${via.mass} ${via.unit}`;
  }
  if (via.weight.food !== food) return `its WEIGHT row is food ${via.weight.food}'s, not ${food}'s`;
  const row = weightRows.get(`${food} ${via.weight.seq}`);
  if (!row) return `WEIGHT has no row ${food} seq ${via.weight.seq}`;
  const named = `WEIGHT ${food} seq ${via.weight.seq}: ${Number(row.amountText)} ${row.description} = ${Number(row.gramsText)} g`;
  if (!expected.gramsNote.startsWith(named)) return `gramsNote "${expected.gramsNote}" does not name ${named}`;
  const computed = (via.measures * Number(row.gramsText)) / Number(row.amountText);
  return within(computed) ? undefined : `${expected.grams} g is not ${via.measures} x ${row.gramsText} g / ${row.amountText} = ${computed} g`;
}

// A number (a digit or a Unicode fraction) then the unit, or the unit's word.
const MASS_UNIT_WORDS: Record<MassUnit, RegExp> = {
  g: /[\d\u00BC-\u00BE\u2150-\u215E]\s*g\b|\bgrams?\b/i,
  kg: /[\d\u00BC-\u00BE\u2150-\u215E]\s*kg\b|\bkilograms?\b/i,
  mg: /[\d\u00BC-\u00BE\u2150-\u215E]\s*mg\b|\bmilligrams?\b/i,
  oz: /[\d\u00BC-\u00BE\u2150-\u215E]\s*oz\b|\bounces?\b/i,
  lb: /[\d\u00BC-\u00BE\u2150-\u215E]\s*lbs?\b|\bpounds?\b/i,
};

const counted = (lines: EvalLine[]) => lines.filter((line): line is EvalLine & { expect: CountedLine } => line.expect.count);
const share = (lines: EvalLine[], feature: RegExp) => lines.filter((line) => feature.test(line.line)).length;

describe("the recipe-analysis evaluation set (test/analysis/eval)", () => {
  test("every acceptable food is an SR28 food (FOOD_DES), listed once, and every counted line accepts at least one", () => {
    const problems = counted(all).flatMap(({ line, expect: e }) => [
      ...(e.foods.length === 0 ? [`${line}: no acceptable food`] : []),
      ...(new Set(e.foods).size !== e.foods.length ? [`${line}: a food listed twice`] : []),
      ...e.foods.filter((food) => !foodNames.has(food)).map((food) => `${line}: ${food} is not in FOOD_DES`),
      ...Object.keys(e.gramsFor ?? {}).filter((food) => !e.foods.includes(food)).map((food) => `${line}: gramsFor ${food}, which it does not accept`),
    ]);
    expect(problems).toEqual([]);
  });

  test("every expected grams figure follows from the WEIGHT row its gramsNote names (or from an exact mass unit) within 0.5 %", () => {
    const problems = counted(all).flatMap(({ line, expect: e }) =>
      [
        [line, derivationProblem(line, e.foods[0]!, e)],
        ...Object.entries(e.gramsFor ?? {}).map(([food, expected]) => [`${line} (${food})`, derivationProblem(line, food, expected)]),
      ].filter(([, problem]) => problem !== undefined),
    );
    expect(problems).toEqual([]);
  });

  test("a line that must not count names its reason (quantity, food or unit) and expects no food or grams", () => {
    const problems = all
      .filter(({ expect: e }) => !e.count)
      .filter(({ expect: e }) => !["quantity", "food", "unit"].includes((e as { reason: string }).reason) || "foods" in e || "grams" in e)
      .map(({ line }) => line);
    expect(problems).toEqual([]);
  });

  test("no line appears twice in either file or across them, and each is what POST /v1/analyze accepts (1-200 code points, trimmed)", () => {
    const seen = new Map<string, string>();
    const problems: string[] = [];
    for (const { recipe, line } of all) {
      const key = line.toLowerCase().replace(/\s+/g, " ");
      if (seen.has(key)) problems.push(`"${line}" in ${recipe.id} and ${seen.get(key)}`);
      seen.set(key, recipe.id);
      if (line !== line.trim() || [...line].length < 1 || [...line].length > 200) problems.push(`"${line}" is not 1-200 trimmed code points`);
    }
    expect(problems).toEqual([]);
  });

  test("lines.json: at least 160 lines from at least 25 recipes of baking, soups, salads, meat, fish, spices, drinks and breakfast", () => {
    const lines = sets.lines.flatMap((recipe) => recipe.lines);
    expect(lines.length).toBeGreaterThanOrEqual(160);
    expect(sets.lines.length).toBeGreaterThanOrEqual(25);
    const kinds = new Set(sets.lines.map((recipe) => recipe.kind));
    for (const kind of ["baking", "soup", "salad", "meat", "fish", "spices", "drink", "breakfast"]) expect(kinds).toContain(kind);
    expect(new Set(sets.lines.map((recipe) => recipe.id)).size).toBe(sets.lines.length);
  });

  test("lines.json: about 15 % must not count (each reason among them), 10 % metric, and fractions, ranges, number words, parenthesised sizes, sizes, plurals and diacritics", () => {
    const lines = sets.lines.flatMap((recipe) => recipe.lines);
    const notCounted = lines.filter((line) => !line.expect.count);
    expect(notCounted.length / lines.length).toBeGreaterThanOrEqual(0.13);
    expect(notCounted.length / lines.length).toBeLessThanOrEqual(0.2);
    for (const reason of ["quantity", "food", "unit"]) expect(notCounted.filter((line) => !line.expect.count && line.expect.reason === reason).length).toBeGreaterThanOrEqual(3);
    expect(share(lines, LINE_FEATURES.metric) / lines.length).toBeGreaterThanOrEqual(0.1);
    expect(share(lines, LINE_FEATURES.unicodeFraction)).toBeGreaterThanOrEqual(10);
    expect(share(lines, LINE_FEATURES.range)).toBeGreaterThanOrEqual(2);
    expect(share(lines, LINE_FEATURES.numberWord)).toBeGreaterThanOrEqual(5);
    expect(share(lines, LINE_FEATURES.parenthesisedSize)).toBeGreaterThanOrEqual(5);
    expect(share(lines, LINE_FEATURES.size)).toBeGreaterThanOrEqual(10);
    expect(share(lines, LINE_FEATURES.plural)).toBeGreaterThanOrEqual(20);
    expect(share(lines, LINE_FEATURES.diacritic)).toBeGreaterThanOrEqual(3);
  });

  test("held-out.json: at least 60 lines from recipes that are not in lines.json, with lines that must not count for each reason", () => {
    const lines = sets["held-out"].flatMap((recipe) => recipe.lines);
    expect(lines.length).toBeGreaterThanOrEqual(60);
    const inLines = new Set(sets.lines.flatMap((recipe) => [recipe.id, recipe.title.toLowerCase()]));
    expect(sets["held-out"].filter((recipe) => inLines.has(recipe.id) || inLines.has(recipe.title.toLowerCase())).map((recipe) => recipe.id)).toEqual([]);
    const notCounted = lines.filter((line) => !line.expect.count);
    expect(notCounted.length / lines.length).toBeGreaterThanOrEqual(0.1);
    for (const reason of ["quantity", "food", "unit"]) expect(notCounted.some((line) => !line.expect.count && line.expect.reason === reason)).toBe(true);
  });
});
