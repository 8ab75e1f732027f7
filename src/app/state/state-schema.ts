import type { SchemaHistory } from "../../platform/storage/schema-history";
import { LEGACY_POSTGRES_MIGRATIONS } from "./legacy-postgres-migrations";
import { LEGACY_SQLITE_MIGRATIONS } from "./legacy-sqlite-migrations";
import { postgresMigrations, sqliteMigrations } from "./state-migrations" with { type: "macro" };

/**
 * The state schema of each backend (design §10, "Tables and migrations"): the migrations drizzle-kit
 * generated from the declared tables (sqlite-tables.ts, postgres-tables.ts), embedded when the code is
 * bundled (state-migrations.ts), after the frozen hand-written history of the releases before them.
 */
export const SQLITE_SCHEMA: SchemaHistory = { legacy: LEGACY_SQLITE_MIGRATIONS, ...sqliteMigrations() };

export const POSTGRES_SCHEMA: SchemaHistory = { legacy: LEGACY_POSTGRES_MIGRATIONS, ...postgresMigrations() };
