import type { $Type, BuildColumns, Column as BuiltColumn, ColumnBuilderBase, HasDefault, IsPrimaryKey, NotNull, SQL } from "drizzle-orm";
import type * as pg from "drizzle-orm/pg-core";
import * as sqlite from "drizzle-orm/sqlite-core";

type PgCore = typeof pg;
let pgCore: PgCore | undefined;
/**
 * drizzle's PostgreSQL core, loaded when a PostgreSQL table is first built: a server on SQLite never builds
 * one, and loading the module alone cost every start ~2 ms (docs/performance.md, "The later start").
 */
const postgresCore = (): PgCore => (pgCore ??= (require("./postgres-core") as typeof import("./postgres-core")).pg);

/**
 * A state table declared once for both backends (design §10, "Tables and migrations"): each column has a
 * logical type, and the declaration builds the drizzle table of each dialect from it, with its full types,
 * which the stores query and drizzle-kit generates the migrations from.
 *
 *   text     text in both
 *   integer  integer in both (32 bits in PostgreSQL: counts, small ids)
 *   bigint   integer in SQLite, bigint in PostgreSQL, read as a JavaScript number (exact to 2^53): epoch
 *            milliseconds and everything derived from them
 *   boolean  0/1 integer in SQLite, boolean in PostgreSQL
 */
class Column<S extends ColumnBuilderBase, P extends ColumnBuilderBase> {
  private sqliteBuilt: S | undefined;
  private postgresBuilt: P | undefined;
  /** What was asked of the column, done to each dialect's builder when it is made (`only`: to that one alone). */
  private readonly changes: { only?: Dialect; change: (builder: MutableBuilder) => unknown }[] = [];

  constructor(
    private readonly makeSqlite: () => S,
    private readonly makePostgres: (pg: PgCore) => P,
  ) {}

  /** The SQLite builder, made when the SQLite table is built (see `table`). */
  get sqlite(): S {
    return (this.sqliteBuilt ??= this.changed("sqlite", this.makeSqlite()));
  }

  /** The PostgreSQL builder, made when a PostgreSQL table is built (see `postgresCore`). */
  get postgres(): P {
    return (this.postgresBuilt ??= this.changed("postgres", this.makePostgres(postgresCore())));
  }

  notNull(): Column<NotNull<S>, NotNull<P>> {
    return this.onBoth((builder) => builder.notNull());
  }

  primaryKey(): Column<IsPrimaryKey<NotNull<S>>, IsPrimaryKey<NotNull<P>>> {
    return this.onBoth((builder) => builder.primaryKey());
  }

  /** A unique constraint of its own (named by drizzle: `<table>_<column>_unique`). */
  unique(): Column<S, P> {
    return this.onBoth((builder) => builder.unique());
  }

  default(value: S["_"]["data"] & P["_"]["data"]): Column<HasDefault<S>, HasDefault<P>> {
    return this.onBoth((builder) => builder.default(value));
  }

  /** Narrows the column's TypeScript type (a union of literals), as drizzle's `$type`. */
  $type<T>(): Column<$Type<S, T>, $Type<P, T>> {
    return this as never;
  }

  /** A foreign key to `column` of `table` (a thunk: the table may be declared later or elsewhere). */
  references<T extends { sqlite: sqlite.SQLiteTable; postgres: pg.PgTable }>(table: () => T, column: keyof T["sqlite"]["_"]["columns"] & string, options: { onDelete?: ReferenceAction } = {}): this {
    const target = (dialect: Dialect) => () => (table()[dialect] as unknown as Record<string, BuiltColumn>)[column]!;
    this.record("sqlite", (builder) => builder.references(target("sqlite"), options));
    this.record("postgres", (builder) => builder.references(target("postgres"), options));
    return this;
  }

  private onBoth(change: (builder: MutableBuilder) => unknown): never {
    this.record(undefined, change);
    return this as never;
  }

  private record(only: Dialect | undefined, change: (builder: MutableBuilder) => unknown): void {
    this.changes.push({ only, change });
    // drizzle's builders change in place and return themselves: one already made takes the change now.
    if (only !== "postgres" && this.sqliteBuilt !== undefined) change(this.sqliteBuilt as unknown as MutableBuilder);
    if (only !== "sqlite" && this.postgresBuilt !== undefined) change(this.postgresBuilt as unknown as MutableBuilder);
  }

  private changed<B>(dialect: Dialect, builder: B): B {
    for (const { only, change } of this.changes) if (only === undefined || only === dialect) change(builder as unknown as MutableBuilder);
    return builder;
  }
}

type Dialect = "sqlite" | "postgres";

type ReferenceAction = "cascade" | "restrict" | "no action" | "set null" | "set default";

interface MutableBuilder {
  notNull(): unknown;
  primaryKey(): unknown;
  unique(): unknown;
  default(value: unknown): unknown;
  references(target: () => BuiltColumn, actions: { onDelete?: ReferenceAction }): unknown;
}

export const text = (name: string) => new Column(() => sqlite.text(name), (pg) => pg.text(name));
export const integer = (name: string) => new Column(() => sqlite.integer(name), (pg) => pg.integer(name));
export const bigint = (name: string) => new Column(() => sqlite.integer(name), (pg) => pg.bigint(name, { mode: "number" }));
export const boolean = (name: string) => new Column(() => sqlite.integer(name, { mode: "boolean" }), (pg) => pg.boolean(name));

