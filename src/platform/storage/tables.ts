import { sql } from "drizzle-orm";
import { bigint, integer, table } from "./declare-table";

/** The one row /healthz rewrites to learn whether the state takes writes (storage-health.ts). */
export const storageProbe = table(
  "storage_probe",
  {
    id: integer("id").primaryKey(),
    writtenAt: bigint("written_at").notNull(),
  },
  { checks: { storage_probe_id_check: (t) => sql`${t.id} = 1` } },
);
