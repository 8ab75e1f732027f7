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
