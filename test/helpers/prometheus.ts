/**
 * A strict reader of the Prometheus text exposition format (version 0.0.4), for the /metrics tests: it
 * throws on anything a scraper could reject or misread, rather than skipping it. Checked: line grammar
 * (names, label syntax and escapes, numbers), `# TYPE` before a family's samples and once only, a family's
 * samples together, sample names allowed by the type (a histogram's `_bucket` with `le`, `_sum`, `_count`),
 * no series twice, cumulative buckets ending in `+Inf` equal to `_count`, and a final line feed.
 */

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Family {
  name: string;
  type: "counter" | "gauge" | "histogram" | "summary" | "untyped";
  help?: string;
  samples: Sample[];
}

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const TYPES = new Set(["counter", "gauge", "histogram", "summary", "untyped"]);

export class PrometheusParseError extends Error {}

export function parsePrometheusText(text: string): Map<string, Family> {
  if (!text.endsWith("\n")) throw new PrometheusParseError("the exposition does not end with a line feed");
  const families = new Map<string, Family>();
  const finished = new Set<string>();
  const seriesSeen = new Set<string>();
  const typeSeen = new Set<string>();
  let current: Family | undefined;
  const lines = text.slice(0, -1).split("\n");
  lines.forEach((line, index) => {
    const fail = (problem: string): never => {
      throw new PrometheusParseError(`line ${index + 1}: ${problem}: ${JSON.stringify(line)}`);
    };
    if (line === "") fail("empty line");
    if (line.startsWith("#")) {
      const match = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(line);
      if (!match) {
        if (line.startsWith("# HELP") || line.startsWith("# TYPE")) fail("malformed HELP/TYPE");
        return; // A plain comment.
      }
      const [, kind, name, rest] = match as unknown as [string, string, string, string];
      if (!METRIC_NAME.test(name)) fail("bad metric name");
      if (kind === "HELP") {
        const family = familyFor(name, index, fail);
        if (family.help !== undefined) fail("a second HELP");
        family.help = unescapeHelp(rest, fail);
      } else {
        if (!TYPES.has(rest)) fail("unknown type");
        const family = familyFor(name, index, fail);
        if (family.samples.length > 0 || typeSeen.has(name)) fail("TYPE after samples, or twice");
        typeSeen.add(name);
        family.type = rest as Family["type"];
      }
      return;
    }
    const sample = parseSample(line, fail);
    const family = familyOfSample(sample.name);
    if (!family) fail("a sample of no declared family");
    if (current !== family) {
      if (current) finished.add(current.name);
      if (finished.has(family!.name)) fail("the family's samples are not together");
      current = family;
    }
    const suffix = sample.name.slice(family!.name.length);
    const allowed = family!.type === "histogram" ? ["_bucket", "_sum", "_count"] : family!.type === "summary" ? ["", "_sum", "_count"] : [""];
    if (!allowed.includes(suffix)) fail(`sample name not allowed for a ${family!.type}`);
    if (family!.type === "histogram" && (suffix === "_bucket") !== ("le" in sample.labels)) fail("le belongs on buckets, and only there");
    const series = `${sample.name}${JSON.stringify(Object.entries(sample.labels).sort())}`;
    if (seriesSeen.has(series)) fail("the same series twice");
    seriesSeen.add(series);
    family!.samples.push(sample);
  });
  for (const family of families.values()) if (family.type === "histogram") checkHistogram(family);
  return families;

  // Families are declared by HELP/TYPE lines; a histogram's samples carry suffixes.
  function familyFor(name: string, _index: number, fail: (problem: string) => never): Family {
    let family = families.get(name);
    if (!family) {
      if (finished.has(name)) fail("the family is declared again");
      family = { name, type: "untyped", samples: [] };
      families.set(name, family);
    }
    return family;
  }
  function familyOfSample(name: string): Family | undefined {
    const exact = families.get(name);
    if (exact && exact.type !== "histogram") return exact;
    for (const suffix of ["_bucket", "_sum", "_count"]) {
      if (name.endsWith(suffix)) {
        const base = families.get(name.slice(0, -suffix.length));
        if (base && (base.type === "histogram" || base.type === "summary")) return base;
      }
    }
    return exact;
  }
}
function parseSample(line: string, fail: (problem: string) => never): Sample {
  const nameMatch = /^[a-zA-Z_:][a-zA-Z0-9_:]*/.exec(line);
  if (!nameMatch) fail("no metric name");
  const name = nameMatch![0];
  let at = name.length;
  const labels: Record<string, string> = {};
  if (line[at] === "{") {
    at++;
    while (line[at] !== "}") {
      const labelMatch = /^([a-zA-Z_][a-zA-Z0-9_]*)="/.exec(line.slice(at));
      if (!labelMatch || !LABEL_NAME.test(labelMatch[1]!)) fail("malformed label");
      const labelName = labelMatch![1]!;
      if (labelName in labels) fail("a label twice");
      at += labelMatch![0].length;
      let value = "";
      for (;;) {
        const char = line[at];
        if (char === undefined) fail("unterminated label value");
        if (char === '"') break;
        if (char === "\\") {
          const next = line[at + 1];
          if (next === "\\") value += "\\";
          else if (next === '"') value += '"';
          else if (next === "n") value += "\n";
          else fail("a bad escape in a label value");
          at += 2;
        } else {
          value += char;
          at++;
        }
      }
      labels[labelName] = value;
      at++; // the closing quote
      if (line[at] === ",") at++;
      else if (line[at] !== "}") fail("expected , or } after a label");
    }
    at++;
  }
  if (line[at] !== " ") fail("expected one space before the value");
  const rest = line.slice(at + 1).split(" ");
  if (rest.length > 2 || (rest.length === 2 && !/^-?\d+$/.test(rest[1]!))) fail("expected a value and at most a timestamp");
  return { name, labels, value: parseValue(rest[0]!, fail) };
}

