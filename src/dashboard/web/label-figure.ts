import type { NutritionLabel } from "../../label/label";
import { labelSvg } from "../../label/svg";
import { el } from "./dom";

export type { NutritionLabel };

/**
 * A Nutrition Facts label in the page: the panel drawn by the label's own `labelSvg` (the function the
 * label route answers `?format=svg` with, so the picture is the route's, byte for byte), shown as an image
 * from a `data:` URL, which the page's policy allows (`img-src 'self' data:`; inline SVG in the DOM would
 * need no policy, but an <img> cannot run or fetch anything whatever the markup). Drawn here from the JSON
 * rather than fetched as SVG: a recipe's label has no SVG route, and a food's would cost a second request.
 * Screen readers get the same lines as a table (visually hidden); the image itself is left out for them,
 * since it says nothing more.
 */
export function labelFigure(label: NutritionLabel): HTMLElement {
  const figure = el("figure", "", { class: "label-figure" });
  const image = el("img", "", {
    class: "label-image",
    src: `data:image/svg+xml,${encodeURIComponent(labelSvg(label))}`,
    alt: "",
    width: "300",
  });
  const { grams, description } = label.servingSize;
  const serving = description ? `${description} (${grams} g)` : `${grams} g`;
  const table = el("table", "", { class: "label-lines" });
  const caption = el("caption", `Nutrition Facts, serving size ${serving}`);
  const head = el("thead");
  const headRow = el("tr");
  headRow.append(el("th", "Line", { scope: "col" }), el("th", "Amount", { scope: "col" }), el("th", "% Daily Value", { scope: "col" }));
  head.append(headRow);
  const body = el("tbody");
  body.append(
    ...label.lines.map((line) => {
      const row = el("tr");
      row.append(el("th", line.name, { scope: "row" }), el("td", line.display), el("td", line.dv === null ? "" : `${line.dv}%`));
      return row;
    }),
  );
  table.append(caption, head, body);
  // Hidden in a box of its own: a table is as wide as its content whatever width it is given.
  const hidden = el("div", "", { class: "visually-hidden" });
  hidden.append(table);
  figure.append(image, hidden);
  return figure;
}
