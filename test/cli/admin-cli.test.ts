import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { CreatedKeyOutput, KeyListOutput, RevokedKeyOutput, UserChangeOutput, UserListOutput } from "../../src/cli/admin-model";
import { type RunningServer, runBinaryAsync, startServer } from "../helpers/binary";
import { expectRefusal, parseJsonOutput } from "../helpers/cli-output";
import { jsonPost, sessionCookie } from "../helpers/http";

/**
 * The admin commands (design §10) against a running compiled binary with two workers: each change is
 * in effect on the very next request, on both workers (bursts of new connections, which the kernel spreads
 * over them; the access log shows both answered), `--json` output has its declared shape, and a bad
 * e-mail or id gets the documented exit code.
 */

let server: RunningServer;
const EMAIL = "admin-target@example.com";
const PASSWORD = "the first password";
let cookie: string;
let keys: { id: string; key: string }[];

const cli = (args: string[], stdin?: string) => runBinaryAsync(args, { cwd: server.cwd, stdin });

/** `n` requests with the key, each on a new connection: their statuses. */
async function burst(key: string, n = 16): Promise<number[]> {
  const responses = await Promise.all(Array.from({ length: n }, () => fetch(`${server.url}/v1/food-groups`, { headers: { "x-api-key": key, connection: "close" } })));
  return responses.map((response) => response.status);
}
const all = (n: number, status: number) => Array<number>(n).fill(status);

const signIn = (password: string) => fetch(`${server.url}/api/auth/sign-in/email`, jsonPost({ email: EMAIL, password }));
const keyRoute = (withCookie: string) => fetch(`${server.url}/v1/keys`, { headers: { cookie: withCookie } });

beforeAll(async () => {
  server = await startServer({ args: ["--workers", "2", "--auth-limit", "100000/1m"] });
  const signedUp = await fetch(`${server.url}/api/auth/sign-up/email`, jsonPost({ email: EMAIL, password: PASSWORD, name: "Target" }));
  expect(signedUp.status).toBe(200);
  cookie = sessionCookie(signedUp);
  keys = [];
  for (const name of ["one", "two"]) keys.push((await (await fetch(`${server.url}/v1/keys`, jsonPost({ name }, { cookie }))).json()) as { id: string; key: string });
});

afterAll(async () => {
  await server.stop();
});

describe("listing", () => {
  test("users list and keys list, as JSON of their declared shapes and as text", async () => {
    const created = parseJsonOutput(CreatedKeyOutput, await cli(["keys", "create", "--email", "cli-made@example.com", "--name", "from the cli", "--json"]));
    expect(created).toMatchObject({ email: "cli-made@example.com", name: "from the cli", tier: "free", lastUsedAt: null });
    expect(await burst(created.key, 2)).toEqual(all(2, 200));

    const users = parseJsonOutput(UserListOutput, await cli(["users", "list", "--json"]));
    expect(users.items.map((u) => [u.email, u.hasPassword, u.activeKeys, u.disabledAt])).toEqual([
      [EMAIL, true, 2, null],
      ["cli-made@example.com", false, 1, null],
    ]);
    const text = await cli(["users", "list"]);
    expect(text.exitCode).toBe(0);
    expect(text.stdout.split("\n")[0]).toMatch(/^EMAIL\s+NAME\s+STATUS\s+PASSWORD\s+KEYS\s+CREATED\s+ID$/);
    expect(text.stdout).toMatch(new RegExp(`${EMAIL}\\s+Target\\s+active\\s+yes\\s+2\\s`));

    const everyKey = parseJsonOutput(KeyListOutput, await cli(["keys", "list", "--json"]));
    // Newest first; never a plaintext key.
    expect(everyKey.items.map((k) => [k.id, k.email])).toEqual([
      [created.id, "cli-made@example.com"],
      [keys[1]!.id, EMAIL],
      [keys[0]!.id, EMAIL],
    ]);
    expect(JSON.stringify(everyKey)).not.toContain(keys[0]!.key);
    const theirs = parseJsonOutput(KeyListOutput, await cli(["keys", "list", "--email", EMAIL, "--json"]));
    expect(theirs.items.map((k) => k.name)).toEqual(["two", "one"]);
    const keyText = await cli(["keys", "list", "--email", EMAIL]);
    expect(keyText.stdout).toContain(keys[0]!.id);
    expect(keyText.stdout).not.toContain(keys[0]!.key);
  });
});

