import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, spyOn, test } from "bun:test";
import { SQL } from "bun";
import { DrizzleQueryError } from "drizzle-orm";
import { StorageTimeout, storageFault } from "../../src/platform/storage/storage-fault";
import { createErrorMapper } from "../../src/platform/http/error-mapping";
import { ApiError } from "../../src/platform/http/errors";
import { jsonPost } from "../helpers/http";
import { createTestApp, type TestApp } from "../helpers/test-app";

const UNAVAILABLE = { code: "SERVICE_UNAVAILABLE", message: "The service cannot store data right now. Try again shortly." };

/** A real SQLite error of each kind, as the stores meet them. */
function sqliteError(setup: (db: Database) => void): unknown {
  const db = new Database(":memory:");
  try {
    db.run("CREATE TABLE t (x TEXT UNIQUE)");
    setup(db);
  } catch (error) {
    return error;
  } finally {
    db.close();
  }
  throw new Error("no error");
}
const full = () =>
  sqliteError((db) => {
    db.run("PRAGMA max_page_count = 3");
    for (let i = 0; i < 100; i++) db.run("INSERT INTO t VALUES (?)", [`${i}`.repeat(5000)]);
  });
const readOnly = () => sqliteError((db) => (db.run("PRAGMA query_only = ON"), db.run("INSERT INTO t VALUES ('a')")));
const constraint = () => sqliteError((db) => (db.run("INSERT INTO t VALUES ('a')"), db.run("INSERT INTO t VALUES ('a')")));

describe("which errors are storage faults", () => {
  test("disk full and read-only are, also wrapped by drizzle; a constraint or a bug is not", () => {
    expect(storageFault(full())).toEqual({ code: "SQLITE_FULL", message: "database or disk is full" });
    expect(storageFault(readOnly())).toEqual({ code: "SQLITE_READONLY", message: "attempt to write a readonly database" });
    // drizzle's wrapper carries the query and its parameters: the fault keeps only SQLite's words.
    const wrapped = new DrizzleQueryError("insert into users values (?)", ["secret-hash"], full() as Error);
    expect(storageFault(wrapped)).toEqual({ code: "SQLITE_FULL", message: "database or disk is full" });
    expect(storageFault(constraint())).toBeUndefined();
    expect(storageFault(new TypeError("x is undefined"))).toBeUndefined();
    expect(storageFault(Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC", syscall: "write" }))).toMatchObject({ code: "ENOSPC" });
  });

  test("PostgreSQL: unreachable, lost, stopping, full, read-only or too slow is, also wrapped by drizzle; a constraint or a bad query is not", () => {
    // As Bun's client raises them: its own code, and the server's SQLSTATE in errno for the server's errors.
    const postgres = (code: string, errno?: string) => new SQL.PostgresError(`message for ${errno ?? code}`, { code, errno });
    for (const code of ["ERR_POSTGRES_CONNECTION_REFUSED", "ERR_POSTGRES_CONNECTION_CLOSED", "ERR_POSTGRES_CONNECTION_FAILED", "ERR_POSTGRES_CONNECTION_TIMEOUT"]) {
      expect(storageFault(postgres(code))).toEqual({ code, message: `message for ${code}` });
    }
    for (const sqlState of ["57P01", "57P03", "57014", "53100", "53300", "08006", "58030", "55P03", "25006", "28P01", "3D000"]) {
      expect(storageFault(postgres("ERR_POSTGRES_SERVER_ERROR", sqlState))).toEqual({ code: sqlState, message: `message for ${sqlState}` });
    }
    const wrapped = new DrizzleQueryError("select * from users where email = $1", ["someone@example.com"], postgres("ERR_POSTGRES_SERVER_ERROR", "57P01"));
    expect(storageFault(wrapped)).toEqual({ code: "57P01", message: "message for 57P01" });
    expect(storageFault(new StorageTimeout("the PostgreSQL state database", 2000))).toEqual({
      code: "ETIMEDOUT",
      message: "the PostgreSQL state database did not answer within 2000 ms",
    });
    // A unique violation, a syntax error, a transaction misused: bugs or the caller's business, not the storage's.
    expect(storageFault(postgres("ERR_POSTGRES_SERVER_ERROR", "23505"))).toBeUndefined();
    expect(storageFault(postgres("ERR_POSTGRES_SYNTAX_ERROR", "42601"))).toBeUndefined();
    expect(storageFault(postgres("ERR_POSTGRES_INVALID_TRANSACTION_STATE"))).toBeUndefined();
  });

  test("the one mapping: ApiError as it is, a fault 503 with Retry-After and reported, anything else a logged 500", () => {
    const logged: unknown[] = [];
    const faults: string[] = [];
    const toApiError = createErrorMapper({ logError: (e) => logged.push(e), onStorageFault: (f) => faults.push(f.code) });
    const own = new ApiError(404, "KEY_NOT_FOUND", "No such key.");
    expect(toApiError(own)).toBe(own);
    const unavailable = toApiError(full());
    expect({ status: unavailable.status, code: unavailable.code, message: unavailable.message }).toEqual({ status: 503, ...UNAVAILABLE });
    expect(unavailable.headers).toEqual({ "retry-after": "5" });
    expect(faults).toEqual(["SQLITE_FULL"]);
    expect(logged).toEqual([]);
    const bug = toApiError(constraint());
    expect(bug.status).toBe(500);
    expect(logged).toHaveLength(1);
  });
});

describe("while the state database refuses writes", () => {
  let t: TestApp;
  let key: string;
  beforeAll(async () => {
    t = await createTestApp({ env: { FOODAPI_AUTH_LIMIT: "1000/1m" } });
    key = (await t.issueKey()).key;
  });
  afterAll(() => t.close());

  const expect503 = async (response: Response) => {
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("5");
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(await response.json()).toEqual(UNAVAILABLE);
  };
  const signUp = (email: string) => t.request("/api/auth/sign-up/email", jsonPost({ email, password: "a long password", name: "S" }));

  test("Elysia routes and direct routes answer 503, /healthz 503, logged once; all recover when writes work again", async () => {
    expect((await t.request("/healthz")).status).toBe(200);
    // As a read-only file system (or a PostgreSQL standby) would: every write fails, reads still work.
    await t.state.refuseWrites();

    await expect503(await signUp("first@example.com"));
    // A direct route: the key's rate-limit count is a write.
    await expect503(await t.request("/v1/foods?q=apple", { headers: { "x-api-key": key } }));
    const health = await t.request("/healthz");
    expect(health.status).toBe(503);
    expect(await health.json()).toEqual({ status: "unavailable" });
    await expect503(await signUp("second@example.com"));
    expect(t.errors.map(String)).toEqual([expect.stringContaining(`storage fault ${t.state.readOnlyFault}`)]);

    await t.state.allowWrites();
    // /healthz writes its probe at most once a second, timed by the storage health's default clock,
    // performance.now() (createFoodApi passes it no other): moved a second on instead of waiting one.
    const realNow = performance.now.bind(performance);
    const aSecondLater = spyOn(performance, "now").mockImplementation(() => realNow() + 1000);
    try {
      expect(await (await t.request("/healthz")).json()).toEqual({ status: "ok" });
    } finally {
      aSecondLater.mockRestore();
    }
    expect((await signUp("first@example.com")).status).toBe(200);
    expect((await t.request("/v1/foods?q=apple", { headers: { "x-api-key": key } })).status).toBe(200);
    expect(t.errors.map(String)).toEqual([expect.stringContaining("storage fault"), expect.stringContaining("storage recovered")]);
  });
});
