import { afterAll, describe, expect, test } from "bun:test";
import { chownSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../src/platform/config/config";
import { SYSTEMD_UNIT } from "../../src/platform/config/settings";
import { AS_NOBODY, IS_ROOT, startServer } from "../helpers/binary";
import { jsonPost } from "../helpers/http";
import { BINARY_PATH } from "../helpers/paths";

/** deploy/foodapi.service and deploy/foodapi.env.example (the proxies: test/app/proxy.test.ts). */
const DEPLOY = join(import.meta.dir, "../..", "deploy");
const UNIT = readFileSync(join(DEPLOY, "foodapi.service"), "utf8");
const SYSTEMD_ANALYZE = "/usr/bin/systemd-analyze";

/** The unit's `Key=value` settings, in order (comments and section headers left out). */
const settings = (unit: string) =>
  unit
    .split("\n")
    .filter((line) => /^[A-Za-z]+=/.test(line))
    .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)] as const);
const setting = (name: string) => settings(UNIT).filter(([key]) => key === name).map(([, value]) => value);

describe("the systemd unit", () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  const haveAnalyze = Bun.spawnSync(["test", "-x", SYSTEMD_ANALYZE]).exitCode === 0;
  // CI installs systemd (.ci/run): there, its absence is a failure, not a skip.
  test.skipIf(!haveAnalyze && !process.env.CI)("passes systemd-analyze verify without a warning", () => {
    expect(haveAnalyze).toBe(true);
    // verify checks that ExecStart's program exists: the copy points at the binary just built.
    const dir = mkdtempSync(join(tmpdir(), "foodapi-unit-"));
    dirs.push(dir);
    const unit = UNIT.replace("ExecStart=/usr/local/bin/foodapi ", `ExecStart=${BINARY_PATH} `);
    expect(unit).not.toBe(UNIT);
    writeFileSync(join(dir, "foodapi.service"), unit);
    const result = Bun.spawnSync([SYSTEMD_ANALYZE, "verify", join(dir, "foodapi.service")], { stdout: "pipe", stderr: "pipe" });
    // verify exits 0 even for an unknown key, which it only warns about: no output at all is the bar.
    expect(result.stderr.toString() + result.stdout.toString()).toBe("");
    expect(result.exitCode).toBe(0);
  });

  test("declares a dynamic user, its state and cache directories, the sandbox, and SIGTERM to stop", () => {
    expect(setting("DynamicUser")).toEqual(["yes"]);
    expect(setting("StateDirectory")).toEqual(["foodapi"]);
    expect(setting("CacheDirectory")).toEqual(["foodapi"]);
    expect(setting("ExecStart")).toEqual(["/usr/local/bin/foodapi serve --data-dir /var/lib/foodapi --cache-dir /var/cache/foodapi"]);
    expect(setting("EnvironmentFile")).toEqual(["-/etc/foodapi/foodapi.env"]);
    // What the admin commands take for the service's settings (cli/service-settings.ts) is what the unit says.
    const flags = Object.entries(SYSTEMD_UNIT.flags).map(([flag, value]) => `--${flag} ${value}`);
    expect(setting("ExecStart")).toEqual([`/usr/local/bin/foodapi serve ${flags.join(" ")}`]);
    expect(setting("EnvironmentFile")).toEqual([`-${SYSTEMD_UNIT.envFile}`]);
    expect<string>(SYSTEMD_UNIT.flags["data-dir"]).toBe(`/var/lib/${setting("StateDirectory")[0]}`);
    expect<string>(SYSTEMD_UNIT.flags["cache-dir"]).toBe(`/var/cache/${setting("CacheDirectory")[0]}`);
    expect(setting("KillSignal")).toEqual(["SIGTERM"]);
    for (const [key, value] of [
      ["NoNewPrivileges", "yes"],
      ["ProtectSystem", "strict"],
      ["ProtectHome", "yes"],
      ["PrivateTmp", "yes"],
      ["CapabilityBoundingSet", ""],
      ["SystemCallArchitectures", "native"],
      ["UMask", "0077"],
    ] as const) {
      expect(setting(key)).toEqual([value]);
    }
    expect(setting("SystemCallFilter")[0]).toBe("@system-service");
    // Left off, with the reason in a comment beside it.
    expect(setting("MemoryDenyWriteExecute")).toEqual([]);
    expect(UNIT).toContain("#MemoryDenyWriteExecute=yes");
  });

  // As the unit runs it: a user with no writable home (nobody, HOME=/nonexistent), no new privileges, and
  // only --data-dir and --cache-dir writable (and /tmp, where the embedded argon2 module is written).
  test.skipIf(!IS_ROOT)("starts with no writable home directory when --data-dir and --cache-dir are given", async () => {
    const root = mkdtempSync(join(tmpdir(), "foodapi-nohome-"));
    dirs.push(root);
    for (const dir of ["data", "cache"]) mkdirSync(join(root, dir));
    for (const dir of ["", "data", "cache"]) chownSync(join(root, dir), 65534, 65534);
    const server = await startServer({
      cwd: root,
      prefix: [...AS_NOBODY, "--no-new-privs"],
      env: { HOME: "/nonexistent" },
      args: ["--workers", "1", "--client-ip-header", "", "--data-dir", join(root, "data"), "--cache-dir", join(root, "cache")],
    });
    try {
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      // A password is hashed by the native argon2 module: loading it as nobody works too.
      const signUp = await fetch(`${server.url}/api/auth/sign-up/email`, jsonPost({ email: "service@example.com", password: "a service password", name: "S" }));
      expect(signUp.status).toBe(200);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });
});

describe("the env file example", () => {
  const example = readFileSync(join(DEPLOY, "foodapi.env.example"), "utf8");

  test("names every environment variable the config loader reads", () => {
    // Every quoted upper-case name in src/platform/config/, wherever the settings are listed.
    const configDir = join(import.meta.dir, "../../src/platform/config");
    const sources = readdirSync(configDir).filter((name) => name.endsWith(".ts")).map((name) => readFileSync(join(configDir, name), "utf8"));
    const read = sources.flatMap((source) => [...source.matchAll(/"([A-Z][A-Z0-9_]{2,})"/g)].map((m) => m[1]!));
    expect(read.length).toBeGreaterThan(10);
    for (const name of new Set(read)) expect(example).toMatch(new RegExp(`^#?${name}=`, "m"));
  });

  test("every value in it, set or commented, is one the config loader accepts", () => {
    const env: Record<string, string> = {};
    for (const line of example.split("\n")) {
      const match = /^#?([A-Z][A-Z0-9_]+)=(.*)$/.exec(line);
      if (match) env[match[1]!] = match[2]!;
    }
    const config = loadConfig(new Map(), env);
    // The header deploy/nginx.conf and deploy/Caddyfile set is the default: shown, not set.
    expect(config.clientIpHeader).toBe("cf-connecting-ip");
    expect(example).toMatch(/^#FOODAPI_CLIENT_IP_HEADER=cf-connecting-ip$/m);
    expect(config.host).toBe("127.0.0.1");
  });
});
