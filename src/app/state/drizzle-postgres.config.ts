import { defineConfig } from "drizzle-kit";

// `npm run db:generate` (design §10, "Tables and migrations"): the PostgreSQL state's migrations from its tables.
export default defineConfig({ dialect: "postgresql", schema: "./src/app/state/postgres-tables.ts", out: "./src/app/state/migrations/postgres" });
