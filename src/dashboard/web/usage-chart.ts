import { el } from "./dom";
import { HOUR_MS, type HourSlot, hourSlots, type HourUsage, scaleTicks, scaleTop, usageTotals } from "./usage-hours";

const SVG = "http://www.w3.org/2000/svg";
/** Drawn in CSS pixels at the width it gets, so its labels stay 11 px on a phone and on a desktop alike. */
const HEIGHT = 170;
const MARGIN = { top: 10, right: 6, bottom: 24, left: 40 };
const MIN_WIDTH = 240;

function svg<K extends keyof SVGElementTagNameMap>(tag: K, attributes: Record<string, string | number> = {}, text?: string): SVGElementTagNameMap[K] {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  if (text !== undefined) element.textContent = text;
  return element;
}

const count = (n: number) => n.toLocaleString();
const hourLabel = (ms: number) =>
  `${new Date(ms).toLocaleString(undefined, { weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" })}`;
/** "Mon 23" where there is room for it, "M" where there is not (a phone). */
const dayLabel = (ms: number, wide: boolean) => {
  const date = new Date(ms);
  return wide ? `${date.toLocaleDateString(undefined, { weekday: "short" })} ${date.getDate()}` : date.toLocaleDateString(undefined, { weekday: "narrow" });
};
const plural = (n: number, one: string, many: string) => `${count(n)} ${n === 1 ? one : many}`;

/**
 * A key's requests per hour over 7 days, drawn by the page itself: an SVG made with DOM calls (the page's
 * policy allows no inline style, so colours come from classes in styles.css), one `rect` per hour and
 * series with requests, carrying its hour and count as data attributes. Beside it, for screen readers
 * and anyone who prefers numbers: the totals in words, and a table of the hours with requests.
 */
export function renderUsage(container: HTMLElement, items: readonly HourUsage[], keyName: string, nowMs = Date.now()): { destroy(): void } {
  const slots = hourSlots(items, nowMs);
  const totals = usageTotals(items);
  const idBase = `${container.id || "usage"}-chart`;

  const summary = el(
    "p",
    totals.allowed + totals.refused === 0
      ? `No requests with “${keyName}” in the last 7 days.`
      : `Last 7 days: ${plural(totals.allowed, "request", "requests")} allowed, ${plural(totals.refused, "refused", "refused")} (429, over the limit).`,
    { class: "usage-summary" },
  );
  const legend = el("p", "", { class: "usage-legend", "aria-hidden": "true" });
  legend.append(el("span", "", { class: "swatch swatch-allowed" }), " Allowed ", el("span", "", { class: "swatch swatch-refused" }), " Refused (429)");

  const figure = el("div", "", { class: "usage-figure" });
  const draw = () => figure.replaceChildren(chartSvg(slots, keyName, totals, idBase, Math.max(MIN_WIDTH, figure.clientWidth)));
  const table = hoursTable(items, keyName, totals);

  container.replaceChildren(summary, legend, figure, table);
  draw();
  // Redrawn at its new width when the panel narrows or widens (a phone turned, a window resized).
  let drawnWidth = figure.clientWidth;
  const observer = new ResizeObserver(() => {
    if (figure.clientWidth === drawnWidth) return;
    drawnWidth = figure.clientWidth;
    draw();
  });
  observer.observe(figure);
  return { destroy: () => observer.disconnect() };
}