describe("each change reaches both workers' very next request", () => {
  test("users disable: sessions ended, keys 401, sign-in 403 BANNED_USER; users enable undoes it", async () => {
    // Cached by both workers first: the change must not wait for a cache to expire.
    expect(await burst(keys[0]!.key)).toEqual(all(16, 200));
    const disabled = parseJsonOutput(UserChangeOutput, await cli(["users", "disable", EMAIL, "--json"]));
    expect(disabled.user).toMatchObject({ email: EMAIL, activeKeys: 2 });
    expect(disabled.user.disabledAt).toBeString();
    expect(disabled.sessionsEnded).toBe(1);

    expect(await burst(keys[0]!.key)).toEqual(all(16, 401));
    expect(await burst(keys[1]!.key)).toEqual(all(16, 401));
    expect((await keyRoute(cookie)).status).toBe(401);
    expect(await (await fetch(`${server.url}/api/auth/get-session`, { headers: { cookie } })).json()).toBeNull();
    const banned = await signIn(PASSWORD);
    expect(banned.status).toBe(403);
    expect(await banned.json()).toEqual({ code: "BANNED_USER", message: expect.any(String) });
    // Only the holder of the password learns of the ban.
    expect((await signIn("a wrong password")).status).toBe(401);
    // Disabling again changes nothing and says so.
    const again = await cli(["users", "disable", EMAIL]);
    expect(again.exitCode).toBe(0);
    expect(again.stdout).toContain("disabled already");

    const enabled = parseJsonOutput(UserChangeOutput, await cli(["users", "enable", EMAIL, "--json"]));
    expect(enabled).toMatchObject({ user: { email: EMAIL, disabledAt: null, activeKeys: 2 }, sessionsEnded: 0 });
    expect(await burst(keys[0]!.key)).toEqual(all(16, 200));
    const signedIn = await signIn(PASSWORD);
    expect(signedIn.status).toBe(200);
    cookie = sessionCookie(signedIn);
    expect((await keyRoute(cookie)).status).toBe(200);
  });

  test("users set-password: the password from stdin, the sign-up rules, every session ended", async () => {
    const other = sessionCookie(await signIn(PASSWORD));
    expect((await keyRoute(other)).status).toBe(200);
    // Refused by the sign-up rules: nothing changes.
    expectRefusal(await cli(["users", "set-password", EMAIL], "short\n"), 2, "at least 8 characters");
    expectRefusal(await cli(["users", "set-password", EMAIL], "two\nlines here\n"), 2, "one line");
    expect((await keyRoute(cookie)).status).toBe(200);

    const changed = parseJsonOutput(UserChangeOutput, await cli(["users", "set-password", EMAIL, "--json"], "the second password\n"));
    expect(changed).toMatchObject({ user: { email: EMAIL, hasPassword: true }, sessionsEnded: 2 });
    expect((await keyRoute(cookie)).status).toBe(401);
    expect((await keyRoute(other)).status).toBe(401);
    expect((await signIn(PASSWORD)).status).toBe(401);
    const signedIn = await signIn("the second password");
    expect(signedIn.status).toBe(200);
    // The account's keys are untouched.
    expect(await burst(keys[0]!.key, 4)).toEqual(all(4, 200));
  });

  test("keys revoke: refused from the next request on; a second revoke and an unknown id exit 1", async () => {
    expect(await burst(keys[1]!.key)).toEqual(all(16, 200));
    const revoked = parseJsonOutput(RevokedKeyOutput, await cli(["keys", "revoke", keys[1]!.id, "--json"]));
    expect(revoked.key).toMatchObject({ id: keys[1]!.id, email: EMAIL, name: "two" });
    expect(await burst(keys[1]!.key)).toEqual(all(16, 401));
    expect(await burst(keys[0]!.key, 4)).toEqual(all(4, 200));
    expectRefusal(await cli(["keys", "revoke", keys[1]!.id]), 1, "revoked already");
    expectRefusal(await cli(["keys", "revoke", "key_doesNotExist"]), 1, "no key has the id 'key_doesNotExist'");
    expect(parseJsonOutput(KeyListOutput, await cli(["keys", "list", "--email", EMAIL, "--json"])).items.map((k) => k.id)).toEqual([keys[0]!.id]);
  });

  test("both workers answered the refused bursts", async () => {
    const lines = await server.stdoutLines((entries) => new Set(entries.filter((e) => e.status === 401 && e.path === "/v1/food-groups").map((e) => e.worker)).size >= 2);
    const workers = new Set(lines.map((line) => JSON.parse(line)).filter((e) => e.status === 401 && e.path === "/v1/food-groups").map((e) => e.worker));
    expect(workers).toEqual(new Set([0, 1]));
  });
});

describe("bad arguments", () => {
  test("an unknown e-mail exits 1, a malformed one or a wrong word 2, each with one line", async () => {
    for (const sub of ["disable", "enable"]) expectRefusal(await cli(["users", sub, "nobody@example.com"]), 1, "no account has the e-mail nobody@example.com");
    expectRefusal(await cli(["users", "set-password", "nobody@example.com"], "a long enough password\n"), 1, "no account");
    expectRefusal(await cli(["keys", "list", "--email", "nobody@example.com"]), 1, "no account");
    expectRefusal(await cli(["users", "disable", "not-an-email"]), 2, "valid e-mail address");
    expectRefusal(await cli(["users", "disable"]), 2, "needs an EMAIL");
    expectRefusal(await cli(["users"]), 2, "'foodapi users' needs a subcommand");
    expectRefusal(await cli(["users", "frobnicate"]), 2, "unknown subcommand 'users frobnicate'");
    expectRefusal(await cli(["keys", "revoke"]), 2, "foodapi keys revoke ID");
    expectRefusal(await cli(["keys", "list", "--name", "x"]), 2, "takes no --name");
    expectRefusal(await cli(["users", "list", "--json=yes"]), 2, "--json takes no value");
    // Nothing was changed by any of them.
    expect(parseJsonOutput(UserListOutput, await cli(["users", "list", "--json"])).items.map((u) => u.disabledAt)).toEqual([null, null]);
  });

  test("foodapi --help lists the commands; each has its usage", async () => {
    const help = (await runBinaryAsync(["--help"])).stdout;
    for (const name of ["keys", "users", "backup", "restore"]) expect(help).toMatch(new RegExp(`\\n  foodapi ${name} +\\S`));
    for (const [command, usage] of [
      ["users", "Usage: foodapi users list"],
      ["keys", "Usage: foodapi keys create"],
      ["backup", "Usage: foodapi backup --out FILE"],
      ["restore", "Usage: foodapi restore FILE"],
    ]) {
      expect((await runBinaryAsync([command!, "--help"])).stdout).toStartWith(usage!);
      expect((await runBinaryAsync(["help", command!])).stdout).toStartWith(usage!);
    }
  });

  test("without a data directory each command says where it looked and creates nothing (exit 1)", async () => {
    const elsewhere = await runBinaryAsync(["users", "list"]);
    expectRefusal(elsewhere, 1, "no data directory at", "'users list'");
  });
});
