import { byId, el, onSubmit } from "./dom";
import { labelFigure, type NutritionLabel } from "./label-figure";
import { type MessageArea, messageArea } from "./messages";

interface FoodRef {
  foodNumber: string;
  name: string;
}
interface NutrientTotal {
  number: string;
  name: string;
  unit: string;
  value: number | null;
}
interface Analysis {
  items: { line: string; status: "matched" | "unmatched"; reason?: "food" | "quantity" | "unit"; food: FoodRef | null; grams: number; confidence: number; alternatives: FoodRef[] }[];
  servings: number;
  totalGrams: number;
  totals: NutrientTotal[];
  perServing: { grams: number; nutrients: NutrientTotal[] };
  label: NutritionLabel;
}

/** A call with the playground's credential (playground.ts): the answer, or undefined once a refusal is said. */
export type CredentialCall = <T>(
  method: string,
  path: string,
  options: { body?: unknown; messages: MessageArea; fields?: (refusal: { status: number; message: string }) => HTMLElement[] },
) => Promise<T | undefined>;

/** Why a line was not matched, in words (the API's `reason`, docs/analysis.md). */
const REASONS: Record<string, string> = { quantity: "no amount", food: "no food matched", unit: "unit cannot be converted" };
/** The nutrients shown first, by SR28 number: energy, protein, fat, carbohydrate; the rest behind "All nutrients". */
const HEADLINE = ["208", "203", "204", "205"];
/** `#<foodNumber>` at a line's end: the food it forces (docs/analysis.md). */
const FORCED = /\s*#\d+\s*$/;

const gramsText = (grams: number) => `${Math.round(grams * 10) / 10} g`;
const valueText = (n: NutrientTotal | undefined) => (n === undefined || n.value === null ? "—" : `${n.value} ${n.unit}`);

/**
 * "Analyze a recipe": the lines as typed go to `POST /v1/analyze` with the label of a serving; each line's
 * food can be changed to one of its alternatives, which analyses the recipe again with that line ending in
 * `#<foodNumber>`. Refusals are said inside the form.
 */
export function setupRecipe(options: { call: CredentialCall }) {
  const form = byId<HTMLFormElement>("recipe-form");
  const linesInput = byId<HTMLTextAreaElement>("recipe-lines");
  const servingsInput = byId<HTMLInputElement>("recipe-servings");
  const messages = messageArea("recipe", form);
  const summary = byId("recipe-summary");

  const lines = () => linesInput.value.split("\n").map((line) => line.trim()).filter((line) => line !== "");

  /** Analyses the textarea's lines; `focusRow` keeps the focus on that line's food afterwards (after a choice). */
  const analyze = async (focusRow?: number) => {
    const body = { lines: lines(), servings: Number(servingsInput.value.trim() || "1"), label: true };
    const fields = (refusal: { status: number; message: string }) =>
      refusal.status === 400 || refusal.status === 413 ? [/servings/i.test(refusal.message) ? servingsInput : linesInput] : [];
    const analysis = await options.call<Analysis>("POST", "/v1/analyze", { body, messages, fields });
    if (!analysis) {
      // What is on screen answered other lines.
      summary.textContent = "";
      byId("recipe-results").hidden = true;
      return;
    }
    render(analysis);
    if (focusRow === undefined) summary.focus();
    else rowSelect(focusRow)?.focus();
  };

  const rowSelect = (row: number) => byId<HTMLTableSectionElement>("recipe-rows").rows[row]?.querySelector("select");

  /** Line `row` forced to `foodNumber`, and the recipe analysed again. */
  const choose = (row: number, foodNumber: string) => {
    const current = lines();
    current[row] = `${current[row]!.replace(FORCED, "")} #${foodNumber}`;
    linesInput.value = current.join("\n");
    void analyze(row);
  };

  const render = (analysis: Analysis) => {
    const matched = analysis.items.filter((item) => item.status === "matched").length;
    const unmatched = analysis.items.length - matched;
    const servings = analysis.servings === 1 ? "1 serving" : `${analysis.servings} servings of ${gramsText(analysis.perServing.grams)}`;
    summary.textContent = `${analysis.items.length} ${analysis.items.length === 1 ? "line" : "lines"}: ${matched} matched, ${unmatched} not matched. ${gramsText(analysis.totalGrams)} in all, ${servings}.`;

    byId("recipe-rows").replaceChildren(
      ...analysis.items.map((item, row) => {
        const tr = el("tr", "", item.status === "unmatched" ? { class: "unmatched" } : {});
        const food = el("td");
        if (item.status === "unmatched") food.append(el("span", `Not matched: ${REASONS[item.reason ?? "food"] ?? item.reason}`, { class: "reason" }));
        // A line without an amount or a unit for its food still names one: another may be what was meant.
        if (item.food) {
          const select = el("select", "", { "aria-label": `Food for “${item.line}”` });
          select.append(...[item.food, ...item.alternatives].map((choice) => el("option", choice.name, { value: choice.foodNumber })));
          select.addEventListener("change", () => choose(row, select.value));
          food.append(select);
        }
        food.dataset.label = "Food";
        // data-label: a phone shows each row as a card, each cell named by its column (styles.css).
        tr.append(
          el("td", item.line, { "data-label": "Line" }),
          food,
          el("td", item.status === "matched" ? gramsText(item.grams) : "—", { class: "number", "data-label": "Grams" }),
          el("td", item.status === "matched" ? `${Math.round(item.confidence * 100)} %` : "—", { class: "number", "data-label": "Confidence" }),
        );
        return tr;
      }),
    );

    const perServing = new Map(analysis.perServing.nutrients.map((n) => [n.number, n]));
    const nutrientRow = (total: NutrientTotal) => {
      const tr = el("tr", "", { "data-nutrient": total.number });
      tr.append(el("th", total.name, { scope: "row" }), el("td", valueText(total), { class: "number" }), el("td", valueText(perServing.get(total.number)), { class: "number" }));
      return tr;
    };
    byId("recipe-headline-caption").textContent = `Nutrients: the recipe (${gramsText(analysis.totalGrams)}) and one serving (${gramsText(analysis.perServing.grams)})`;
    byId("recipe-headline-rows").replaceChildren(
      ...HEADLINE.flatMap((number) => analysis.totals.filter((total) => total.number === number)).map(nutrientRow),
    );
    byId("recipe-all-rows").replaceChildren(...analysis.totals.map(nutrientRow));
    byId("recipe-label").replaceChildren(labelFigure(analysis.label));
    byId("recipe-results").hidden = false;
  };

  onSubmit(form, () => analyze());
}
