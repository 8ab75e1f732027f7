import type { Snapshot } from "./schema-shape";

/** One migration drizzle-kit generated (src/app/state/migrations/<dialect>/NNNN_name.sql), split at its statement breakpoints. */
export interface GeneratedMigration {
  tag: string;
  statements: string[];
}

/**
 * A state schema's whole history (design §10, "Tables and migrations"). Schema versions count steps:
 * `legacy` are the hand-written steps of the releases before the tables were declared (versions 1 to
 * legacy.length), frozen; `generated` are drizzle-kit's migrations from the declared tables, the first of
 * them the baseline (version legacy.length + 1), which makes the legacy history's end from nothing. A new
 * database starts at the baseline; one at the legacy end is adopted: held to `baseline`, then recorded.
 */
export interface SchemaHistory {
  legacy: readonly string[];
  generated: readonly GeneratedMigration[];
  /** drizzle-kit's snapshot of the baseline: what a database at the legacy end must match to be adopted. */
  baseline: Snapshot;
}

export const latestVersion = (history: SchemaHistory) => history.legacy.length + history.generated.length;

/** The version a database is at after the baseline. */
export const baselineVersion = (history: SchemaHistory) => history.legacy.length + 1;

/**
 * A schema as a start opens it: its latest version, and its history, read only for a database at another
 * version (new, older, or newer): a later start reads one pragma and loads no migration (design §18).
 */
export interface VersionedSchema {
  latest: number;
  history: () => SchemaHistory;
}
