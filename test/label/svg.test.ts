import { beforeAll, describe, expect, test } from "bun:test";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { join } from "node:path";
import { openCatalogStore } from "../../src/catalog/catalog-db";
import { type NutritionLabel, nutritionLabel } from "../../src/label/label";
import { createFoodLabels } from "../../src/label/service";
import { labelSvg } from "../../src/label/svg";
import { CATALOG_PATH, ROOT } from "../helpers/paths";

// The label's SVG: well-formed XML (checked by a real XML parser, fast-xml-parser), nothing it would fetch
// or run, and exactly the label's text in label order, for real foods and for the awkward cases (a long
// portion description, text with XML's own characters, a food with nothing known).

/** The FDA's footnote for the %DV, as the vertical label prints it. */
const FOOTNOTE =
  "* The % Daily Value (DV) tells you how much a nutrient in a serving of food contributes to a daily diet. 2,000 calories a day is used for general nutrition advice.";

let labels: ReturnType<typeof createFoodLabels>;
beforeAll(async () => {
  labels = createFoodLabels(await openCatalogStore(CATALOG_PATH, join(ROOT, "dist", "test-cache")));
});

type OrderedNode = Record<string, unknown> & { ":@"?: Record<string, string> };
const parser = new XMLParser({ preserveOrder: true, ignoreAttributes: false, attributeNamePrefix: "", trimValues: false });

/** Every element of the document, depth first, with its name, attributes and children. */
function* elements(nodes: OrderedNode[]): Generator<{ name: string; attributes: Record<string, string>; children: OrderedNode[] }> {
  for (const node of nodes) {
    const name = Object.keys(node).find((key) => key !== ":@")!;
    if (name === "#text") continue;
    const children = node[name] as OrderedNode[];
    yield { name, attributes: node[":@"] ?? {}, children };
    yield* elements(children);
  }
}

/** An element's text, its children's included, in document order. */
function textOf(nodes: OrderedNode[]): string {
  return nodes.map((node) => ("#text" in node ? String(node["#text"]) : textOf(node[Object.keys(node).find((k) => k !== ":@")!] as OrderedNode[]))).join("");
}

/** The SVG's <text> elements' contents, in document order, after checking that it is well-formed XML. */
function svgTexts(svg: string): string[] {
  expect(XMLValidator.validate(svg)).toBe(true);
  const document = parser.parse(svg) as OrderedNode[];
  return [...elements(document)].filter((e) => e.name === "text").map((e) => textOf(e.children));
}

/** What the panel says, in order, from the label's JSON alone. */
function expectedText(label: NutritionLabel): string {
  const { grams, description } = label.servingSize;
  const calories = label.lines[0]!;
  const rows = label.lines.slice(1).flatMap((line) => [`${line.name} ${line.display}`, ...(line.dv === null ? [] : [`${line.dv}%`])]);
  return [
    "Nutrition Facts",
    "Serving size",
    description === null ? `${grams}g` : `${description} (${grams}g)`,
    "Amount per serving",
    calories.name,
    calories.display,
    "% Daily Value*",
    ...rows,
    FOOTNOTE,
  ].join(" ");
}

const REAL: [foodNumber: string, query: { grams?: string; portion?: string }][] = [
  ["01001", { portion: "2" }],
  ["01009", { portion: "6" }],
  ["09003", { portion: "4" }],
  ["20045", {}],
  ["01123", {}],
  // SR28's longest portion description: "steak, excluding refuse (yield from 1 raw steak, with refuse, weighing 385 g)".
  ["17122", { portion: "2" }],
  // Ten kilograms of butter: the widest figures.
  ["01001", { grams: "10000" }],
];

describe("labelSvg", () => {
  test("well-formed XML whose text is the label's, in label order (real foods)", () => {
    for (const [foodNumber, query] of REAL) {
      const label = labels.label(foodNumber, query);
      const texts = svgTexts(labelSvg(label));
      // Wrapped text (a long serving size, the footnote) is several <text> elements: joined at the spaces it was cut at.
      expect([foodNumber, texts.join(" ")]).toEqual([foodNumber, expectedText(label)]);
    }
  });

  test("the serving's words are escaped, and characters XML cannot carry are dropped", () => {
    const description = `1 "cup" <packed> & 'heaped'\u0001`;
    const label = nutritionLabel({ grams: 12.5, description }, new Map([["208", 50]]));
    const svg = labelSvg(label);
    expect(svg).toContain(">1 &quot;cup&quot; &lt;packed&gt; &amp; &apos;heaped&apos;");
    expect(svgTexts(svg).join(" ")).toEqual(expectedText({ ...label, servingSize: { grams: 12.5, description: description.slice(0, -1) } }));
  });

  test("a food with nothing known: every line 'not available', no %DV", () => {
    const label = nutritionLabel({ grams: 100, description: null }, new Map());
    const texts = svgTexts(labelSvg(label));
    expect(texts.join(" ")).toEqual(expectedText(label));
    expect(texts.filter((t) => t.endsWith("%"))).toEqual([]);
  });

  test("self-contained: no reference to anything outside it, no script, no style sheet, no embedded document", () => {
    for (const [foodNumber, query] of REAL) {
      const svg = labelSvg(labels.label(foodNumber, query));
      for (const forbidden of ["href", "url(", "@import", "<script", "<image", "<foreignObject", "<style", "<use", "javascript:", "data:"]) {
        expect([foodNumber, forbidden, svg.toLowerCase().includes(forbidden.toLowerCase())]).toEqual([foodNumber, forbidden, false]);
      }
      const all = [...elements(parser.parse(svg) as OrderedNode[])];
      // Only drawing elements, and the one namespace name (an identifier, never fetched).
      expect(new Set(all.map((e) => e.name))).toEqual(new Set(["?xml", "svg", "title", "rect", "g", "text", "tspan"]));
      const withAddress = all.flatMap((e) => Object.entries(e.attributes)).filter(([, value]) => /:\/\//.test(value));
      expect(withAddress).toEqual([["xmlns", "http://www.w3.org/2000/svg"]]);
      // A generic font family: nothing to download.
      expect(all.find((e) => e.name === "svg")!.attributes["font-family"]).toBe("Helvetica, Arial, sans-serif");
    }
  });

  test("scales: a viewBox 300 units wide, its height the panel's", () => {
    const svg = labelSvg(labels.label("01009", { portion: "6" }));
    const root = [...elements(parser.parse(svg) as OrderedNode[])].find((e) => e.name === "svg")!;
    const [x, y, width, height] = root.attributes.viewBox!.split(" ").map(Number);
    expect([x, y, width]).toEqual([0, 0, 300]);
    expect(root.attributes.height).toBe(String(height));
    expect(height).toBeGreaterThan(400);
  });
});
