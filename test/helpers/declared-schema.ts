import { generateDrizzleJson, generateSQLiteDrizzleJson } from "drizzle-kit/api";
import * as postgresTables from "../../src/app/state/postgres-tables";
import * as sqliteTables from "../../src/app/state/sqlite-tables";
import { postgresShapeOfSnapshot } from "../../src/platform/storage/postgres-shape";
import { baselineVersion, latestVersion, type SchemaHistory } from "../../src/platform/storage/schema-history";
import type { SchemaShape, Snapshot } from "../../src/platform/storage/schema-shape";
import { sqliteShapeOfSnapshot } from "../../src/platform/storage/sqlite-shape";

/**
 * The state schema the declared tables describe (src/<capability>/tables.ts, gathered in src/app/state/),
 * as drizzle-kit serializes them in process: what a live database is held to, line for line.
 */
export const declaredSqliteShape = async (): Promise<SchemaShape> => sqliteShapeOfSnapshot((await generateSQLiteDrizzleJson(sqliteTables)) as unknown as Snapshot);

export const declaredPostgresShape = (): SchemaShape => postgresShapeOfSnapshot(generateDrizzleJson(postgresTables) as unknown as Snapshot).lines;

/** The rows of `foodapi_schema` on a database that started new: the baseline and every generated step after it. */
export const versionsOfNewDatabase = (history: SchemaHistory) =>
  Array.from({ length: latestVersion(history) - baselineVersion(history) + 1 }, (_, i) => ({ version: baselineVersion(history) + i }));
