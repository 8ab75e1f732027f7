import { sr28File } from "./sr28-files";

/**
 * An independent reading of FOOD_DES.txt for expected search results: latin1 decoding and a regex per
 * line, sharing no code with the importer or the search route.
 */
export interface OracleFood {
  foodNumber: string;
  group: string;
  name: string;
}

let cache: OracleFood[] | undefined;

export function oracleFoods(): OracleFood[] {
  cache ??= sr28File("FOOD_DES.txt").toString("latin1")
    .split(/\r?\n/)
    .filter((line) => line.length > 0)
    .map((line) => {
      const match = /^~(\d{5})~\^~(\d{4})~\^~([^~]*)~/.exec(line);
      if (!match) throw new Error(`oracle cannot read: ${line.slice(0, 60)}`);
      return { foodNumber: match[1]!, group: match[2]!, name: match[3]! };
    });
  return cache;
}

/** Foods whose name contains every whitespace-separated term, ignoring case (SR28 names are ASCII). */
export function oracleMatches(q: string, group?: string): OracleFood[] {
  const terms = q.toLowerCase().split(/\s+/).filter(Boolean);
  return oracleFoods().filter(
    (food) => (group === undefined || food.group === group) && terms.every((term) => food.name.toLowerCase().includes(term)),
  );
}

/** NUT_DATA.txt read the same independent way: nutrient number → food number → value per 100 g. */
let valuesCache: Map<string, Map<string, number>> | undefined;

export function oracleNutrientValues(): Map<string, Map<string, number>> {
  if (!valuesCache) {
    valuesCache = new Map();
    for (const line of sr28File("NUT_DATA.txt").toString("latin1").split(/\r?\n/)) {
      if (line.length === 0) continue;
      const match = /^~(\d{5})~\^~(\d{3})~\^([0-9.]+)\^/.exec(line);
      if (!match) throw new Error(`oracle cannot read: ${line.slice(0, 60)}`);
      let byFood = valuesCache.get(match[2]!);
      if (!byFood) valuesCache.set(match[2]!, (byFood = new Map()));
      byFood.set(match[1]!, Number(match[3]!));
    }
  }
  return valuesCache;
}

/** NUTR_DEF.txt: nutrient number → unit. */
export function oracleNutrientUnits(): Map<string, string> {
  return new Map(
    sr28File("NUTR_DEF.txt").toString("latin1").split(/\r?\n/).filter(Boolean).map((line) => {
      const match = /^~(\d{3})~\^~([^~]*)~/.exec(line);
      if (!match) throw new Error(`oracle cannot read: ${line.slice(0, 60)}`);
      return [match[1]!, match[2]!] as const;
    }),
  );
}