// The column builders' own generic parameters vary per column.
type AnyColumn = Column<any, any>;
type Columns = Record<string, AnyColumn>;
type SqliteBuilders<C extends Columns> = { [K in keyof C]: C[K]["sqlite"] };
type PostgresBuilders<C extends Columns> = { [K in keyof C]: C[K]["postgres"] };
type ColumnsOf<C extends Columns> = { [K in keyof C]: BuiltColumn };

/** Indexes, a composite primary key and checks, naming columns by their keys; conditions get the dialect's columns. */
export interface TableOptions<C extends Columns> {
  primaryKey?: (keyof C & string)[];
  indexes?: Record<string, { on: (keyof C & string)[]; where?: (columns: ColumnsOf<C>) => SQL }>;
  checks?: Record<string, (columns: ColumnsOf<C>) => SQL>;
  /**
   * Columns PostgreSQL has and the rows leave out (set by the database, read only in raw SQL): in the
   * table drizzle-kit sees (`postgresSchema`), not in the one the stores query (`postgres`).
   */
  postgresOnly?: (pg: PgCore) => Record<string, pg.PgColumnBuilderBase>;
}

export interface DeclaredTable<N extends string = string, C extends Columns = Columns> {
  sqlite: sqlite.SQLiteTableWithColumns<{ name: N; schema: undefined; columns: BuildColumns<N, SqliteBuilders<C>, "sqlite">; dialect: "sqlite" }>;
  postgres: pg.PgTableWithColumns<{ name: N; schema: undefined; columns: BuildColumns<N, PostgresBuilders<C>, "pg">; dialect: "pg" }>;
  /** The PostgreSQL table with its `postgresOnly` columns: what migrations are generated from. */
  postgresSchema: pg.PgTable;
}

/** A table in both dialects from one list of columns (see `Column`) and `options`. */
export function table<N extends string, C extends Columns>(name: N, columns: C, options: TableOptions<C> = {}): DeclaredTable<N, C> {
  const sqliteTable = () =>
    sqlite.sqliteTable(name, builders(columns, "sqlite") as Record<string, sqlite.SQLiteColumnBuilderBase>, (t) => [
      ...(options.primaryKey ? [sqlite.primaryKey({ columns: pick(t, options.primaryKey) as [sqlite.SQLiteColumn] })] : []),
      ...Object.entries(options.indexes ?? {}).map(([index, { on, where }]) => {
        const built = sqlite.index(index).on(...(pick(t, on) as [sqlite.SQLiteColumn]));
        return where ? built.where(where(t as ColumnsOf<C>)) : built;
      }),
      ...Object.entries(options.checks ?? {}).map(([check, condition]) => sqlite.check(check, condition(t as ColumnsOf<C>))),
    ]);
  const postgresTable = (pg: PgCore, extra: Record<string, pg.PgColumnBuilderBase>) =>
    pg.pgTable(name, { ...(builders(columns, "postgres") as Record<string, pg.PgColumnBuilderBase>), ...extra }, (t) => [
      ...(options.primaryKey ? [pg.primaryKey({ columns: pick(t, options.primaryKey) as [pg.PgColumn] })] : []),
      ...Object.entries(options.indexes ?? {}).map(([index, { on, where }]) => {
        const built = pg.index(index).on(...(pick(t, on) as [pg.PgColumn]));
        return where ? built.where(where(t as ColumnsOf<C>)) : built;
      }),
      ...Object.entries(options.checks ?? {}).map(([check, condition]) => pg.check(check, condition(t as ColumnsOf<C>))),
    ]);
  // Each dialect's table is built when first asked for, by the first query of a store that reads it: a
  // server on SQLite never builds the PostgreSQL ones, and a start builds none (building every table's
  // columns was a good part of a start; docs/performance.md, "The later start").
  let sqliteBuilt: sqlite.SQLiteTable | undefined;
  let postgres: pg.PgTable | undefined;
  let postgresSchema: pg.PgTable | undefined;
  const declared = {
    get sqlite() {
      return (sqliteBuilt ??= sqliteTable());
    },
    get postgres() {
      return (postgres ??= postgresTable(postgresCore(), {}));
    },
    get postgresSchema() {
      const pg = postgresCore();
      return (postgresSchema ??= options.postgresOnly ? postgresTable(pg, options.postgresOnly(pg)) : declared.postgres);
    },
  };
  return declared as unknown as DeclaredTable<N, C>;
}

const builders = (columns: Columns, dialect: "sqlite" | "postgres"): Record<string, ColumnBuilderBase> =>
  Object.fromEntries(Object.entries(columns).map(([key, column]) => [key, column[dialect]]));

const pick = (columns: Record<string, unknown>, keys: string[]) => keys.map((key) => columns[key]);

/** A table SQLite alone has, built when first asked for, as a declared table's (`table`). */
export function sqliteOnly<T extends sqlite.SQLiteTable>(build: () => T): { readonly sqlite: T } {
  let built: T | undefined;
  return {
    get sqlite() {
      return (built ??= build());
    },
  };
}
