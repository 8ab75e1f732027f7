import type { Database } from "bun:sqlite";

/**
 * `nutrient_rankings`: for each nutrient, the foods that have a value, ordered by value then food id, with
 * their values (see sqlite-schema.ts). A search sorted or filtered by a nutrient then reads one row (tens
 * of KB) instead of scanning the 679,045 rows of `nutrient_values`, and needs no sort of its own.
 *
 * Collected while NUT_DATA.txt is loaded (`add`, per row), so the import reads nothing twice.
 */
export class NutrientRankingsBuilder {
  /** Indexed by Nutr_No as a number (3 digits): a Map keyed by each row's freshly read string hashed it 679,045 times. */
  private readonly byNutrient: ({ number: string; ids: number[]; values: number[] } | undefined)[] = [];

  add(nutrientNumber: string, foodId: number, value: number): void {
    const index = Number(nutrientNumber);
    let column = this.byNutrient[index];
    if (!column) this.byNutrient[index] = column = { number: nutrientNumber, ids: [], values: [] };
    column.ids.push(foodId);
    column.values.push(value);
  }

  /** Writes one row per nutrient; returns how many. */
  store(db: Database): number {
    const insert = db.prepare('INSERT INTO nutrient_rankings (nutrient_number, food_ids, "values") VALUES (?, ?, ?)');
    let count = 0;
    for (const column of this.byNutrient) {
      if (!column) continue;
      const { number, ids, values } = column;
      count++;
      const order = ids.map((_, i) => i);
      order.sort((a, b) => values[a]! - values[b]! || ids[a]! - ids[b]!);
      const foodIds = new DataView(new ArrayBuffer(order.length * 4));
      const sortedValues = new DataView(new ArrayBuffer(order.length * 8));
      // Little-endian whatever the machine: the catalog is built on one machine and read on others.
      order.forEach((from, i) => {
        foodIds.setInt32(i * 4, ids[from]!, true);
        sortedValues.setFloat64(i * 8, values[from]!, true);
      });
      insert.run(number, new Uint8Array(foodIds.buffer), new Uint8Array(sortedValues.buffer));
    }
    insert.finalize();
    return count;
  }
}
