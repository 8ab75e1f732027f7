/**
 * A database schema as a sorted list of lines, one per fact ("column users.email text not null", "unique
 * users (email)", "index api_keys_revoked_idx on api_keys (revoked_at) where revoked_at is not null"):
 * read from a live database or from drizzle-kit's snapshot of the declared tables, in the same words, so
 * that the two compare line for line and a difference names itself. Names the database gives (constraint
 * names, SQLite's automatic indexes) and physical choices (WITHOUT ROWID) are not part of it.
 */
export type SchemaShape = string[];

/** What is in `actual` and not in `expected` ("unexpected …") and the reverse ("missing …"). */
export function shapeDifferences(expected: SchemaShape, actual: SchemaShape): string[] {
  const want = new Set(expected);
  const have = new Set(actual);
  return [...expected.filter((line) => !have.has(line)).map((line) => `missing ${line}`), ...actual.filter((line) => !want.has(line)).map((line) => `unexpected ${line}`)];
}

/**
 * An SQL condition in one spelling: without quotes, table qualifiers or wrapping parentheses, in lower
 * case, spaces collapsed. `"api_keys"."revoked_at" is not null` (drizzle-kit) and `(revoked_at IS NOT NULL)`
 * (PostgreSQL's catalog) read the same.
 */
export function normalizeCondition(condition: string): string {
  let text = condition
    .replace(/["`]/g, "")
    .replace(/\b[a-z_][a-z0-9_]*\.(?=[a-z_])/gi, "")
    .replace(/\s+/g, " ")
    .replace(/\(\s/g, "(")
    .replace(/\s\)/g, ")")
    .trim()
    .toLowerCase();
  while (wrapped(text)) text = text.slice(1, -1).trim();
  return text;
}

/** Whether the whole text is one parenthesised group: "(a) and (b)" is not. */
function wrapped(text: string): boolean {
  if (!text.startsWith("(") || !text.endsWith(")")) return false;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === "(") depth++;
    else if (text[i] === ")") depth--;
    if (depth === 0 && i < text.length - 1) return false;
  }
  return true;
}

/** The lines of drizzle-kit's snapshot (meta/NNNN_snapshot.json) that both dialects' snapshots share. */
interface SnapshotTable {
  name: string;
  columns: Record<string, { name: string; type: string; primaryKey: boolean; notNull: boolean; default?: unknown; autoincrement?: boolean; identity?: { type: string } }>;
  indexes: Record<string, { name: string; columns: (string | { expression: string })[]; isUnique: boolean; where?: string }>;
  foreignKeys: Record<string, { name: string; tableFrom: string; tableTo: string; columnsFrom: string[]; columnsTo: string[]; onDelete?: string; onUpdate?: string }>;
  compositePrimaryKeys: Record<string, { name: string; columns: string[] }>;
  uniqueConstraints: Record<string, { name: string; columns: string[] }>;
  checkConstraints: Record<string, { name: string; value: string }>;
}

export interface Snapshot {
  tables: Record<string, SnapshotTable>;
}

export const foreignKeyLine = (table: string, columns: string[], target: string, targetColumns: string[], onDelete = "no action", onUpdate = "no action") =>
  `foreign key ${table} (${columns.join(", ")}) references ${target} (${targetColumns.join(", ")}) on delete ${onDelete.toLowerCase()} on update ${onUpdate.toLowerCase()}`;

export const indexLine = (name: string, table: string, columns: string[], unique: boolean, where: string | null | undefined) =>
  `index ${name} on ${table} (${columns.join(", ")})${unique ? " unique" : ""}${where ? ` where ${normalizeCondition(where)}` : ""}`;
