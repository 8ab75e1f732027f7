import type { Database } from "bun:sqlite";

/**
 * `nutrient_rankings`: for each nutrient, the foods that have a value, ordered by value then food id, with
 * their values (see sqlite-schema.ts). A search sorted or filtered by a nutrient then reads one row (tens
 * of KB) instead of scanning the 679,045 rows of `nutrient_values`, and needs no sort of its own.
 *
 * Collected while NUT_DATA.txt is loaded (`add`, per row), so the import reads nothing twice.
 */
export class NutrientRankingsBuilder {
  private readonly byNutrient = new Map<string, { ids: number[]; values: number[] }>();

  add(nutrientNumber: string, foodId: number, value: number): void {
    let column = this.byNutrient.get(nutrientNumber);
    if (!column) this.byNutrient.set(nutrientNumber, (column = { ids: [], values: [] }));
    column.ids.push(foodId);
    column.values.push(value);
  }

  /** Writes one row per nutrient; returns how many. */
  store(db: Database): number {
    const insert = db.prepare('INSERT INTO nutrient_rankings (nutrient_number, food_ids, "values") VALUES (?, ?, ?)');
    for (const [number, { ids, values }] of this.byNutrient) {
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
    return this.byNutrient.size;
  }
}
