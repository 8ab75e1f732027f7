import type { LabelLine, NutritionLabel } from "./label";
import type { LineKey } from "./lines";

/**
 * The label as the standard vertical Nutrition Facts panel, in SVG: a hairline box, the title across it,
 * the serving size, a heavy bar, "Calories" large, a bar, "% Daily Value*", the lines with rules between
 * them (sub-lines indented), a heavy bar before the vitamins and minerals, a bar, the footnote. Every
 * figure and name comes from the label; nothing is fetched (no font, image, script or style sheet: a
 * generic sans-serif font family), so the file stands alone and no Content-Security-Policy blocks any of it.
 * Its viewBox is 300 units wide: at 300 px, the smallest text (the footnote) is 10 px.
 */

const WIDTH = 300;
const LEFT = 8;
const RIGHT = WIDTH - 8;
const FONT = "Helvetica, Arial, sans-serif";
const INDENT = 14;
const ROW = 19;
const ROW_FONT = 12.5;
const FOOTNOTE_FONT = 10;
const FOOTNOTE =
  "* The % Daily Value (DV) tells you how much a nutrient in a serving of food contributes to a daily diet. 2,000 calories a day is used for general nutrition advice.";

/** How a line sits on the panel: its indent, whether its name and %DV are bold, a heavy bar above it. */
interface RowStyle {
  indent: 0 | 1 | 2;
  bold: boolean;
  barAbove?: boolean;
}

/** Calories have their own large row; every other line is a row, in the label's order. */
const ROWS: Record<Exclude<LineKey, "calories">, RowStyle> = {
  totalFat: { indent: 0, bold: true },
  saturatedFat: { indent: 1, bold: false },
  transFat: { indent: 1, bold: false },
  cholesterol: { indent: 0, bold: true },
  sodium: { indent: 0, bold: true },
  totalCarbohydrate: { indent: 0, bold: true },
  dietaryFiber: { indent: 1, bold: false },
  totalSugars: { indent: 1, bold: false },
  addedSugars: { indent: 2, bold: false },
  protein: { indent: 0, bold: true },
  vitaminD: { indent: 0, bold: false, barAbove: true },
  calcium: { indent: 0, bold: false },
  iron: { indent: 0, bold: false },
  potassium: { indent: 0, bold: false },
};

