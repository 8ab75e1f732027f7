import { Database } from "bun:sqlite";
import { createFileBeside } from "../../platform/storage/file-beside";
import { CATALOG_DDL } from "../sqlite-schema";
import { foldForSearch } from "../fold";
import { storeFoodDetails } from "./sqlite-details";
import { NutrientRankingsBuilder } from "./sqlite-rankings";
import { openSr28Source, verifySr28Source } from "./source";
import { readSr28File, Sr28FormatError, SR28_FILES, type Sr28File, type Sr28Rows } from "./sr28-format";

/**
 * Builds the catalog database from SR28's ASCII files. The database is written to a temporary file next
 * to the target and renamed into place only when complete, so a missing file, a malformed row or an
 * interrupt never leaves a half-built catalog where a server would open it.
 */

export interface ImportCounts {
  foods: number;
  foodGroups: number;
  nutrients: number;
  nutrientValues: number;
  portions: number;
  footnotes: number;
  derivations: number;
}

export interface ImportOptions {
  /** A directory of SR28's `.txt` or `.txt.zst` files, or the USDA's sr28asc.zip (see ./source.ts). */
  readonly source: string;
  readonly outPath: string;
  /** Called with human-readable progress lines. */
  readonly progress?: (message: string) => void;
  /** Aborting stops the import at the next batch and removes the partial file. */
  readonly signal?: AbortSignal;
}

export class ImportAborted extends Error {
  constructor() {
    super("import interrupted; no catalog was written");
  }
}

/** Rows between two yields to the event loop, so that an interrupt is seen promptly. */
const BATCH = 25_000;

