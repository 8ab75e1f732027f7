import { bigint, integer, pgTable, timestamp } from "drizzle-orm/pg-core";

/** The one row /healthz rewrites to learn whether the state takes writes (storage-health.ts). */
export const storageProbe = pgTable("storage_probe", {
  id: integer("id").primaryKey(),
  writtenAt: bigint("written_at", { mode: "number" }).notNull(),
});

/**
 * The migrations applied (platform/storage/postgres-migrations.ts), one row each: the schema's version is the highest,
 * and the primary key makes applying one twice an error instead of a silent double.
 */
export const schemaVersions = pgTable("foodapi_schema", {
  version: integer("version").primaryKey(),
  appliedAt: timestamp("applied_at", { withTimezone: true }).notNull().defaultNow(),
});