export function labelSvg(label: NutritionLabel): string {
  const out: string[] = [];
  let y = 0;
  const text = (x: number, baseline: number, size: number, content: string, options: { bold?: boolean; end?: boolean; fitWidth?: number } = {}) => {
    const attributes = [`x="${x}"`, `y="${baseline}"`, `font-size="${size}"`];
    if (options.bold) attributes.push(`font-weight="bold"`);
    if (options.end) attributes.push(`text-anchor="end"`);
    if (options.fitWidth !== undefined) attributes.push(`textLength="${round(options.fitWidth)}"`, `lengthAdjust="spacingAndGlyphs"`);
    out.push(`<text ${attributes.join(" ")}>${content}</text>`);
  };
  const rule = (at: number, thickness: number) => out.push(`<rect x="${LEFT}" y="${round(at)}" width="${RIGHT - LEFT}" height="${thickness}"/>`);

  // The title spans the panel, as on a printed label, whatever the font's own width.
  y = 36;
  text(LEFT, y, 32, "Nutrition Facts", { bold: true, fitWidth: RIGHT - LEFT });
  // Below each large text, its font's descent (about a quarter of its size) before the rule.
  rule(y + 9, 1);

  y += 26;
  const { grams, description } = label.servingSize;
  const serving = description === null ? `${grams}g` : `${description} (${grams}g)`;
  const head = "Serving size";
  if (width(head, 13, true) + 10 + width(serving, 13, true) <= RIGHT - LEFT) {
    text(LEFT, y, 13, head, { bold: true });
    text(RIGHT, y, 13, escape(serving), { bold: true, end: true });
  } else {
    text(LEFT, y, 13, head, { bold: true });
    const room = RIGHT - LEFT - INDENT;
    for (const part of wrap(serving, 13, true, room)) {
      text(LEFT + INDENT, (y += 16), 13, escape(part), { bold: true, ...(width(part, 13, true) > room ? { fitWidth: room } : {}) });
    }
  }
  rule(y + 6, 8);

  y += 28;
  text(LEFT, y, 10.5, "Amount per serving", { bold: true });
  const calories = label.lines.find((line) => line.key === "calories")!;
  y += 28;
  text(LEFT, y, 24, escape(calories.name), { bold: true });
  const roomForCalories = RIGHT - LEFT - width(calories.name, 24, true) - 12;
  text(RIGHT, y, Math.min(30, fittingSize(calories.display, true, roomForCalories)), escape(calories.display), { bold: true, end: true });
  rule(y + 8, 4);

  y += 26;
  text(RIGHT, y, 10.5, "% Daily Value*", { bold: true, end: true });
  y += 4;
  for (const line of label.lines) {
    if (line.key === "calories") continue;
    const style = ROWS[line.key];
    if (style.barAbove) {
      rule(y, 8);
      y += 8;
    } else rule(y, 0.75);
    row(line, style, y + 14);
    y += ROW;
  }
  rule(y, 4);

  y += 4;
  for (const part of wrap(FOOTNOTE, FOOTNOTE_FONT, false, RIGHT - LEFT)) text(LEFT, (y += 12.5), FOOTNOTE_FONT, escape(part));
  const height = round(y + 8);

  function row(line: LabelLine, style: RowStyle, baseline: number) {
    const x = LEFT + style.indent * INDENT;
    const percent = line.dv === null ? null : `${line.dv}%`;
    const room = RIGHT - x - (percent === null ? 0 : width(percent, ROW_FONT, style.bold) + 8);
    const needed = width(line.name, ROW_FONT, style.bold) + width(` ${line.display}`, ROW_FONT, false);
    const name = style.bold ? `<tspan font-weight="bold">${escape(line.name)}</tspan>` : escape(line.name);
    text(x, baseline, ROW_FONT, `${name} ${escape(line.display)}`, needed > room ? { fitWidth: room } : {});
    if (percent !== null) text(RIGHT, baseline, ROW_FONT, percent, { bold: style.bold, end: true });
  }

  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${height}" width="${WIDTH}" height="${height}" role="img" font-family="${FONT}">`,
    `<title>Nutrition Facts</title>`,
    `<rect x="0.5" y="0.5" width="${WIDTH - 1}" height="${height - 1}" fill="#fff" stroke="#000"/>`,
    `<g fill="#000">`,
    ...out,
    `</g>`,
    `</svg>`,
    "",
  ].join("\n");
}

/**
 * A text's width, estimated generously (as a wide sans-serif such as DejaVu Sans sets it, wider than
 * Helvetica or Arial): the panel is laid out without the font's metrics, which only the viewer has.
 */
function width(text: string, size: number, bold: boolean): number {
  let em = 0;
  for (const c of text) em += NARROW.has(c) ? 0.36 : WIDE.has(c) || (c >= "A" && c <= "Z") ? 0.82 : 0.64;
  return em * size * (bold ? 1.1 : 1);
}
const NARROW = new Set(" .,:;'!|()[]iljtfr-/\"");
const WIDE = new Set("mwMW%@");

/** The largest size at which `text` fits in `room`. */
const fittingSize = (text: string, bold: boolean, room: number) => room / width(text, 1, bold);

/** Words into lines no wider than `room`; a word wider than a line stands alone on one. */
function wrap(text: string, size: number, bold: boolean, room: number): string[] {
  const lines: string[] = [];
  let current = "";
  for (const word of text.split(" ")) {
    const candidate = current === "" ? word : `${current} ${word}`;
    if (current !== "" && width(candidate, size, bold) > room) {
      lines.push(current);
      current = word;
    } else current = candidate;
  }
  if (current !== "") lines.push(current);
  return lines;
}

const round = (n: number) => Math.round(n * 100) / 100;

/** Text as XML character data: markup characters escaped, characters XML 1.0 does not allow dropped. */
function escape(text: string): string {
  return text.replace(NOT_XML, "").replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" };
