import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { announce } from "../../src/cli/announce";
import { loadConfig } from "../../src/platform/config/config";
import { runBinary, startServer, type RunningServer } from "../helpers/binary";
import { BINARY_PATH } from "../helpers/paths";

/** The command line as a new self-hoster meets it: every mistake is one line naming it, with its exit code. */
const oneLine = (result: { exitCode: number; stdout: string; stderr: string }, exitCode: number, ...mentions: string[]) => {
  expect(result.exitCode).toBe(exitCode);
  expect(result.stdout).toBe("");
  expect(result.stderr.trimEnd().split("\n")).toHaveLength(1);
  expect(result.stderr).toStartWith("foodapi: ");
  for (const mention of mentions) expect(result.stderr).toContain(mention);
};

const servers: RunningServer[] = [];
afterAll(async () => {
  for (const server of servers) await server.stop();
});

describe("arguments", () => {
  test("unknown options and stray words are errors naming them (exit 2), whether or not a value follows", () => {
    oneLine(runBinary(["serve", "--prot", "3050"]), 2, "'--prot'", "foodapi serve --help");
    oneLine(runBinary(["--wokers", "1"]), 2, "'--wokers'");
    oneLine(runBinary(["serve", "--bogus"]), 2, "'--bogus'");
    oneLine(runBinary(["serve", "extra"]), 2, "'extra'");
    oneLine(runBinary(["import", "--nope", "x"]), 2, "'--nope'", "foodapi import --help");
    oneLine(runBinary(["keys", "create", "--email", "a@example.com", "--name", "k", "--port", "1"]), 2, "'--port'");
    oneLine(runBinary(["keys"]), 2, "foodapi keys");
    oneLine(runBinary(["--port"]), 2, "--port needs a value");
  });

  test("-h, --help, -v, --version, help and each command's own usage", () => {
    for (const flag of ["-v", "--version"]) expect(runBinary([flag]).stdout).toMatch(/^foodapi \d+\.\d+\.\d+ \(commit /);
    const overall = runBinary(["help"]);
    expect(overall.exitCode).toBe(0);
    for (const name of ["--port", "--key-issue-limit", "FOODAPI_TRIAL_SECRET", "TURNSTILE_SECRET_KEY", "TURNSTILE_VERIFY_URL", "--turnstile-timeout-ms", "foodapi import", "foodapi keys"]) {
      expect(overall.stdout).toContain(name);
    }
    expect(runBinary(["-h"]).stdout).toBe(overall.stdout);
    expect(runBinary(["serve", "--help"]).stdout).toStartWith("Usage: foodapi [serve] [options]");
    expect(runBinary(["import", "--help"]).stdout).toStartWith("Usage: foodapi import");
    expect(runBinary(["keys", "--help"]).stdout).toStartWith("Usage: foodapi keys create");
    expect(runBinary(["help", "keys"]).stdout).toStartWith("Usage: foodapi keys create");
  });
});

describe("start-up failures: one line naming the setting and what to do", () => {
  test("a host that is not an address (exit 2), whether by syntax or at bind time", () => {
    oneLine(runBinary(["serve", "--port", "0", "--host", "999.1.1.1"]), 2, "--host", "999.1.1.1");
    // A name that does not resolve (RFC 6761: never), however the port is bound: one server, or several
    // sharing a fixed port (which is first checked to be free).
    for (const [port, workers] of [["18765", "2"], ["18765", "1"], ["0", "2"], ["0", "1"]] as const) {
      oneLine(runBinary(["serve", "--port", port, "--workers", workers, "--host", "example.invalid"]), 2, "--host", "example.invalid", "does not resolve");
    }
  });

  test("a Turnstile timeout that is not a number of milliseconds (exit 2), as a flag or a variable", () => {
    oneLine(runBinary(["serve", "--port", "0", "--turnstile-timeout-ms", "0"]), 2, "--turnstile-timeout-ms", "'0'", "1-60000");
    oneLine(runBinary(["serve", "--port", "0"], { env: { FOODAPI_TURNSTILE_TIMEOUT_MS: "5s" } }), 2, "FOODAPI_TURNSTILE_TIMEOUT_MS", "'5s'");
  });

  test("a port another program holds (exit 1)", () => {
    const holder = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
    try {
      for (const workers of ["1", "2"]) {
        oneLine(runBinary(["serve", "--port", String(holder.port), "--workers", workers]), 1, `port ${holder.port}`, "already in use", "--port");
      }
    } finally {
      holder.stop(true);
    }
  });

  test("a second foodapi on a port in use exits 1 while the first keeps all the traffic", async () => {
    const first = await startServer({ args: ["--workers", "2"] });
    servers.push(first);
    const port = new URL(first.url).port;
    const second = runBinary(["serve", "--port", port, "--workers", "2"]);
    oneLine(second, 1, `port ${port}`, "already in use");
    const key = runBinary(["keys", "create", "--email", "port@example.com", "--name", "k"], { cwd: first.cwd }).stdout.trim();
    for (let i = 0; i < 20; i++) {
      const response = await fetch(`${first.url}/v1/food-groups`, { headers: { "x-api-key": key, connection: "close" } });
      expect(response.status).toBe(200);
      await response.arrayBuffer();
    }
  });
});

describe("keys create", () => {
  test("in a directory without a data directory it refuses, names where it looked, and creates nothing", () => {
    const cwd = mkdtempSync(join(tmpdir(), "foodapi-cli-"));
    oneLine(runBinary(["keys", "create", "--email", "a@example.com", "--name", "k"], { cwd }), 1, `no data directory at ${join(cwd, "data")}`, "--data-dir");
    expect(existsSync(join(cwd, "data"))).toBe(false);
    expect(readdirSync(cwd)).toEqual([]);
  });
});

describe("the client-IP warning", () => {
  const warnings = (env: Record<string, string>) => {
    const lines: string[] = [];
    const original = console.error;
    console.error = (line: string) => void lines.push(line);
    try {
      announce(loadConfig(new Map(), env), "http://x", 1, "catalog test");
    } finally {
      console.error = original;
    }
    return lines.slice(1);
  };

  test("only off loopback, only for the default header, once, saying what to do", () => {
    expect(warnings({})).toEqual([]);
    expect(warnings({ HOST: "::1" })).toEqual([]);
    const warned = warnings({ HOST: "0.0.0.0" });
    expect(warned).toHaveLength(1);
    expect(warned[0]).toContain('--client-ip-header ""');
    expect(warnings({ HOST: "0.0.0.0", FOODAPI_CLIENT_IP_HEADER: "x-real-ip" })).toEqual([]);
    expect(warnings({ HOST: "0.0.0.0", FOODAPI_CLIENT_IP_HEADER: "" })).toEqual([]);
  });
});

describe("foodapi trial-token", () => {
  test("prints a working trial token as the only line on stdout; without a server it says so in one line", async () => {
    const server = await startServer({ args: ["--workers", "1"] });
    servers.push(server);
    const issued = Bun.spawnSync([BINARY_PATH, "trial-token", "--url", server.url], { stdout: "pipe", stderr: "pipe", env: { PATH: process.env.PATH ?? "" } });
    expect(issued.exitCode).toBe(0);
    const token = issued.stdout.toString();
    expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\n$/);
    const search = await fetch(`${server.url}/v1/foods?q=apple`, { headers: { authorization: `Bearer ${token.trim()}` } });
    expect(search.status).toBe(200);
    expect(search.headers.get("ratelimit")).toMatch(/^"trial";r=29;/);
    await search.arrayBuffer();

    const closed = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
    const port = closed.port;
    closed.stop(true);
    oneLine(runBinary(["trial-token", "--url", `http://127.0.0.1:${port}`]), 1, "no foodapi answers at", "--url");
  });
});
