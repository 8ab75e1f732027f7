import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { chmodSync, chownSync, copyFileSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BackupOutput, RestoreOutput } from "../../src/cli/admin-model";
import { LEGACY_SQLITE_MIGRATIONS } from "../../src/app/state/legacy-sqlite-migrations";
import { SQLITE_SCHEMA } from "../../src/app/state/state-schema";
import { latestVersion } from "../../src/platform/storage/schema-history";
import { obtainTrialToken } from "../helpers/altcha";
import { IS_ROOT, type RunningServer, runBinaryAsync, runBinaryWithPid, startServer } from "../helpers/binary";
import { expectRefusal, parseJsonOutput } from "../helpers/cli-output";
import { jsonPost, sessionCookie } from "../helpers/http";

/**
 * `foodapi backup` and `foodapi restore` (design §10) on the compiled binary: a backup taken while
 * clients sign up and issue keys serves, once restored into a fresh data directory, everything that was
 * acknowledged before it started; restore refuses bad files and a directory a server uses.
 */

/** Sign-ups from one address in a burst: the per-IP auth limit is not what this file tests. */
const SERVER_ARGS = ["--workers", "2", "--auth-limit", "100000/1m"];
const CLIENTS = 4;
/** Each client's accounts at most, and the load's time bound. */
const ACCOUNTS_PER_CLIENT = 12;
const LOAD_MS = 8_000;
const KEYS_PER_ACCOUNT = 2;

interface Acknowledged {
  email: string;
  password: string;
  keys: string[];
  /** performance.now() when the last of its answers (the last key) arrived. */
  at: number;
}

let server: RunningServer;
let backupFile: string;
let backupStartedAt: number;
const acknowledged: Acknowledged[] = [];
const statuses: number[] = [];
let trialToken: string;

/** One client: sign up, issue keys, again, until the load ends. Every answer is recorded. */
async function client(n: number, until: { done: boolean }): Promise<void> {
  for (let i = 0; i < ACCOUNTS_PER_CLIENT && !until.done; i++) {
    const email = `c${n}-${i}@example.com`;
    const password = `password of ${email}`;
    const signedUp = await fetch(`${server.url}/api/auth/sign-up/email`, jsonPost({ email, password, name: `C ${n} ${i}` }));
    statuses.push(signedUp.status);
    if (signedUp.status !== 200) continue;
    const cookie = sessionCookie(signedUp);
    const keys: string[] = [];
    for (let k = 0; k < KEYS_PER_ACCOUNT; k++) {
      const issued = await fetch(`${server.url}/v1/keys`, jsonPost({ name: `k${k}` }, { cookie }));
      statuses.push(issued.status);
      if (issued.status === 201) keys.push(((await issued.json()) as { key: string }).key);
    }
    acknowledged.push({ email, password, keys, at: performance.now() });
  }
}

beforeAll(async () => {
  server = await startServer({ args: SERVER_ARGS });
  trialToken = (await obtainTrialToken((path, init) => fetch(`${server.url}${path}`, init))).token;
  expect((await fetch(`${server.url}/v1/nutrients`, { headers: { authorization: `Bearer ${trialToken}` } })).status).toBe(200);
});

afterAll(async () => {
  await server.stop();
});

describe("foodapi backup under load", () => {
  test("a backup taken while 4 clients sign up and issue keys: 0600, atomic, the load undisturbed", async () => {
    const until = { done: false };
    const load = Promise.all(Array.from({ length: CLIENTS }, (_, n) => client(n, until)));
    const stop = setTimeout(() => (until.done = true), LOAD_MS);
    // Some accounts are in before the backup starts; the load goes on while it runs.
    while (acknowledged.length < CLIENTS && !until.done) await Bun.sleep(50);
    backupFile = join(mkdtempSync(join(tmpdir(), "foodapi-backups-")), "state-backup.sqlite");
    backupStartedAt = performance.now();
    const run = await runBinaryAsync(["backup", "--out", backupFile, "--json"], { cwd: server.cwd });
    const backupEndedAt = performance.now();
    await Bun.sleep(500);
    until.done = true;
    clearTimeout(stop);
    await load;

    const output = parseJsonOutput(BackupOutput, run);
    expect(output).toEqual({ file: backupFile, bytes: statSync(backupFile).size, schemaVersion: latestVersion(SQLITE_SCHEMA) });
    expect(statSync(backupFile).mode & 0o777).toBe(0o600);
    // Written beside the file and renamed: nothing else is left in its directory.
    expect(readdirSync(join(backupFile, ".."))).toEqual(["state-backup.sqlite"]);
    // The load ran before, during and after it (clients were mid-request when it started), and nothing failed.
    expect(acknowledged.filter((a) => a.at < backupStartedAt).length).toBeGreaterThanOrEqual(CLIENTS);
    expect(acknowledged.filter((a) => a.at > backupEndedAt).length).toBeGreaterThan(0);
    expect(statuses.filter((status) => status !== 200 && status !== 201)).toEqual([]);
  }, 40_000);
});

