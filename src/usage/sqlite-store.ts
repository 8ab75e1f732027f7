import { and, asc, eq, gte } from "drizzle-orm";
import { onFirstUse } from "../platform/first-use";
import type { StateDb } from "../platform/storage/state-db";
import { keyUsage as keyUsageTable } from "./tables";
import type { UsageDelta, UsageStore } from "./store";

/** Usage counts in the state database, shared by every process on the data directory. */
export function createSqliteUsageStore({ db, sqlite }: StateDb): UsageStore {
  const keyUsage = keyUsageTable.sqlite;
  // Only keys that still exist get a row (SELECT … FROM api_keys): a flush racing an account's deletion
  // finds its keys gone and adds nothing. The write lock makes the add atomic across processes. Prepared at
  // the first flush, not at the start.
  const addOne = onFirstUse(() =>
    sqlite.query<unknown, [string, number, number, number]>(
      `INSERT INTO key_usage (key_id, hour, allowed, refused)
     SELECT id, ?2, ?3, ?4 FROM api_keys WHERE id = ?1
     ON CONFLICT (key_id, hour) DO UPDATE SET allowed = allowed + excluded.allowed, refused = refused + excluded.refused`,
    ),
  );
  const add = sqlite.transaction((deltas: readonly UsageDelta[]) => {
    const statement = addOne();
    for (const d of deltas) statement.run(d.keyId, d.hour, d.allowed, d.refused);
  });
  const sweep = onFirstUse(() =>
    sqlite.query<unknown, [number, number]>("DELETE FROM key_usage WHERE (key_id, hour) IN (SELECT key_id, hour FROM key_usage WHERE hour < ?1 LIMIT ?2)"),
  );
  return {
    add(deltas) {
      if (deltas.length > 0) add.immediate(deltas);
    },
    hours: (keyId, since) =>
      db
        .select({ hour: keyUsage.hour, allowed: keyUsage.allowed, refused: keyUsage.refused })
        .from(keyUsage)
        .where(and(eq(keyUsage.keyId, keyId), gte(keyUsage.hour, since)))
        .orderBy(asc(keyUsage.hour))
        .all(),
    sweep: (before, batch) => sweep().run(before, batch).changes,
  };
}
