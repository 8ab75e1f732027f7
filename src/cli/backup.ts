import { resolve } from "node:path";
import { UsageError } from "../platform/config/args";
import type { Config } from "../platform/config/config";
import { backupState, restoreState, StateCopyRefused } from "../app/state/state-backup";
import { print, requireDataDir } from "./admin-state";
import { CannotStart } from "./errors";

/** With the state in PostgreSQL, its own tools are the right ones: this says which, and does nothing (exit 2). */
function refusePostgres(config: Config, command: "backup" | "restore"): void {
  if (!config.stateUrl) return;
  throw new UsageError(
    command === "backup"
      ? "the state is in PostgreSQL (--state-url, FOODAPI_STATE_URL): back it up with PostgreSQL's own tools, e.g. pg_dump --format=custom --file=foodapi.dump \"$FOODAPI_STATE_URL\" (or continuous archiving); 'foodapi backup' copies the SQLite state of a data directory"
      : "the state is in PostgreSQL (--state-url, FOODAPI_STATE_URL): restore it with PostgreSQL's own tools, e.g. pg_restore --clean --if-exists --dbname=\"$FOODAPI_STATE_URL\" foodapi.dump, with the servers stopped; 'foodapi restore' restores the SQLite state of a data directory",
  );
}

/** `foodapi backup --out FILE`: a consistent copy of the state database while servers run on it. */
export function backupCommand(flags: ReadonlyMap<string, string>, config: Config): number {
  refusePostgres(config, "backup");
  const out = flags.get("out");
  if (!out) throw new UsageError("'foodapi backup' needs --out FILE (where to write the copy)");
  const file = resolve(out);
  requireDataDir(config, "backup");
  try {
    const { bytes, schemaVersion } = backupState(config.dataDir, file);
    print(flags.has("json"), { file, bytes, schemaVersion }, () => `backed up ${config.dataDir}'s state database to ${file} (${bytes} bytes, schema ${schemaVersion})\n`);
    return 0;
  } catch (error) {
    throw error instanceof StateCopyRefused ? new CannotStart(error.message) : error;
  }
}

/** `foodapi restore FILE`: the backup checked, then in place; the replaced state kept beside it. */
export function restoreCommand(positionals: readonly string[], flags: ReadonlyMap<string, string>, config: Config): number {
  refusePostgres(config, "restore");
  const restoredFrom = resolve(positionals[0]!);
  try {
    const result = restoreState(config.dataDir, restoredFrom, new Date());
    print(flags.has("json"), { ...result, restoredFrom }, () =>
      [
        `restored ${restoredFrom} as ${result.stateFile} (schema ${result.schemaVersion})`,
        result.replacedStateKeptAt === null
          ? "there was no state database before"
          : `the state it replaced is kept at ${result.replacedStateKeptAt} (remove it once the restored state serves well)`,
        "",
      ].join("\n"),
    );
    return 0;
  } catch (error) {
    throw error instanceof StateCopyRefused ? new CannotStart(error.message) : error;
  }
}