describe("foodapi backup into a directory another user can write", () => {
  test("a link planted at the temporary file's old name (.<out>.partial-<pid>) is not followed; the backup is 0600 at --out", async () => {
    const shared = mkdtempSync(join(tmpdir(), "foodapi-shared-out-"));
    const out = join(shared, "state-backup.sqlite");
    // The other user's own file: a backup written through the link would hand them every hash and the trial secret.
    const theirs = join(mkdtempSync(join(tmpdir(), "foodapi-other-user-")), "collected");
    writeFileSync(theirs, "");
    let planted = "";
    const run = await runBinaryWithPid(["backup", "--out", out], { cwd: server.cwd }, (pid) => {
      planted = `.state-backup.sqlite.partial-${pid}`;
      symlinkSync(theirs, join(shared, planted));
    });
    expect({ exitCode: run.exitCode, stderr: run.stderr }).toEqual({ exitCode: 0, stderr: "" });
    expect(readFileSync(theirs).length).toBe(0);
    expect(lstatSync(out).isFile()).toBe(true);
    expect(lstatSync(out).mode & 0o777).toBe(0o600);
    const copy = new Database(out, { readonly: true });
    expect(copy.query<{ n: number }, []>("SELECT count(*) AS n FROM secrets").get()!.n).toBeGreaterThan(0);
    copy.close();
    // The planted link is left as it was; nothing of the backup's own is left beside the file.
    expect(readdirSync(shared).sort()).toEqual([planted, "state-backup.sqlite"].sort());
  });

  test("a backup that fails once its temporary file exists (a state database that is none, a full disk) leaves nothing", async () => {
    const shared = mkdtempSync(join(tmpdir(), "foodapi-failed-out-"));
    const broken = mkdtempSync(join(tmpdir(), "foodapi-broken-state-"));
    mkdirSync(join(broken, "data"));
    writeFileSync(join(broken, "data", "state.sqlite"), "not a database\n".repeat(100));
    expectRefusal(await runBinaryAsync(["backup", "--out", join(shared, "state-backup.sqlite")], { cwd: broken }), 1, "cannot back up");
    expect(readdirSync(shared)).toEqual([]);

    if (!IS_ROOT) return console.warn("skipped the full disk: mounting a tmpfs needs root");
    const full = mkdtempSync(join(tmpdir(), "foodapi-full-out-"));
    const mounted = Bun.spawnSync(["mount", "-t", "tmpfs", "-o", "size=16k", "tmpfs", full], { stderr: "pipe" });
    if (mounted.exitCode !== 0) return console.warn(`skipped the full disk: cannot mount a tmpfs here (${mounted.stderr.toString().trim()})`);
    try {
      expectRefusal(await runBinaryAsync(["backup", "--out", join(full, "state-backup.sqlite")], { cwd: server.cwd }), 1, "cannot back up");
      expect(readdirSync(full)).toEqual([]);
    } finally {
      Bun.spawnSync(["umount", full]);
      rmSync(full, { recursive: true, force: true });
    }
  });
});

