import { Database } from "bun:sqlite";
import { afterAll, describe, expect, test } from "bun:test";
import { chmodSync, chownSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AS_NOBODY, IS_ROOT, runBinary, startServer, WITH_UMASK_000 } from "../helpers/binary";
import { jsonPost } from "../helpers/http";
import { BINARY_PATH, CATALOG_PATH } from "../helpers/paths";

// Traversable by everyone (mkdtemp makes 0700), so that only the modes under test stop another user.
const root = mkdtempSync(join(tmpdir(), "foodapi-datadir-"));
/** A cache directory of nobody's, where serve makes the catalog file's answers once the data directory is open. */
function nobodysCache(): string {
  const cache = mkdtempSync(join(root, "nobody-cache-"));
  chownSync(cache, 65534, 65534);
  return cache;
}
chmodSync(root, 0o755);
const mounts: string[] = [];
afterAll(() => {
  for (const dir of mounts) Bun.spawnSync(["umount", dir]);
  rmSync(root, { recursive: true, force: true });
});

const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);
const nobodyCan = (command: string[]) => Bun.spawnSync([...AS_NOBODY, ...command], { stdout: "ignore", stderr: "ignore" }).exitCode === 0;
// Off root (a developer's machine), nobody's view cannot be tested: setpriv needs root.
const canSwitchUser = IS_ROOT && nobodyCan(["test", "-x", BINARY_PATH]);

