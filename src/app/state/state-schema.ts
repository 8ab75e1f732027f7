import { drizzleFolder } from "../../platform/storage/drizzle-folder" with { type: "macro" };
import type { SchemaHistory } from "../../platform/storage/schema-history";
import { LEGACY_POSTGRES_MIGRATIONS } from "./legacy-postgres-migrations";
import { LEGACY_SQLITE_MIGRATIONS } from "./legacy-sqlite-migrations";

/**
 * The state schema of each backend (design §10, "Tables and migrations"): the migrations drizzle-kit
 * generated from the declared tables (sqlite-tables.ts, postgres-tables.ts), embedded when the code is
 * bundled, after the frozen hand-written history of the releases before them.
 */
export const SQLITE_SCHEMA: SchemaHistory = { legacy: LEGACY_SQLITE_MIGRATIONS, ...drizzleFolder("src/app/state/migrations/sqlite") };

export const POSTGRES_SCHEMA: SchemaHistory = { legacy: LEGACY_POSTGRES_MIGRATIONS, ...drizzleFolder("src/app/state/migrations/postgres") };