describe("foodapi backup into a directory other users can change", () => {
  const backupInto = (dir: string) => runBinaryAsync(["backup", "--out", join(dir, "state-backup.sqlite")], { cwd: server.cwd });

  test("refuses a directory others can write without the sticky bit, or one inside such a directory, naming it; nothing is left there", async () => {
    // Anyone may rename entries here: the backup's private directory could be swapped for a link to theirs.
    const open = mkdtempSync(join(tmpdir(), "foodapi-open-out-"));
    chmodSync(open, 0o777);
    expectRefusal(await backupInto(open), 1, `${open} can be written by other users`, "sticky bit");
    expect(readdirSync(open)).toEqual([]);
    // A private directory inside it can itself be swapped by renaming it.
    const inside = join(open, "mine");
    mkdirSync(inside, { mode: 0o700 });
    expectRefusal(await backupInto(inside), 1, `${open} can be written by other users`);
    expect(readdirSync(inside)).toEqual([]);
    const groupWritable = mkdtempSync(join(tmpdir(), "foodapi-group-out-"));
    chmodSync(groupWritable, 0o770);
    expectRefusal(await backupInto(groupWritable), 1, `${groupWritable} can be written by its group`);
    expect(readdirSync(groupWritable)).toEqual([]);
  });

  test("writes into a directory with the sticky bit (as /tmp) and into an untouched one", async () => {
    const sticky = mkdtempSync(join(tmpdir(), "foodapi-sticky-out-"));
    chmodSync(sticky, 0o1777);
    // 0755, as mkdir makes it under the default umask (022), and 0700, as mkdtemp makes it.
    const plain = mkdtempSync(join(tmpdir(), "foodapi-plain-out-"));
    chmodSync(plain, 0o755);
    const private_ = mkdtempSync(join(tmpdir(), "foodapi-private-out-"));
    for (const dir of [sticky, plain, private_]) {
      const run = await backupInto(dir);
      expect({ dir, exitCode: run.exitCode, stderr: run.stderr }).toEqual({ dir, exitCode: 0, stderr: "" });
      expect(readdirSync(dir)).toEqual(["state-backup.sqlite"]);
      expect(statSync(join(dir, "state-backup.sqlite")).mode & 0o777).toBe(0o600);
    }
  });

  test("removes the private directories killed backups left there once untouched for 10 minutes: not a fresh one, one holding other files, or another user's", async () => {
    const dir = mkdtempSync(join(tmpdir(), "foodapi-swept-out-"));
    const hourAgo = new Date(Date.now() - 3_600_000);
    const leave = (name: string, file: string, old: boolean) => {
      mkdirSync(join(dir, name), { mode: 0o700 });
      writeFileSync(join(dir, name, file), "killed mid-backup");
      if (old) for (const path of [join(dir, name, file), join(dir, name)]) utimesSync(path, hourAgo, hourAgo);
      return name;
    };
    leave(".state-20260101T000000Z.sqlite.partial-Ab12Cd", "state-20260101T000000Z.sqlite", true);
    const kept = [
      leave(".state-20260102T000000Z.sqlite.partial-Ef34Gh", "state-20260102T000000Z.sqlite", false),
      leave(".notes.txt.partial-Ij56Kl", "something else", true),
    ];
    if (IS_ROOT) {
      kept.push(leave(".theirs.sqlite.partial-Mn78Op", "theirs.sqlite", false));
      chownSync(join(dir, kept.at(-1)!, "theirs.sqlite"), 65534, 65534);
      chownSync(join(dir, kept.at(-1)!), 65534, 65534);
      for (const path of [join(dir, kept.at(-1)!, "theirs.sqlite"), join(dir, kept.at(-1)!)]) utimesSync(path, hourAgo, hourAgo);
    }
    const run = await backupInto(dir);
    expect({ exitCode: run.exitCode, stderr: run.stderr }).toEqual({ exitCode: 0, stderr: "" });
    expect(readdirSync(dir).sort()).toEqual([...kept, "state-backup.sqlite"].sort());
  });

  test.skipIf(!IS_ROOT)("run as root, refuses a directory another user owns, naming it: its owner could swap the private directory", async () => {
    const theirs = mkdtempSync(join(tmpdir(), "foodapi-their-out-"));
    chmodSync(theirs, 0o755);
    chownSync(theirs, 65534, 65534);
    expectRefusal(await backupInto(theirs), 1, `${theirs} belongs to another user (uid 65534)`);
    expect(readdirSync(theirs)).toEqual([]);
  });
});

