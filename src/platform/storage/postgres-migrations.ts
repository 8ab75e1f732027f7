import type { SQL, TransactionSQL } from "bun";
import { postgresShape, postgresShapeOfSnapshot } from "./postgres-shape";
import { baselineVersion, latestVersion, type SchemaHistory } from "./schema-history";
import { shapeDifferences } from "./schema-shape";
import { StateStoreUnusable } from "./storage-fault";

/**
 * The two-key advisory lock that migrations run under: instances starting together on one database take
 * turns, and the later ones find the schema applied. Its own key space ("food", 0): the stores' own locks
 * use other first keys.
 */
const MIGRATION_LOCK = [0x666f_6f64, 0] as const;
/** Migrations may wait for another instance's migrations, and a future one may rewrite a large table. */
const MIGRATION_STATEMENT_TIMEOUT = "5min";
/** The migration runner's own table: one row per step applied, the schema's version the highest. */
const VERSIONS_TABLE = "foodapi_schema";

/**
 * Brings the database to the latest version of `history` (schema-history.ts), all in one transaction
 * under the migration lock: of instances starting together on an empty database one applies it, the
 * others wait for its commit and find nothing to do; an instance killed halfway leaves nothing applied.
 * Each step is recorded in `foodapi_schema` (its version the primary key: a step applied twice is an
 * error, not a silent double). The schema versions it went from and to, if any. `where` names the
 * database in a refusal (StateStoreUnusable).
 */
export async function migratePostgres(client: SQL, where: string, history: SchemaHistory): Promise<{ from: number; to: number } | null> {
  const latest = latestVersion(history);
  const legacyEnd = history.legacy.length;
  return await client.begin(async (tx) => {
    await tx.unsafe(`SET LOCAL statement_timeout = '${MIGRATION_STATEMENT_TIMEOUT}'`);
    await tx`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK[0]}, ${MIGRATION_LOCK[1]})`;
    await tx.unsafe(`CREATE TABLE IF NOT EXISTS ${VERSIONS_TABLE} (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
    const [{ version: from }] = (await tx.unsafe(`SELECT coalesce(max(version), 0)::integer AS version FROM ${VERSIONS_TABLE}`)) as [{ version: number }];
    if (from > latest) {
      throw new StateStoreUnusable(`the state database ${where} is at schema version ${from}, newer than this foodapi knows (${latest}); run the newer version`);
    }
    let version = from;
    const record = async (next: number) => {
      await tx.unsafe(`INSERT INTO ${VERSIONS_TABLE} (version) VALUES ($1)`, [next]);
      version = next;
    };
    // A new database starts from the baseline, not from the legacy history.
    if (version === 0) {
      await applyGenerated(tx, history, 0);
      await record(baselineVersion(history));
    }
    while (version < legacyEnd) {
      await tx.unsafe(history.legacy[version]!).simple();
      await record(version + 1);
    }
    if (version === legacyEnd) {
      await adopt(tx, where, history);
      await record(baselineVersion(history));
    }
    while (version < latest) {
      await applyGenerated(tx, history, version - legacyEnd);
      await record(version + 1);
    }
    return from === latest ? null : { from, to: latest };
  });
}

async function applyGenerated(tx: TransactionSQL, history: SchemaHistory, index: number): Promise<void> {
  for (const statement of history.generated[index]!.statements) await tx.unsafe(statement);
}

/**
 * A database at the legacy history's end becomes one at the baseline: its schema must be the baseline's
 * (held to the baseline's snapshot, everything but names), and its constraints then take the names
 * drizzle-kit gave them, which later generated migrations use.
 */
async function adopt(tx: TransactionSQL, where: string, history: SchemaHistory): Promise<void> {
  const expected = postgresShapeOfSnapshot(history.baseline);
  const live = await postgresShape(tx, [VERSIONS_TABLE]);
  const differences = shapeDifferences(expected.lines, live.lines);
  if (differences.length > 0) {
    throw new StateStoreUnusable(
      `the state database ${where} is at schema version ${history.legacy.length} but its tables are not that version's (${differences.slice(0, 3).join("; ")}${differences.length > 3 ? `; ${differences.length - 3} more` : ""}); restore a dump made by pg_dump before the change`,
    );
  }
  for (const [line, { table, name }] of live.constraints) {
    const wanted = expected.constraints.get(line)!.name;
    if (wanted !== name) await tx.unsafe(`ALTER TABLE ${quote(table)} RENAME CONSTRAINT ${quote(name)} TO ${quote(wanted)}`);
  }
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;
