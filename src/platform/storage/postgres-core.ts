/**
 * drizzle's PostgreSQL core, as a module of ours that declare-table.ts requires when a PostgreSQL table is
 * first built. Required through this file rather than by the package's name: a `require` of the package
 * resolves its CommonJS build: a second copy of drizzle (pg-core and the core under it, a sixth of the
 * bundle) beside the ES modules the PostgreSQL state imports, which every binary carried.
 */
export * as pg from "drizzle-orm/pg-core";
