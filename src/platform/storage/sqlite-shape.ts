import type { Database } from "bun:sqlite";
import { foreignKeyLine, indexLine, normalizeCondition, type SchemaShape, type Snapshot } from "./schema-shape";

/**
 * The shape (schema-shape.ts) of a live SQLite database, read from `sqlite_schema` and the table pragmas.
 * A unique constraint and a unique index without condition are one fact ("unique t (c)"): SQLite keeps
 * the first as an automatic index, drizzle-kit writes the second. Primary key columns count as not null
 * (SQLite lets a non-integer one hold NULL unless it says NOT NULL; no row of ours has one).
 */
export function sqliteShape(db: Database): SchemaShape {
  const lines: string[] = [];
  const tables = db
    .query<{ name: string; sql: string }, []>("SELECT name, sql FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'")
    .all();
  const indexSql = new Map(
    db
      .query<{ name: string; sql: string | null }, []>("SELECT name, sql FROM sqlite_schema WHERE type = 'index'")
      .all()
      .map((index) => [index.name, index.sql]),
  );
  for (const table of tables) {
    const name = table.name;
    lines.push(`table ${name}`);
    const columns = db.query<{ name: string; type: string; notnull: number; dflt_value: string | null; pk: number }, []>(`PRAGMA table_info(${quote(name)})`).all();
    const keyColumns = columns.filter((column) => column.pk > 0).sort((a, b) => a.pk - b.pk);
    const autoincrement = /\bAUTOINCREMENT\b/i.test(table.sql);
    for (const column of columns) {
      const rowid = autoincrement && column.pk > 0;
      lines.push(`column ${name}.${column.name} ${column.type.toLowerCase()}${column.notnull || column.pk ? " not null" : ""}${rowid ? " autoincrement" : ""}`);
      if (column.dflt_value !== null) lines.push(`default ${name}.${column.name} ${sqliteDefault(column.dflt_value)}`);
    }
    if (keyColumns.length > 0) lines.push(`primary key ${name} (${keyColumns.map((column) => column.name).join(", ")})`);
    for (const index of db.query<{ name: string; unique: number; origin: string; partial: number }, []>(`PRAGMA index_list(${quote(name)})`).all()) {
      if (index.origin === "pk") continue;
      const indexed = db
        .query<{ name: string }, []>(`PRAGMA index_info(${quote(index.name)})`)
        .all()
        .map((column) => column.name);
      if (index.unique && !index.partial) lines.push(`unique ${name} (${indexed.join(", ")})`);
      else lines.push(indexLine(index.name, name, indexed, index.unique === 1, /\bWHERE\b([\s\S]*)$/i.exec(indexSql.get(index.name) ?? "")?.[1]));
    }
    const keys = new Map<number, { table: string; from: string[]; to: string[]; on_delete: string; on_update: string }>();
    for (const key of db.query<{ id: number; table: string; from: string; to: string; on_delete: string; on_update: string }, []>(`PRAGMA foreign_key_list(${quote(name)})`).all()) {
      const entry = keys.get(key.id) ?? { ...key, from: [], to: [] };
      entry.from.push(key.from);
      entry.to.push(key.to);
      keys.set(key.id, entry);
    }
    for (const key of keys.values()) lines.push(foreignKeyLine(name, key.from, key.table, key.to, key.on_delete, key.on_update));
    for (const check of checks(table.sql)) lines.push(`check ${name} ${normalizeCondition(check)}`);
  }
  return lines.sort();
}

/** The shape of the database drizzle-kit's SQLite snapshot describes. */
export function sqliteShapeOfSnapshot(snapshot: Snapshot): SchemaShape {
  const lines: string[] = [];
  for (const table of Object.values(snapshot.tables)) {
    const name = table.name;
    lines.push(`table ${name}`);
    for (const column of Object.values(table.columns)) {
      lines.push(`column ${name}.${column.name} ${column.type.toLowerCase()}${column.notNull || column.primaryKey ? " not null" : ""}${column.autoincrement ? " autoincrement" : ""}`);
      if (column.default !== undefined) lines.push(`default ${name}.${column.name} ${sqliteDefault(String(column.default))}`);
      if (column.primaryKey) lines.push(`primary key ${name} (${column.name})`);
    }
    for (const key of Object.values(table.compositePrimaryKeys)) lines.push(`primary key ${name} (${key.columns.join(", ")})`);
    for (const unique of Object.values(table.uniqueConstraints)) lines.push(`unique ${name} (${unique.columns.join(", ")})`);
    for (const index of Object.values(table.indexes)) {
      const columns = index.columns.map((column) => (typeof column === "string" ? column : column.expression));
      if (index.isUnique && !index.where) lines.push(`unique ${name} (${columns.join(", ")})`);
      else lines.push(indexLine(index.name, name, columns, index.isUnique, index.where));
    }
    for (const key of Object.values(table.foreignKeys)) lines.push(foreignKeyLine(name, key.columnsFrom, key.tableTo, key.columnsTo, key.onDelete, key.onUpdate));
    for (const check of Object.values(table.checkConstraints)) lines.push(`check ${name} ${normalizeCondition(check.value)}`);
  }
  return lines.sort();
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** SQLite reads `false` and `true` as 0 and 1: one spelling for both. */
const sqliteDefault = (value: string) => ({ false: "0", true: "1" })[value.toLowerCase()] ?? value;

/** The conditions of a CREATE TABLE's CHECK constraints, each up to its matching parenthesis. */
function checks(createTable: string): string[] {
  const found: string[] = [];
  for (const match of createTable.matchAll(/\bCHECK\s*\(/gi)) {
    const start = match.index + match[0].length;
    let depth = 1;
    let end = start;
    for (; end < createTable.length && depth > 0; end++) {
      if (createTable[end] === "(") depth++;
      else if (createTable[end] === ")") depth--;
    }
    found.push(createTable.slice(start, end - 1));
  }
  return found;
}
