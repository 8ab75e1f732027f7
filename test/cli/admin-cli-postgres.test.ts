import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { KeyListOutput, UserChangeOutput, UserListOutput } from "../../src/cli/admin-model";
import { type RunningServer, runBinaryAsync, startServer } from "../helpers/binary";
import { expectRefusal, parseJsonOutput } from "../helpers/cli-output";
import { jsonPost, sessionCookie } from "../helpers/http";
import { postgresMissing, redisMissing, type StoreServer, startPostgres, startRedis } from "../helpers/store-servers";

/**
 * The admin commands with the state in PostgreSQL and the revocation signal in Redis (design §10, §11):
 * the same commands, through the same store contracts, and a running binary with two workers refuses a
 * disabled account's key and a revoked key on the very next request (Redis pub/sub, not the key cache's
 * second). Backup and restore point to PostgreSQL's own tools.
 */
const missing = postgresMissing() ?? redisMissing();
if (missing) console.error(`skipping the PostgreSQL admin-command tests: ${missing}`);

let postgres: StoreServer;
let redis: StoreServer;
let server: RunningServer;
const env = () => ({ FOODAPI_STATE_URL: postgres.url, FOODAPI_REDIS_URL: redis.url });
const cli = (args: string[], stdin?: string) => runBinaryAsync(args, { env: env(), stdin });

async function burst(key: string, n = 16): Promise<number[]> {
  const responses = await Promise.all(Array.from({ length: n }, () => fetch(`${server.url}/v1/food-groups`, { headers: { "x-api-key": key, connection: "close" } })));
  return responses.map((response) => response.status);
}
const all = (n: number, status: number) => Array<number>(n).fill(status);

describe.skipIf(missing !== undefined)("admin commands on PostgreSQL + Redis", () => {
  beforeAll(async () => {
    [postgres, redis] = await Promise.all([startPostgres(), startRedis()]);
    server = await startServer({ env: env(), args: ["--workers", "2"] });
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    await Promise.all([postgres?.stop(), redis?.stop()]);
  });

  test("keys create, users disable and enable, keys revoke: in effect on both workers' next request", async () => {
    const created = await cli(["keys", "create", "--email", "pg@example.com", "--name", "k"]);
    expect(created.exitCode).toBe(0);
    const key = created.stdout.trim();
    expect(await burst(key)).toEqual(all(16, 200));

    const disabled = parseJsonOutput(UserChangeOutput, await cli(["users", "disable", "pg@example.com", "--json"]));
    expect(disabled.user).toMatchObject({ email: "pg@example.com", activeKeys: 1, hasPassword: false });
    expect(await burst(key)).toEqual(all(16, 401));
    const list = parseJsonOutput(UserListOutput, await cli(["users", "list", "--json"]));
    expect(list.items.map((u) => [u.email, u.disabledAt !== null])).toEqual([["pg@example.com", true]]);
    parseJsonOutput(UserChangeOutput, await cli(["users", "enable", "pg@example.com", "--json"]));
    expect(await burst(key)).toEqual(all(16, 200));

    // A password set from the command line lets the account made without one sign in.
    parseJsonOutput(UserChangeOutput, await cli(["users", "set-password", "pg@example.com", "--json"], "a password at last\n"));
    const signedIn = await fetch(`${server.url}/api/auth/sign-in/email`, jsonPost({ email: "pg@example.com", password: "a password at last" }));
    expect(signedIn.status).toBe(200);
    // Setting it again ends that session (in the same transaction as the change).
    const reset = parseJsonOutput(UserChangeOutput, await cli(["users", "set-password", "pg@example.com", "--json"], "another password\n"));
    expect(reset.sessionsEnded).toBe(1);
    expect(await (await fetch(`${server.url}/api/auth/get-session`, { headers: { cookie: sessionCookie(signedIn) } })).json()).toBeNull();

    const [listed] = parseJsonOutput(KeyListOutput, await cli(["keys", "list", "--json"])).items;
    expect((await cli(["keys", "revoke", listed!.id])).exitCode).toBe(0);
    expect(await burst(key)).toEqual(all(16, 401));
    expectRefusal(await cli(["keys", "revoke", listed!.id]), 1, "revoked already");
    expectRefusal(await cli(["users", "disable", "nobody@example.com"]), 1, "no account");
  });

  test("backup and restore name pg_dump and pg_restore (exit 2)", async () => {
    expectRefusal(await cli(["backup", "--out", "state.sqlite"]), 2, "pg_dump");
    expectRefusal(await cli(["restore", "state.sqlite"]), 2, "pg_restore");
  });
});
