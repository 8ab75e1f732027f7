import type { SQL } from "bun";
import { foreignKeyLine, indexLine, normalizeCondition, type SchemaShape, type Snapshot } from "./schema-shape";

/**
 * The shape (schema-shape.ts) of a PostgreSQL schema, with the name of each constraint beside its line:
 * PostgreSQL names constraints itself where the DDL does not (`users_email_key`), drizzle-kit names them
 * all (`users_email_unique`), and a later generated migration that changes one finds it by drizzle-kit's
 * name.
 */
export interface PostgresShape {
  lines: SchemaShape;
  /** Each constraint's line → its table and name. */
  constraints: Map<string, { table: string; name: string }>;
}

/** The live shape of the current schema (`current_schema()`), without the tables in `ignore`. */
export async function postgresShape(sql: SQL, ignore: readonly string[] = []): Promise<PostgresShape> {
  const lines: string[] = [];
  const constraints: PostgresShape["constraints"] = new Map();
  const columns = (await sql`
    SELECT table_name, column_name, data_type, is_nullable, column_default, identity_generation
    FROM information_schema.columns WHERE table_schema = current_schema()
  `) as { table_name: string; column_name: string; data_type: string; is_nullable: string; column_default: string | null; identity_generation: string | null }[];
  const tables = new Set(columns.map((column) => column.table_name).filter((table) => !ignore.includes(table)));
  for (const table of tables) lines.push(`table ${table}`);
  for (const column of columns) {
    if (!tables.has(column.table_name)) continue;
    const name = `${column.table_name}.${column.column_name}`;
    lines.push(`column ${name} ${column.data_type}${column.is_nullable === "NO" ? " not null" : ""}`);
    if (column.identity_generation) lines.push(`identity ${name} ${column.identity_generation.toLowerCase()}`);
    else if (column.column_default !== null) lines.push(`default ${name} ${postgresDefault(column.column_default)}`);
  }
  const keys = (await sql`
    SELECT con.conname AS name, rel.relname AS table_name, con.contype AS type, ref.relname AS target,
      array_to_string(ARRAY(SELECT a.attname FROM unnest(con.conkey) WITH ORDINALITY k(n, i)
        JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.n ORDER BY k.i), ',') AS columns,
      array_to_string(ARRAY(SELECT a.attname FROM unnest(con.confkey) WITH ORDINALITY k(n, i)
        JOIN pg_attribute a ON a.attrelid = con.confrelid AND a.attnum = k.n ORDER BY k.i), ',') AS target_columns,
      con.confdeltype AS on_delete, con.confupdtype AS on_update, pg_get_constraintdef(con.oid) AS definition
    FROM pg_constraint con
    JOIN pg_class rel ON rel.oid = con.conrelid
    JOIN pg_namespace ns ON ns.oid = rel.relnamespace
    LEFT JOIN pg_class ref ON ref.oid = con.confrelid
    WHERE ns.nspname = current_schema() AND con.contype IN ('p', 'u', 'f', 'c')
  `) as { name: string; table_name: string; type: string; target: string | null; columns: string; target_columns: string; on_delete: string; on_update: string; definition: string }[];
  for (const key of keys) {
    if (!tables.has(key.table_name)) continue;
    const line = constraintLine(key);
    lines.push(line);
    constraints.set(line, { table: key.table_name, name: key.name });
  }
  const indexes = (await sql`
    SELECT ic.relname AS name, tc.relname AS table_name, i.indisunique AS is_unique, pg_get_expr(i.indpred, i.indrelid) AS condition,
      array_to_string(ARRAY(SELECT a.attname FROM unnest(i.indkey::int2[]) WITH ORDINALITY k(n, o)
        JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.n ORDER BY k.o), ',') AS columns
    FROM pg_index i
    JOIN pg_class ic ON ic.oid = i.indexrelid
    JOIN pg_class tc ON tc.oid = i.indrelid
    JOIN pg_namespace ns ON ns.oid = tc.relnamespace
    WHERE ns.nspname = current_schema()
      AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid AND c.contype IN ('p', 'u', 'x'))
  `) as { name: string; table_name: string; is_unique: boolean; condition: string | null; columns: string }[];
  for (const index of indexes) {
    if (tables.has(index.table_name)) lines.push(indexLine(index.name, index.table_name, index.columns.split(","), index.is_unique, index.condition));
  }
  return { lines: lines.sort(), constraints };
}

/** The shape drizzle-kit's PostgreSQL snapshot describes, with the names it gives constraints. */
export function postgresShapeOfSnapshot(snapshot: Snapshot): PostgresShape {
  const lines: string[] = [];
  const constraints: PostgresShape["constraints"] = new Map();
  for (const table of Object.values(snapshot.tables)) {
    const name = table.name;
    const constraint = (line: string, constraintName: string) => {
      lines.push(line);
      constraints.set(line, { table: name, name: constraintName });
    };
    lines.push(`table ${name}`);
    for (const column of Object.values(table.columns)) {
      lines.push(`column ${name}.${column.name} ${column.type}${column.notNull || column.primaryKey ? " not null" : ""}`);
      if (column.identity) lines.push(`identity ${name}.${column.name} ${column.identity.type === "byDefault" ? "by default" : column.identity.type}`);
      else if (column.default !== undefined) lines.push(`default ${name}.${column.name} ${postgresDefault(String(column.default))}`);
      // A column's own primary key is named as PostgreSQL names it.
      if (column.primaryKey) constraint(`primary key ${name} (${column.name})`, `${name}_pkey`);
    }
    for (const key of Object.values(table.compositePrimaryKeys)) constraint(`primary key ${name} (${key.columns.join(", ")})`, key.name);
    for (const unique of Object.values(table.uniqueConstraints)) constraint(`unique ${name} (${unique.columns.join(", ")})`, unique.name);
    for (const key of Object.values(table.foreignKeys)) constraint(foreignKeyLine(name, key.columnsFrom, key.tableTo, key.columnsTo, key.onDelete, key.onUpdate), key.name);
    for (const check of Object.values(table.checkConstraints)) constraint(`check ${name} ${normalizeCondition(check.value)}`, check.name);
    for (const index of Object.values(table.indexes)) {
      const columns = index.columns.map((column) => (typeof column === "string" ? column : column.expression));
      lines.push(indexLine(index.name, name, columns, index.isUnique, index.where));
    }
  }
  return { lines: lines.sort(), constraints };
}

const ACTIONS: Record<string, string> = { a: "no action", r: "restrict", c: "cascade", n: "set null", d: "set default" };

function constraintLine(key: { table_name: string; type: string; target: string | null; columns: string; target_columns: string; on_delete: string; on_update: string; definition: string }): string {
  const columns = key.columns.split(",");
  switch (key.type) {
    case "p":
      return `primary key ${key.table_name} (${columns.join(", ")})`;
    case "u":
      return `unique ${key.table_name} (${columns.join(", ")})`;
    case "f":
      return foreignKeyLine(key.table_name, columns, key.target!, key.target_columns.split(","), ACTIONS[key.on_delete], ACTIONS[key.on_update]);
    default:
      return `check ${key.table_name} ${normalizeCondition(key.definition.replace(/^CHECK\s*/i, ""))}`;
  }
}

/** A default without PostgreSQL's cast (`'x'::text` → `'x'`), in lower case. */
const postgresDefault = (value: string) => value.replace(/::[a-z ]+(\[\])?$/i, "").toLowerCase();