describe("foodapi restore", () => {
  test("into a fresh data directory: every account, key and trial token acknowledged before the backup works", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "foodapi-restored-"));
    const run = await runBinaryAsync(["restore", backupFile, "--json"], { cwd });
    const output = parseJsonOutput(RestoreOutput, run);
    expect(output).toEqual({ stateFile: join(cwd, "data", "state.sqlite"), restoredFrom: backupFile, replacedStateKeptAt: null, schemaVersion: latestVersion(SQLITE_SCHEMA) });
    expect(statSync(join(cwd, "data")).mode & 0o777).toBe(0o700);
    expect(statSync(join(cwd, "data", "state.sqlite")).mode & 0o777).toBe(0o600);

    const restored = await startServer({ cwd, args: SERVER_ARGS });
    try {
      const before = acknowledged.filter((a) => a.at < backupStartedAt);
      const results = await Promise.all(
        before.map(async ({ email, password, keys }) => {
          const signIn = await fetch(`${restored.url}/api/auth/sign-in/email`, jsonPost({ email, password }));
          const keyStatuses = await Promise.all(keys.map(async (key) => (await fetch(`${restored.url}/v1/food-groups`, { headers: { "x-api-key": key } })).status));
          return { email, signIn: signIn.status, keys: keyStatuses };
        }),
      );
      expect(results).toEqual(before.map(({ email, keys }) => ({ email, signIn: 200, keys: keys.map(() => 200) })));
      expect(before.every((a) => a.keys.length === KEYS_PER_ACCOUNT)).toBe(true);
      // The trial secret and the token's count came along: the token works, and has used 1 of 30 before this.
      const trial = await fetch(`${restored.url}/v1/nutrients`, { headers: { authorization: `Bearer ${trialToken}` } });
      expect(trial.status).toBe(200);
      expect(trial.headers.get("ratelimit")).toContain("r=28");
    } finally {
      expect(await restored.stop()).toBe(0);
    }

    // A second restore over that directory keeps the state it replaces beside it, and says where.
    const again = await runBinaryAsync(["restore", backupFile], { cwd });
    expect(again.exitCode).toBe(0);
    const kept = /kept at (\S+state\.sqlite\.replaced-\S+) /.exec(again.stdout)?.[1];
    expect(kept).toBeString();
    expect(existsSync(kept!)).toBe(true);
    expect(statSync(kept!).mode & 0o777).toBe(0o600);
    const replaced = new Database(kept!, { readonly: true });
    expect(replaced.query<{ n: number }, []>("SELECT count(*) AS n FROM users").get()!.n).toBeGreaterThanOrEqual(acknowledged.filter((a) => a.at < backupStartedAt).length);
    replaced.close();
    expect(readdirSync(join(cwd, "data")).sort()).toEqual(["keys.epoch", "state.sqlite", kept!.split("/").at(-1)!].sort());
  }, 40_000);

  test.skipIf(!IS_ROOT)("run as root into a service user's directory, the restored file is that user's", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "foodapi-restore-owner-"));
    mkdirSync(join(cwd, "data"), { mode: 0o700 });
    chownSync(join(cwd, "data"), 65534, 65534);
    expect((await runBinaryAsync(["restore", backupFile], { cwd })).exitCode).toBe(0);
    const restored = statSync(join(cwd, "data", "state.sqlite"));
    expect([restored.uid, restored.gid, restored.mode & 0o777]).toEqual([65534, 65534, 0o600]);
    // The copy was made beside that directory, where its owner cannot rename anything, and nothing is left there.
    expect(readdirSync(cwd)).toEqual(["data"]);
  });

  test("refuses a data directory others can write without the sticky bit, in one line naming it; nothing changes", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "foodapi-restore-open-"));
    mkdirSync(join(cwd, "data"));
    chmodSync(join(cwd, "data"), 0o777);
    expectRefusal(await runBinaryAsync(["restore", backupFile], { cwd }), 1, `${join(cwd, "data")} can be written by other users`, "nothing was changed");
    expect(readdirSync(join(cwd, "data"))).toEqual([]);
  });

  test("refuses a truncated file, a file that is no database, and one from a newer foodapi; nothing changes", async () => {
    const dir = mkdtempSync(join(tmpdir(), "foodapi-bad-backups-"));
    const truncated = join(dir, "truncated.sqlite");
    const bytes = readFileSync(backupFile);
    writeFileSync(truncated, bytes.subarray(0, Math.floor(bytes.length / 2)));
    const text = join(dir, "notes.txt");
    writeFileSync(text, "not a database\n".repeat(100));
    const newer = join(dir, "newer.sqlite");
    copyFileSync(backupFile, newer);
    const db = new Database(newer);
    db.run(`PRAGMA user_version = ${latestVersion(SQLITE_SCHEMA) + 1}`);
    db.close();
    const other = join(dir, "other.sqlite");
    new Database(other, { create: true }).run("CREATE TABLE t (x)");

    const cwd = mkdtempSync(join(tmpdir(), "foodapi-refused-"));
    for (const [file, words] of [
      [truncated, ["truncated.sqlite", "damaged", "nothing was changed"]],
      [text, ["notes.txt", "not a whole SQLite database"]],
      [newer, [`schema version ${latestVersion(SQLITE_SCHEMA) + 1}, newer than this foodapi knows (${latestVersion(SQLITE_SCHEMA)})`]],
      [other, ["not a foodapi state database"]],
      [join(dir, "missing.sqlite"), ["no backup file at"]],
    ] as const) {
      expectRefusal(await runBinaryAsync(["restore", file], { cwd }), 1, ...words);
      // A refused restore into a new directory leaves none behind.
      expect(existsSync(join(cwd, "data"))).toBe(false);
    }
  }, 30_000);

  test("refuses a backup whose schema is not its version's (a trigger added, an index gone), naming what differs", async () => {
    const dir = mkdtempSync(join(tmpdir(), "foodapi-tampered-backups-"));
    const tampered = (name: string, sql: string) => {
      const file = join(dir, name);
      copyFileSync(backupFile, file);
      const db = new Database(file);
      db.run(sql);
      db.close();
      return file;
    };
    // Revoking a key would not stick on a server restored from it: the key would keep answering 200.
    const trigger = tampered(
      "trigger.sqlite",
      "CREATE TRIGGER keys_stay AFTER UPDATE OF revoked_at ON api_keys BEGIN UPDATE api_keys SET revoked_at = NULL WHERE id = new.id; END",
    );
    const noIndex = tampered("no-index.sqlite", "DROP INDEX api_keys_revoked_idx");
    const cwd = mkdtempSync(join(tmpdir(), "foodapi-refused-"));
    expectRefusal(await runBinaryAsync(["restore", trigger], { cwd }), 1, "trigger.sqlite", "trigger keys_stay", "nothing was changed");
    expectRefusal(await runBinaryAsync(["restore", noIndex], { cwd }), 1, "no-index.sqlite", "index api_keys_revoked_idx", "nothing was changed");
    expect(existsSync(join(cwd, "data"))).toBe(false);
  });

  test("restores a backup from an older schema version (its own schema, checked as that version's)", async () => {
    const older = join(mkdtempSync(join(tmpdir(), "foodapi-older-backup-")), "older.sqlite");
    const db = new Database(older, { create: true });
    for (const [version, migration] of LEGACY_SQLITE_MIGRATIONS.slice(0, 5).entries()) {
      db.run(migration);
      db.run(`PRAGMA user_version = ${version + 1}`);
    }
    db.close();
    const cwd = mkdtempSync(join(tmpdir(), "foodapi-restored-older-"));
    expect(parseJsonOutput(RestoreOutput, await runBinaryAsync(["restore", older, "--json"], { cwd })).schemaVersion).toBe(5);
  });

  test("refuses while a server uses the data directory, which it leaves as it was", async () => {
    const before = readdirSync(join(server.cwd, "data")).sort();
    expectRefusal(await runBinaryAsync(["restore", backupFile], { cwd: server.cwd }), 1, `data directory ${join(server.cwd, "data")} is in use`, "stop it first");
    expect(readdirSync(join(server.cwd, "data")).sort()).toEqual(before);
    // Still serving its own state.
    const last = acknowledged.at(-1)!;
    expect((await fetch(`${server.url}/v1/food-groups`, { headers: { "x-api-key": last.keys[0]! } })).status).toBe(200);
  });

  test("with PostgreSQL state, backup and restore name pg_dump and pg_restore and do nothing (exit 2)", async () => {
    const env = { FOODAPI_STATE_URL: "postgres://foodapi@127.0.0.1:1/foodapi" };
    expectRefusal(await runBinaryAsync(["backup", "--out", "x.sqlite"], { env }), 2, "pg_dump");
    expectRefusal(await runBinaryAsync(["restore", backupFile], { env }), 2, "pg_restore");
    // And the usage errors of the commands themselves.
    expectRefusal(await runBinaryAsync(["backup"]), 2, "--out FILE");
    expectRefusal(await runBinaryAsync(["restore"]), 2, "the backup FILE");
    expectRefusal(await runBinaryAsync(["backup", "--out", "x.sqlite"]), 1, "no data directory at");
    expectRefusal(await runBinaryAsync(["backup", "--out", "data/state.sqlite"], { cwd: server.cwd }), 1, "is the state database itself");
  });
});