describe("permissions of the data directory and the state files", () => {
  test.skipIf(!IS_ROOT)("under umask 000, in an existing 0755 directory with an older version's 0644 files: 0700 and all 0600, unreadable by another user", async () => {
    if (!canSwitchUser) console.warn("skipping the check as another user: nobody cannot run the binary here");
    const dataDir = join(root, "existing");
    mkdirSync(dataDir);
    chmodSync(dataDir, 0o755);
    // What an older version left: a state database in WAL mode, still open (so its -wal and -shm exist), 0644.
    const older = new Database(join(dataDir, "state.sqlite"), { create: true });
    older.run("PRAGMA journal_mode = WAL");
    older.run("CREATE TABLE left_by_an_older_version (x)");
    for (const suffix of ["", "-wal", "-shm"]) chmodSync(join(dataDir, `state.sqlite${suffix}`), 0o644);

    const server = await startServer({ prefix: WITH_UMASK_000, args: ["--workers", "1", "--data-dir", dataDir] });
    older.close();
    try {
      const signUp = await fetch(`${server.url}/api/auth/sign-up/email`, jsonPost({ email: "modes@example.com", password: "a long password", name: "M" }));
      expect(signUp.status).toBe(200);
      for (const name of ["state.sqlite", "state.sqlite-wal", "state.sqlite-shm", "keys.epoch"]) {
        expect(`${name} ${mode(join(dataDir, name))}`).toBe(`${name} 600`);
      }
      // Owner only whatever mode it had (design §14), and the log says it was tightened.
      expect(mode(dataDir)).toBe("700");
      expect(server.stderr()).toContain(`data directory ${dataDir} was open to other users (mode 755): made it 700`);
      if (canSwitchUser) {
        expect(nobodyCan(["test", "-r", join(dataDir, "keys.epoch")])).toBe(false);
        for (const name of ["state.sqlite", "state.sqlite-wal"]) expect(nobodyCan(["cat", join(dataDir, name)])).toBe(false);
      }
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });

  test.skipIf(!IS_ROOT)("under umask 000, a data directory serve creates is 0700 and the database 0600", async () => {
    const dataDir = join(root, "fresh", "data");
    const server = await startServer({ prefix: WITH_UMASK_000, args: ["--workers", "1", "--data-dir", dataDir] });
    expect(await server.stop()).toBe(0);
    expect(mode(dataDir)).toBe("700");
    expect(mode(join(dataDir, "state.sqlite"))).toBe("600");
    expect(mode(join(dataDir, "keys.epoch"))).toBe("600");
  });
});

describe("start-up with a data directory it cannot use: one line naming it and why, exit code 1", () => {
  const expectOneLine = (result: { exitCode: number; stdout: string; stderr: string }, dataDir: string, why: string) => {
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toStartWith(`foodapi: cannot use data directory ${dataDir}: ${why}`);
    expect(result.stderr).toContain("--data-dir or FOODAPI_DATA_DIR");
    // One line, no stack trace.
    expect(result.stderr.trimEnd().split("\n")).toHaveLength(1);
  };
  // Only serve creates a data directory: keys create given one that is not there says so.
  const expectMissing = (result: { exitCode: number; stdout: string; stderr: string }, dataDir: string) => {
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toStartWith(`foodapi: no data directory at ${dataDir}:`);
    expect(result.stderr).toContain("--data-dir or FOODAPI_DATA_DIR");
    expect(result.stderr.trimEnd().split("\n")).toHaveLength(1);
  };
  const keysCreate = (dataDir: string, prefix?: string[]) =>
    runBinary(["keys", "create", "--email", "dev@example.com", "--name", "k", "--data-dir", dataDir], { prefix });

  test("a file, or a path through a file", () => {
    expectOneLine(runBinary(["serve", "--port", "0", "--data-dir", "/etc/passwd"]), "/etc/passwd", "not a directory");
    const file = join(root, "a-file");
    writeFileSync(file, "");
    expectOneLine(keysCreate(file), file, "not a directory");
    expectMissing(keysCreate(join(file, "data")), join(file, "data"));
  });

  test("on a first start, said before the embedded catalog is expanded, which is left for a usable one", () => {
    const cacheDir = mkdtempSync(join(root, "first-cache-"));
    expectOneLine(runBinary(["serve", "--port", "0", "--cache-dir", cacheDir, "--data-dir", "/etc/passwd"]), "/etc/passwd", "not a directory");
    expect(readdirSync(cacheDir)).toEqual([]);
  });

  test.skipIf(!IS_ROOT)("a directory the user cannot write, or whose parent it cannot write (run as nobody)", () => {
    if (!canSwitchUser) return console.warn("skipped: nobody cannot run the binary here");
    const owned = join(root, "root-owned");
    mkdirSync(owned);
    chmodSync(owned, 0o755);
    expectOneLine(keysCreate(owned, AS_NOBODY), owned, "permission denied");
    expectMissing(keysCreate(join(owned, "data"), AS_NOBODY), join(owned, "data"));
    // serve reads the catalog first: given as a file nobody can read, with a cache directory of nobody's for its
    // answers (its progress line is info), the data directory is what stops it.
    if (nobodyCan(["test", "-r", CATALOG_PATH])) {
      const served = runBinary(["serve", "--port", "0", "--catalog", CATALOG_PATH, "--cache-dir", nobodysCache(), "--log-level", "warn", "--data-dir", owned], { prefix: AS_NOBODY });
      expectOneLine(served, owned, "permission denied");
    }
  });

  test.skipIf(!IS_ROOT)("a directory open to others that the user cannot make 0700, not being its owner (run as nobody)", () => {
    if (!canSwitchUser) return console.warn("skipped: nobody cannot run the binary here");
    const open = join(root, "open-to-all");
    mkdirSync(open);
    chmodSync(open, 0o777);
    expectOneLine(keysCreate(open, AS_NOBODY), open, "open to other users (mode 777) and cannot be made 700");
    if (nobodyCan(["test", "-r", CATALOG_PATH])) {
      expectOneLine(runBinary(["serve", "--port", "0", "--catalog", CATALOG_PATH, "--cache-dir", nobodysCache(), "--log-level", "warn", "--data-dir", open], { prefix: AS_NOBODY }), open, "open to other users");
    }
    expect(mode(open)).toBe("777");
  });

  test.skipIf(!IS_ROOT)("a read-only file system (root is refused too)", () => {
    const readOnly = join(root, "read-only");
    mkdirSync(readOnly);
    const mounted = Bun.spawnSync(["mount", "-t", "tmpfs", "-o", "size=1m,ro", "tmpfs", readOnly], { stderr: "pipe" });
    if (mounted.exitCode !== 0) return console.warn(`skipped: cannot mount a tmpfs here (${mounted.stderr.toString().trim()})`);
    mounts.push(readOnly);
    expectOneLine(runBinary(["serve", "--port", "0", "--data-dir", readOnly]), readOnly, "read-only file system");
    expectOneLine(keysCreate(readOnly), readOnly, "read-only file system");
    expectMissing(keysCreate(join(readOnly, "data")), join(readOnly, "data"));
  });
});
