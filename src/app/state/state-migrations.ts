import { drizzleFolder } from "../../platform/storage/drizzle-folder";
import { latestVersion } from "../../platform/storage/schema-history";
import { LEGACY_SQLITE_MIGRATIONS } from "./legacy-sqlite-migrations";

/**
 * The folders drizzle-kit generates the state's migrations into (drizzle-*.config.ts), read when the code is
 * bundled: every export here is a macro (imported `with { type: "macro" }`), so the binary carries what
 * they return, not the files. state-schema.ts embeds the migrations; sqlite-state.ts only the version they
 * reach, so that a start loads the history only for a database at another version.
 */
export const sqliteMigrations = () => drizzleFolder("src/app/state/migrations/sqlite");

export const postgresMigrations = () => drizzleFolder("src/app/state/migrations/postgres");

/** The version the SQLite history reaches (schema-history.ts `latestVersion`). */
export const sqliteSchemaVersion = (): number => latestVersion({ legacy: LEGACY_SQLITE_MIGRATIONS, ...sqliteMigrations() });
