import { integer, sqliteTable } from "drizzle-orm/sqlite-core";

/** The one row /healthz rewrites to learn whether the state database takes writes (storage-health.ts). */
export const storageProbe = sqliteTable("storage_probe", {
  id: integer("id").primaryKey(),
  writtenAt: integer("written_at").notNull(),
});