function chartSvg(slots: HourSlot[], keyName: string, totals: { allowed: number; refused: number }, idBase: string, width: number): SVGSVGElement {
  const plotWidth = width - MARGIN.left - MARGIN.right;
  const plotHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const top = scaleTop(Math.max(0, ...slots.map((s) => (s.usage ? s.usage.allowed + s.usage.refused : 0))));
  const barWidth = plotWidth / slots.length;
  const y = (n: number) => MARGIN.top + plotHeight - (n / top) * plotHeight;
  // A single request among thousands still shows as a line.
  const height = (n: number) => (n === 0 ? 0 : Math.max(1, (n / top) * plotHeight));

  const chart = svg("svg", {
    class: "usage-chart",
    width,
    height: HEIGHT,
    viewBox: `0 0 ${width} ${HEIGHT}`,
    role: "img",
    "aria-labelledby": `${idBase}-title ${idBase}-desc`,
  });
  const first = slots[0]!.start;
  const last = slots[slots.length - 1]!.start;
  chart.append(
    svg("title", { id: `${idBase}-title` }, `Requests per hour with “${keyName}”, last 7 days`),
    svg(
      "desc",
      { id: `${idBase}-desc` },
      `From ${hourLabel(first)} to ${hourLabel(last + HOUR_MS)}: ${count(totals.allowed)} allowed and ${count(totals.refused)} refused. The table below lists each hour with requests.`,
    ),
  );

  // The scale: whole numbers of requests from 0 to the top, as lines across the plot.
  for (const value of scaleTicks(top)) {
    const at = y(value);
    chart.append(
      svg("line", { class: value === 0 ? "axis" : "grid", x1: MARGIN.left, x2: width - MARGIN.right, y1: at, y2: at }),
      svg("text", { class: "tick", x: MARGIN.left - 4, y: at + 4, "text-anchor": "end" }, count(value)),
    );
  }

  // Days: a line where each local day starts, its name centred over its part of the plot.
  const wide = plotWidth / 7 >= 48;
  const xOf = (ms: number) => MARGIN.left + ((ms - first) / HOUR_MS) * barWidth;
  const days: number[] = [];
  const midnight = new Date(first);
  midnight.setHours(0, 0, 0, 0);
  for (let day = midnight.getTime(); day <= last; ) {
    days.push(day);
    const next = new Date(day);
    next.setDate(next.getDate() + 1);
    day = next.getTime();
  }
  for (const day of days) {
    const from = Math.max(day, first);
    const to = Math.min(new Date(day).setDate(new Date(day).getDate() + 1), last + HOUR_MS);
    if (day >= first) chart.append(svg("line", { class: "day", x1: xOf(day), x2: xOf(day), y1: MARGIN.top, y2: MARGIN.top + plotHeight + 4 }));
    // A sliver of a day (under a quarter) gets no name: it would collide with its neighbour's.
    if (to - from >= 6 * HOUR_MS) {
      chart.append(svg("text", { class: "tick", x: (xOf(from) + xOf(to)) / 2, y: HEIGHT - 8, "text-anchor": "middle" }, dayLabel(day, wide)));
    }
  }

  const bars = svg("g", { class: "bars" });
  for (const slot of slots) {
    if (!slot.usage) continue;
    const x = xOf(slot.start);
    const { allowed, refused, hour } = slot.usage;
    const tip = `${hourLabel(slot.start)}: ${count(allowed)} allowed, ${count(refused)} refused`;
    // Stacked: allowed from the axis up, refused on top of it.
    for (const [series, n, base] of [["allowed", allowed, 0], ["refused", refused, allowed]] as const) {
      if (n === 0) continue;
      const h = height(n);
      const rect = svg("rect", {
        class: `bar-${series}`,
        x: x + barWidth * 0.1,
        y: y(base) - h,
        width: Math.max(1, barWidth * 0.8),
        height: h,
        "data-hour": hour,
        "data-series": series,
        "data-count": n,
      });
      rect.append(svg("title", {}, tip));
      bars.append(rect);
    }
  }
  chart.append(bars);
  return chart;
}

function hoursTable(items: readonly HourUsage[], keyName: string, totals: { allowed: number; refused: number }): HTMLElement {
  const details = el("details", "", { class: "usage-table" });
  details.append(el("summary", `Hours with requests (${items.length})`));
  if (items.length === 0) return details;
  const wrapper = el("div", "", { class: "table-scroll", tabindex: "0", role: "region", "aria-label": `Hours with requests, “${keyName}”` });
  const table = el("table");
  table.append(el("caption", `Requests per hour with “${keyName}”, oldest first (your local time)`));
  const head = el("thead");
  const headRow = el("tr");
  headRow.append(el("th", "Hour", { scope: "col" }), el("th", "Allowed", { scope: "col", class: "number" }), el("th", "Refused (429)", { scope: "col", class: "number" }));
  head.append(headRow);
  const body = el("tbody");
  for (const item of items) {
    const row = el("tr");
    const time = el("time", hourLabel(Date.parse(item.hour)), { datetime: item.hour });
    const hourCell = el("th", "", { scope: "row" });
    hourCell.append(time);
    row.append(hourCell, el("td", count(item.allowed), { class: "number" }), el("td", count(item.refused), { class: "number" }));
    body.append(row);
  }
  const foot = el("tfoot");
  const footRow = el("tr");
  footRow.append(el("th", "Total", { scope: "row" }), el("td", count(totals.allowed), { class: "number" }), el("td", count(totals.refused), { class: "number" }));
  foot.append(footRow);
  table.append(head, body, foot);
  wrapper.append(table);
  details.append(wrapper);
  return details;
}
