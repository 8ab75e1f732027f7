import { defineConfig } from "drizzle-kit";

// `npm run db:generate` (design §10, "Tables and migrations"): the SQLite state's migrations from its tables.
export default defineConfig({ dialect: "sqlite", schema: "./src/app/state/sqlite-tables.ts", out: "./src/app/state/migrations/sqlite" });
