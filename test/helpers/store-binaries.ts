import { existsSync } from "node:fs";
import { join } from "node:path";

/**
 * Whether the throwaway PostgreSQL and Redis servers (store-servers.ts) can run here: no test-runner
 * imports, so that test/run-second-backend.sh can ask (`bun test/helpers/store-binaries.ts` prints why not
 * and exits 1).
 */

export const PG_BIN = ["/usr/lib/postgresql/17/bin", "/usr/lib/postgresql/16/bin", "/usr/lib/postgresql/15/bin"].find((dir) =>
  existsSync(join(dir, "postgres")),
);
export const REDIS_SERVER = ["/usr/bin/redis-server", "/usr/local/bin/redis-server"].find((path) => existsSync(path));
export const IS_ROOT = process.getuid?.() === 0;

/** Why PostgreSQL cannot run here, or undefined when it can. */
export function postgresMissing(): string | undefined {
  if (!PG_BIN) return "PostgreSQL 15+ is not installed (Debian: apt-get install postgresql)";
  if (IS_ROOT && postgresUid() === undefined) return "running as root and there is no 'postgres' user to run PostgreSQL as";
  return undefined;
}

/** Why Redis cannot run here, or undefined when it can. */
export function redisMissing(): string | undefined {
  return REDIS_SERVER ? undefined : "redis-server is not installed (Debian: apt-get install redis-server)";
}

export function postgresUid(): { uid: number; gid: number } | undefined {
  const result = Bun.spawnSync(["id", "-u", "postgres"]);
  if (result.exitCode !== 0) return undefined;
  const gid = Bun.spawnSync(["id", "-g", "postgres"]);
  return { uid: Number(result.stdout.toString().trim()), gid: Number(gid.stdout.toString().trim()) };
}

if (import.meta.main) {
  const missing = postgresMissing() ?? redisMissing();
  if (missing) {
    console.log(missing);
    process.exit(1);
  }
}
