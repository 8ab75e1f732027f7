import { describe, expect, test } from "bun:test";
import { chmodSync, chownSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { IS_ROOT, runBinary, startServer } from "../helpers/binary";

/**
 * An admin command run by root on a data directory another user owns, as on the systemd install (the
 * service's own user, root running `foodapi keys …`; test/app/admin-systemd.test.ts runs it with the unit's
 * paths): what root makes there is that user's, and nothing there is opened through a link.
 */
const SERVICE_UID = 61_874;
const asService = ["setpriv", "--reuid", String(SERVICE_UID), "--regid", String(SERVICE_UID), "--clear-groups"];
// CI runs as root (.ci/run): there, not being root is a failure, not a skip.
const runs = IS_ROOT || Boolean(process.env.CI);
if (!runs) console.warn("skipping the admin commands run as root: not root");

/** A data directory of the service's user, 0700, as systemd's StateDirectory= makes it, and a cache of its own. */
function serviceDirectories() {
  const root = mkdtempSync(join(tmpdir(), "foodapi-as-root-"));
  const dataDir = join(root, "data");
  const cacheDir = join(root, "cache");
  for (const dir of [dataDir, cacheDir]) {
    mkdirSync(dir, { mode: 0o700 });
    chownSync(dir, SERVICE_UID, SERVICE_UID);
  }
  chmodSync(root, 0o755);
  return { root, dataDir, cacheDir };
}

const owners = (dir: string) => readdirSync(dir).map((name) => ({ name, uid: statSync(join(dir, name)).uid, gid: statSync(join(dir, name)).gid }));

describe("an admin command run as root on a service's data directory", () => {
  test.skipIf(!runs)("that the service has not filled yet: the files it makes are the service's, which then starts on them and honours the key", async () => {
    expect(IS_ROOT).toBe(true);
    const { root, dataDir, cacheDir } = serviceDirectories();
    const created = runBinary(["keys", "create", "--email", "early@example.com", "--name", "before the start", "--data-dir", dataDir], { cwd: root });
    expect(created.exitCode).toBe(0);
    const key = created.stdout.trim();
    for (const file of owners(dataDir)) expect(file).toEqual({ name: file.name, uid: SERVICE_UID, gid: SERVICE_UID });
    expect(owners(dataDir).map((f) => f.name).sort()).toEqual(["keys.epoch", "state.sqlite"]);

    const server = await startServer({ cwd: root, prefix: asService, env: { HOME: "/nonexistent" }, args: ["--workers", "1", "--data-dir", dataDir, "--cache-dir", cacheDir] });
    try {
      expect((await fetch(`${server.url}/v1/food-groups`, { headers: { "x-api-key": key } })).status).toBe(200);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  }, 60_000);

  for (const name of ["state.sqlite", "keys.epoch"]) {
    test.skipIf(!runs)(`holding a link as ${name}: refused, naming it, and the file the link points to is left as it was`, () => {
      expect(IS_ROOT).toBe(true);
      const { root, dataDir } = serviceDirectories();
      // Root's file, which the service's user cannot change but can point a link at.
      const victim = join(root, "root-only.conf");
      writeFileSync(victim, "precious settings\n", { mode: 0o644 });
      symlinkSync(victim, join(dataDir, name));
      const run = runBinary(["keys", "list", "--data-dir", dataDir], { cwd: root });
      expect([run.exitCode, run.stderr]).toEqual([
        1,
        `foodapi: cannot use data directory ${dataDir}: ${name} there is not a regular file (a symbolic link, a directory or a device); foodapi follows no link in its data directory: move it away\n`,
      ]);
      expect([readFileSync(victim, "utf8"), statSync(victim).mode & 0o777, statSync(victim).uid]).toEqual(["precious settings\n", 0o644, 0]);
    });
  }
});
