import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { GeneratedMigration } from "./schema-history";
import type { Snapshot } from "./schema-shape";

/**
 * A folder drizzle-kit generates (src/app/state/migrations/<dialect>/, given relative to the repository), read when the code is
 * bundled: called by macros (app/state/state-migrations.ts), it runs in Bun's bundler (and in `bun run` /
 * `bun test` as they load the importing module), and the binary carries the result, no file. The migrations
 * in the journal's order, and the baseline's snapshot.
 */
export function drizzleFolder(folder: string): { generated: GeneratedMigration[]; baseline: Snapshot } {
  const root = join(import.meta.dir, "../../..", folder);
  const journal = JSON.parse(readFileSync(join(root, "meta/_journal.json"), "utf8")) as { entries: { idx: number; tag: string }[] };
  const generated = [...journal.entries]
    .sort((a, b) => a.idx - b.idx)
    .map(({ tag }) => ({
      tag,
      statements: readFileSync(join(root, `${tag}.sql`), "utf8")
        .split("--> statement-breakpoint")
        .map((statement) => statement.trim())
        .filter((statement) => statement !== ""),
    }));
  return { generated, baseline: JSON.parse(readFileSync(join(root, "meta/0000_snapshot.json"), "utf8")) as Snapshot };
}