function parseValue(text: string, fail: (problem: string) => never): number {
  if (text === "+Inf") return Infinity;
  if (text === "-Inf") return -Infinity;
  if (text === "NaN") return NaN;
  if (!/^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(text)) fail("not a number");
  return Number(text);
}

function unescapeHelp(text: string, fail: (problem: string) => never): string {
  return text.replace(/\\(.)/g, (_, char: string) => (char === "\\" ? "\\" : char === "n" ? "\n" : fail(`a bad escape in HELP: \\${char}`)));
}

function checkHistogram(family: Family): void {
  const bySeries = new Map<string, { buckets: [number, number][]; count?: number; sum?: number }>();
  for (const sample of family.samples) {
    const { le, ...rest } = sample.labels;
    const key = JSON.stringify(Object.entries(rest).sort());
    const series = bySeries.get(key) ?? { buckets: [] };
    bySeries.set(key, series);
    if (sample.name.endsWith("_bucket")) series.buckets.push([le === "+Inf" ? Infinity : Number(le), sample.value]);
    else if (sample.name.endsWith("_count")) series.count = sample.value;
    else series.sum = sample.value;
  }
  for (const [key, series] of bySeries) {
    const where = `${family.name}${key}`;
    if (series.count === undefined || series.sum === undefined) throw new PrometheusParseError(`${where}: _count or _sum missing`);
    const last = series.buckets.at(-1);
    if (!last || last[0] !== Infinity) throw new PrometheusParseError(`${where}: no +Inf bucket last`);
    for (let i = 1; i < series.buckets.length; i++) {
      const [bound, count] = series.buckets[i]!;
      const [previousBound, previousCount] = series.buckets[i - 1]!;
      if (!(bound > previousBound) || count < previousCount) throw new PrometheusParseError(`${where}: buckets not increasing and cumulative`);
    }
    if (last[1] !== series.count) throw new PrometheusParseError(`${where}: the +Inf bucket (${last[1]}) is not _count (${series.count})`);
  }
}

/** The value of the one sample of `name` whose labels include `labels`; undefined when none, throws when several. */
export function sampleValue(families: Map<string, Family>, name: string, labels: Record<string, string> = {}): number | undefined {
  const matching = [...families.values()]
    .flatMap((family) => family.samples)
    .filter((sample) => sample.name === name && Object.entries(labels).every(([label, value]) => sample.labels[label] === value));
  if (matching.length > 1) throw new Error(`${name} ${JSON.stringify(labels)} matches ${matching.length} samples`);
  return matching[0]?.value;
}