export async function importSr28(options: ImportOptions): Promise<ImportCounts> {
  const { outPath, progress = () => {}, signal } = options;
  const started = performance.now();

  // Every file is checked to exist (and, for the release, to be unaltered) before anything is written.
  const source = openSr28Source(options.source);
  progress(verifySr28Source(source).note);
  for (const file of Object.values(SR28_FILES)) {
    if (!source.has(file.name)) throw new Sr28FormatError(file.name, null, `missing from ${source.label}`);
  }

  // Public data, readable by whoever serves it.
  const partial = createFileBeside(outPath, 0o644);
  let db: Database;
  try {
    db = new Database(partial.path, { create: false, readwrite: true, strict: true });
  } catch (error) {
    partial.remove();
    throw error;
  }
  let committed = false;
  try {
    // Food details are ~2 KB blobs: on 4 KB pages most would leave half a page empty.
    db.run("PRAGMA page_size = 16384");
    // Nothing is durable until the rename, so the import needs no journal of its own.
    db.run("PRAGMA journal_mode = OFF");
    db.run("PRAGMA synchronous = OFF");
    db.run("PRAGMA foreign_keys = OFF");
    db.run("BEGIN");
    db.run(CATALOG_DDL);

    const load = async (file: Sr28File, sql: string, toParams: (r: Sr28Rows) => (string | number | null)[]) => {
      const rows = readSr28File(file, source.read(file.name));
      const insert = db.prepare(sql);
      let count = 0;
      while (rows.next()) {
        const params = toParams(rows);
        try {
          insert.run(...params);
        } catch (error) {
          // A constraint failure here is a duplicate key: report it against the row that caused it.
          throw new Sr28FormatError(file.name, rows.line, `cannot be stored (${(error as Error).message})`);
        }
        if (++count % BATCH === 0) {
          if (count % (BATCH * 4) === 0) progress(`  ${file.name}: ${Math.round(rows.progress * 100)}%`);
          await yieldToSignals(signal);
        }
      }
      insert.finalize();
      progress(`${file.name}: ${count} rows`);
      await yieldToSignals(signal);
      return count;
    };

    const rankings = new NutrientRankingsBuilder();
    // The codes each file defines, so that a row of a later file naming one that does not exist is refused
    // with its own line (the files are loaded in an order where every reference points back).
    const known = { groups: new Set<string>(), derivations: new Set<string>(), nutrients: new Set<string>(), foods: new Set<string>() };
    /** A child row's food (its first field, NDB_No), as the integer id the tables use. */
    const foodIdOf = (r: Sr28Rows) => Number(r.reference(r.digits(0, "NDB_No", 5), "NDB_No", known.foods, "FOOD_DES.txt"));
    const counts: ImportCounts = {
      foodGroups: await load(SR28_FILES.foodGroups, "INSERT INTO food_groups VALUES (?, ?)", (r) => [
        defines(known.groups, r.digits(0, "FdGrp_Cd", 4)),
        r.text(1, "FdGrp_Desc"),
      ]),
      derivations: await load(SR28_FILES.derivations, "INSERT INTO derivations VALUES (?, ?)", (r) => [
        defines(known.derivations, r.text(0, "Deriv_Cd")),
        r.text(1, "Deriv_Desc"),
      ]),
      nutrients: await load(SR28_FILES.nutrients, "INSERT INTO nutrients VALUES (?, ?, ?, ?, ?, ?)", (r) => [
        defines(known.nutrients, r.digits(0, "Nutr_No", 3)),
        r.text(3, "NutrDesc"),
        r.text(1, "Units"),
        r.optionalText(2),
        r.number(4, "Num_Dec"),
        r.number(5, "SR_Order"),
      ]),
      foods: await load(
        SR28_FILES.foods,
        "INSERT INTO foods VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (r) => {
          const foodNumber = defines(known.foods, r.digits(0, "NDB_No", 5));
          const name = r.text(2, "Long_Desc");
          return [
            Number(foodNumber), foodNumber, r.reference(r.digits(1, "FdGrp_Cd", 4), "FdGrp_Cd", known.groups, "FD_GROUP.txt"),
            name, foldForSearch(name),
            r.text(3, "Shrt_Desc"), r.optionalText(4), r.optionalText(5), r.optionalText(9),
            r.optionalNumber(8, "Refuse"), r.optionalText(7),
            r.optionalNumber(10, "N_Factor"), r.optionalNumber(11, "Pro_Factor"),
            r.optionalNumber(12, "Fat_Factor"), r.optionalNumber(13, "CHO_Factor"),
          ];
        },
      ),
      nutrientValues: await load(SR28_FILES.nutrientValues, "INSERT INTO nutrient_values VALUES (?, ?, ?, ?, ?, ?)", (r) => {
        const foodId = foodIdOf(r);
        const nutrientNumber = r.reference(r.digits(1, "Nutr_No", 3), "Nutr_No", known.nutrients, "NUTR_DEF.txt");
        const value = r.number(2, "Nutr_Val");
        const derivation = r.optionalText(6);
        if (derivation !== null) r.reference(derivation, "Deriv_Cd", known.derivations, "DERIV_CD.txt");
        rankings.add(nutrientNumber, foodId, value);
        return [foodId, nutrientNumber, value, r.number(3, "Num_Data_Pts"), r.optionalNumber(4, "Std_Error"), derivation];
      }),
      portions: await load(SR28_FILES.portions, "INSERT INTO portions VALUES (?, ?, ?, ?, ?)", (r) => [
        foodIdOf(r),
        r.number(1, "Seq"),
        r.number(2, "Amount"),
        r.text(3, "Msre_Desc"),
        r.number(4, "Gm_Wgt"),
      ]),
      footnotes: await load(SR28_FILES.footnotes, "INSERT INTO footnotes VALUES (?, ?, ?, ?, ?)", (r) => [
        foodIdOf(r),
        r.text(1, "Footnt_No"),
        r.text(2, "Footnt_Typ"),
        r.optionalText(3),
        r.text(4, "Footnt_Txt"),
      ]),
    };

    db.run("INSERT INTO food_search (rowid, search_name) SELECT id, search_name FROM foods");
    db.run("INSERT INTO food_search (food_search) VALUES ('optimize')");
    progress(`nutrient rankings: ${rankings.store(db)} nutrients ordered`);
    await yieldToSignals(signal);
    const details = await storeFoodDetails(db, () => yieldToSignals(signal));
    progress(`food details: ${details} answers prepared`);
    const info = db.prepare("INSERT INTO catalog_info VALUES (?, ?)");
    for (const [key, value] of Object.entries(counts)) info.run(`count.${key}`, String(value));
    info.run("release", "SR28");
    info.run("importedAt", new Date().toISOString());
    info.finalize();
    db.run("COMMIT");
    db.run("ANALYZE");
    db.close();
    committed = true;
    partial.putInPlace();
    progress(`catalog written to ${outPath} in ${((performance.now() - started) / 1000).toFixed(2)} s`);
    return counts;
  } finally {
    if (!committed) db.close();
    partial.remove();
  }
}

function defines(codes: Set<string>, code: string): string {
  codes.add(code);
  return code;
}

async function yieldToSignals(signal: AbortSignal | undefined): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
  if (signal?.aborted) throw new ImportAborted();
}
