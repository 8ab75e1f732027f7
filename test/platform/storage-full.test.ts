import { afterAll, expect, test } from "bun:test";
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { IS_ROOT, type RunningServer, startServer } from "../helpers/binary";
import { jsonPost, sessionCookie } from "../helpers/http";
import { pollUntil } from "../helpers/wait";

const UNAVAILABLE = { code: "SERVICE_UNAVAILABLE", message: "The service cannot store data right now. Try again shortly." };

const root = mkdtempSync(join(tmpdir(), "foodapi-full-"));
const dataDir = join(root, "data");
let mounted = false;
let server: RunningServer | undefined;
afterAll(async () => {
  if (server && server.process.exitCode === null) await server.stop();
  // Unmounted whatever happened above; lazily if something still holds it.
  if (mounted && Bun.spawnSync(["umount", dataDir]).exitCode !== 0) Bun.spawnSync(["umount", "-l", dataDir]);
  rmSync(root, { recursive: true, force: true });
});

/** Fills the file system with one file until it has no room left; returns the file. */
function fill(dir: string): string {
  const filler = join(dir, "filler");
  const fd = openSync(filler, "w");
  const chunk = Buffer.alloc(4096, 1);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOSPC") throw error;
  } finally {
    closeSync(fd);
  }
  return filler;
}

// A small tmpfs is a real full disk. Mounting needs root (as in CI); elsewhere this is skipped.
test.skipIf(!IS_ROOT)("on a full disk writes answer 503 with Retry-After and /healthz 503; with room again both recover, and no 500 at all", async () => {
  mkdirSync(dataDir);
  const mount = Bun.spawnSync(["mount", "-t", "tmpfs", "-o", "size=4m,mode=0700", "tmpfs", dataDir], { stderr: "pipe" });
  if (mount.exitCode !== 0) return console.warn(`skipped: cannot mount a tmpfs (${mount.stderr.toString().trim()})`);
  mounted = true;

  server = await startServer({ args: ["--workers", "1", "--data-dir", dataDir] });
  const { url } = server;
  const signUp = (email: string) => fetch(`${url}/api/auth/sign-up/email`, jsonPost({ email, password: "a long password", name: "F" }));
  const first = await signUp("first@example.com");
  expect(first.status).toBe(200);
  const cookie = sessionCookie(first);
  const issued = await fetch(`${url}/v1/keys`, jsonPost({ name: "before" }, { cookie }));
  expect(issued.status).toBe(201);
  const { key } = (await issued.json()) as { key: string };
  expect((await fetch(`${url}/healthz`)).status).toBe(200);

  const filler = fill(dataDir);
  const expect503 = async (response: Response) => {
    expect(response.status).toBe(503);
    expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await response.json()).toEqual(UNAVAILABLE);
  };
  await expect503(await signUp("second@example.com"));
  await expect503(await fetch(`${url}/v1/keys`, jsonPost({ name: "during" }, { cookie })));
  // A direct route: counting the key's request against its limit is a write.
  await expect503(await fetch(`${url}/v1/foods?q=apple`, { headers: { "x-api-key": key } }));
  const health = await fetch(`${url}/healthz`);
  expect(health.status).toBe(503);
  expect(await health.json()).toEqual({ status: "unavailable" });

  rmSync(filler);
  // /healthz writes its probe at most once a second: the server in another process has no clock to move,
  // so /healthz is asked until its probe has succeeded again.
  await pollUntil(async () => ((await fetch(`${url}/healthz`)).status === 200 ? true : undefined), {
    ms: 5_000,
    intervalMs: 50,
    what: "/healthz answering 200 again once the disk has room",
  });
  expect((await signUp("second@example.com")).status).toBe(200);
  expect((await fetch(`${url}/v1/keys`, jsonPost({ name: "after" }, { cookie }))).status).toBe(201);
  expect((await fetch(`${url}/v1/foods?q=apple`, { headers: { "x-api-key": key } })).status).toBe(200);

  // Still the same process, which logged the outage once and its end, and never answered 500: read once it
  // has stopped, when its logs are complete.
  expect(server.process.exitCode).toBeNull();
  expect(await server.stop()).toBe(0);
  const statuses = (await server.stdoutLines()).map((line) => JSON.parse(line).status as number);
  expect(statuses.filter((status) => status >= 500 && status !== 503)).toEqual([]);
  expect(server.stderr().match(/storage fault SQLITE_FULL/g)).toHaveLength(1);
  expect(server.stderr()).toContain("storage recovered");
  expect(server.stderr()).not.toMatch(/\n\s+at /);
});
