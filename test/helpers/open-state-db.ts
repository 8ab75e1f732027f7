import { openSqliteStateDb } from "../../src/app/state/sqlite-state";

/**
 * One of many processes opening a state database together (test/platform/state-db-race.test.ts): says "ready" once
 * loaded, waits until stdin closes (the start signal, sent to all at once), opens, and exits 0 or prints why.
 */
process.stdout.write("ready\n");
await Bun.stdin.text();
try {
  openSqliteStateDb(process.argv[2]!).sqlite.close();
} catch (error) {
  process.stdout.write(`failed: ${(error as Error).message}\n`);
  process.exit(1);
}
