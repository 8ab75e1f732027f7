import { describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { obtainTrialToken } from "../helpers/altcha";
import { runBinary, startServer } from "../helpers/binary";
import { jsonPost, sessionCookie } from "../helpers/http";
import { pollUntil } from "../helpers/wait";

function childrenOf(pid: number): number[] {
  return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").split(" ").filter(Boolean).map(Number);
}

/** Running, as opposed to gone or a zombie (a container's init may never reap an orphan). */
function isAlive(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.[0] !== "Z";
  } catch {
    return false;
  }
}

/** `--workers 2`: two processes on one port and one state database must behave as one service. */
describe("two workers", () => {
  test("exactly 30 trial requests across both workers, and a revocation seen by both at once", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "foodapi-workers-"));
    const server = await startServer({ cwd, args: ["--workers", "2"] });
    try {
      expect(server.stderr()).toContain("(2 workers");
      const { token } = await obtainTrialToken((path, init) => fetch(`${server.url}${path}`, init));
      const responses = await Promise.all(
        Array.from({ length: 60 }, () => fetch(`${server.url}/v1/nutrients`, { headers: { authorization: `Bearer ${token}`, connection: "close" } })),
      );
      const statuses = responses.map((r) => r.status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(30);
      expect(statuses.filter((s) => s === 429)).toHaveLength(30);

      // A key, used through both workers, then revoked through one of them.
      const signedUp = await fetch(`${server.url}/api/auth/sign-up/email`, jsonPost({ email: "w@example.com", password: "workers password", name: "W" }));
      const cookie = sessionCookie(signedUp);
      const issued = (await (await fetch(`${server.url}/v1/keys`, jsonPost({ name: "k" }, { cookie }))).json()) as { id: string; key: string };
      const burst = () =>
        Promise.all(Array.from({ length: 40 }, () => fetch(`${server.url}/v1/food-groups`, { headers: { "x-api-key": issued.key, connection: "close" } })));
      expect((await burst()).every((r) => r.status === 200)).toBe(true);
      expect((await fetch(`${server.url}/v1/keys/${issued.id}`, { method: "DELETE", headers: { cookie } })).status).toBe(204);
      expect((await burst()).map((r) => r.status)).toEqual(Array(40).fill(401));

      // Both workers really answered: the access log names them.
      const lines = await server.stdoutLines((entries) => new Set(entries.map((entry) => entry.worker)).size >= 2);
      const workersSeen = new Set(lines.map((line) => JSON.parse(line).worker));
      expect(workersSeen).toEqual(new Set([0, 1]));
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });

  test("a free-tier limit holds across workers", async () => {
    const server = await startServer({ args: ["--workers", "2", "--free-limit", "10/1m"] });
    try {
      const key = runBinary(["keys", "create", "--email", "limit@example.com", "--name", "k"], { cwd: server.cwd }).stdout.trim();
      const responses = await Promise.all(
        Array.from({ length: 30 }, () => fetch(`${server.url}/v1/nutrients`, { headers: { "x-api-key": key, connection: "close" } })),
      );
      expect(responses.filter((r) => r.status === 200)).toHaveLength(10);
      expect(responses.filter((r) => r.status === 429)).toHaveLength(20);
    } finally {
      await server.stop();
    }
  });

  test("a worker that dies is replaced; workers whose first process is killed outright stop themselves", async () => {
    const server = await startServer({ args: ["--workers", "2"] });
    const first = server.process.pid;
    try {
      const [worker] = childrenOf(first);
      expect(worker).toBeNumber();
      process.kill(worker!, "SIGKILL");
      await server.waitForStderr(/worker 1 exited/);
      // The replacement announces itself nowhere but in /proc; nor does an orphan's exit reach this process.
      const replacement = await pollUntil(() => childrenOf(first).find((pid) => pid !== worker), { ms: 5000, what: "a replacement worker process" });
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      process.kill(first, "SIGKILL");
      await pollUntil(() => (isAlive(replacement) ? undefined : true), { ms: 5000, what: `the orphaned worker ${replacement} stopping by itself` });
    } finally {
      await server.stop("SIGKILL");
    }
  });

  test("an invalid --workers stops start-up with exit code 2", () => {
    const result = runBinary(["serve", "--workers", "0"]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain("--workers");
  });
});
