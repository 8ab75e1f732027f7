/**
 * drizzle over bun:sqlite, required by the first store that queries through it (state-db.ts `db`): drizzle's
 * code is a third of what a start would otherwise load, and no first answer needs it (design §18).
 * @public required, not imported, which knip does not follow
 */
export { drizzle } from "drizzle-orm/bun-sqlite";
