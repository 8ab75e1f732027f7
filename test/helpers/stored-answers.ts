import type { Database } from "bun:sqlite";
import type { AnswerFile } from "../../src/catalog/answer-file";

/**
 * Every food's stored answer in `answers` against the imported catalog's `food_details` (the importer's
 * etag, zstd and gzip forms; the JSON is the gzip form inflated): the foods whose answer differs in any
 * form, and how many foods the file holds.
 */
export function differingAnswers(answers: AnswerFile, imported: Database): { foods: number; differing: number[] } {
  const rows = imported.query<{ id: number; etag: string; zstd: Uint8Array; gzip: Uint8Array<ArrayBuffer> }, []>("SELECT food_id AS id, etag, zstd, gzip FROM food_details ORDER BY food_id").all();
  const differing: number[] = [];
  for (const row of rows) {
    const json = Bun.gunzipSync(row.gzip);
    const same = (form: "identity" | "zstd" | "gzip", want: Uint8Array) => {
      const got = answers.answer(row.id, form);
      return got !== undefined && got.etag === row.etag && Buffer.compare(got.body, want) === 0;
    };
    if (!same("identity", json) || !same("zstd", row.zstd) || !same("gzip", row.gzip)) differing.push(row.id);
  }
  return { foods: answers.size, differing };
}
