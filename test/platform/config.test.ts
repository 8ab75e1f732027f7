import { describe, expect, test } from "bun:test";
import { type Config, ConfigError, loadConfig, parseRateSpec } from "../../src/platform/config/config";
import { parseArgs } from "../../src/platform/config/args";
import { COMMANDS } from "../../src/cli/commands";
import { type DefaultedSettingKey, type Setting, SETTINGS, type SettingKey } from "../../src/platform/config/settings";
import { readFileSync } from "node:fs";
import { join } from "node:path";

const load = (argv: string[], env: Record<string, string> = {}) => loadConfig(parseArgs(["serve", ...argv], COMMANDS).flags, env);

describe("config", () => {
  test("defaults", () => {
    const config = load([]);
    expect(config.port).toBe(3000);
    expect(config.host).toBe("127.0.0.1");
    expect(config.baseUrl.origin).toBe("http://127.0.0.1:3000");
    expect(config.clientIpHeader).toBe("cf-connecting-ip");
    expect(config.freeLimit).toEqual({ limit: 1000, windowSeconds: 3600 });
    expect(config.authLimit).toEqual({ limit: 10, windowSeconds: 60 });
    expect(config.trialIpLimit).toEqual({ limit: 10, windowSeconds: 3600 });
    expect(config.turnstileTimeoutMs).toBe(5000);
    expect(config.metricsToken).toBeUndefined();
    expect(config.corsOrigins).toEqual([]);
    expect(config.idleTimeoutSeconds).toBe(30);
    expect(config.logLevel).toBe("info");
    expect(Object.isFrozen(config)).toBe(true);
  });

  describe("each default is declared once, in the settings list", () => {
    const keys = Object.keys(SETTINGS) as SettingKey[];
    const defaulted = keys.filter((key): key is DefaultedSettingKey => "default" in SETTINGS[key]);
    /** The setting given its listed default, by its flag (or its variable, for the few without one). */
    const given = (key: DefaultedSettingKey): [string[], Record<string, string>] => {
      const s = SETTINGS[key];
      return s.flag ? [[`--${s.flag}`, s.default], {}] : [[], { [s.env]: s.default }];
    };
    // URLs compare by their text (toEqual sees no fields on a URL). Whether the client IP header was given
    // is the one thing that differs, by design: start-up warns about the unchosen default.
    const plain = ({ clientIpHeaderIsDefault: _, ...config }: Config) => JSON.parse(JSON.stringify(config));

    test("a start without settings is a start given every listed default", () => {
      expect(defaulted.length).toBeGreaterThan(10);
      const argv = defaulted.flatMap((key) => given(key)[0]);
      const env = Object.assign({}, ...defaulted.map((key) => given(key)[1]));
      expect(plain(load(argv, env))).toEqual(plain(load([])));
    });

    for (const key of defaulted) {
      test(`${key}: the loader's default is the listed '${SETTINGS[key].default}'`, () => {
        expect(plain(load(...given(key)))).toEqual(plain(load([])));
      });
    }

    test("docs/configuration.md's settings table shows the listed defaults", () => {
      const doc = readFileSync(join(import.meta.dir, "../../docs/configuration.md"), "utf8");
      for (const key of keys) {
        const s: Setting = SETTINGS[key];
        if (!s.flag) continue;
        const row = doc.split("\n").find((line) => line.startsWith(`| \`--${s.flag}\` | \`${s.env}\` | `));
        expect(row, `docs/configuration.md row for --${s.flag}`).toBeDefined();
        if (s.default !== undefined) expect(row!.split(" | ")[2]!.startsWith(`\`${s.default}\``), `docs/configuration.md default of --${s.flag}`).toBe(true);
      }
    });
  });

  test("a flag wins over its environment variable, which wins over the default", () => {
    expect(load([], { PORT: "4000" }).port).toBe(4000);
    expect(load(["--port", "5000"], { PORT: "4000" }).port).toBe(5000);
    expect(load(["--port=5001"], { PORT: "4000" }).port).toBe(5001);
    expect(load([], { FOODAPI_FREE_LIMIT: "5/1m" }).freeLimit).toEqual({ limit: 5, windowSeconds: 60 });
    expect(load(["--client-ip-header", ""], { FOODAPI_CLIENT_IP_HEADER: "x-real-ip" }).clientIpHeader).toBeNull();
    expect(load([], { FOODAPI_TURNSTILE_TIMEOUT_MS: "300" }).turnstileTimeoutMs).toBe(300);
    expect(load(["--turnstile-timeout-ms", "60000"], { FOODAPI_TURNSTILE_TIMEOUT_MS: "300" }).turnstileTimeoutMs).toBe(60000);
  });

  test("the operating settings: metrics token, CORS origins, idle timeout, log level", () => {
    const token = "s3cret-token-for-scrapes";
    expect(load([], { FOODAPI_METRICS_TOKEN: token }).metricsToken).toBe(token);
    expect(load(["--cors-origins", "https://a.example, https://b.example:8443/"]).corsOrigins).toEqual(["https://a.example", "https://b.example:8443"]);
    expect(load([], { FOODAPI_CORS_ORIGINS: " * " }).corsOrigins).toBe("*");
    expect(load([], { FOODAPI_CORS_ORIGINS: "" }).corsOrigins).toEqual([]);
    expect(load(["--idle-timeout", "5"], { FOODAPI_IDLE_TIMEOUT: "9" }).idleTimeoutSeconds).toBe(5);
    expect(load([], { FOODAPI_IDLE_TIMEOUT: "120s" }).idleTimeoutSeconds).toBe(120);
    expect(load([], { FOODAPI_LOG_LEVEL: "WARN" }).logLevel).toBe("warn");
    expect(load(["--log-level", "debug"]).logLevel).toBe("debug");
  });

  test("an invalid metrics token is refused without repeating it", () => {
    const secret = "short-secret";
    expect(() => load([], { FOODAPI_METRICS_TOKEN: secret })).toThrow("FOODAPI_METRICS_TOKEN");
    try {
      load([], { FOODAPI_METRICS_TOKEN: secret });
    } catch (error) {
      expect((error as Error).message).not.toContain(secret);
    }
  });

  describe("store URLs are checked once, by the loader", () => {
    test("a PostgreSQL and a Redis URL: the client's href, and what a message may show (no password, no query)", () => {
      const config = load(["--state-url", "postgresql://foodapi:pg-secret@db.internal:5433/food%20state?sslmode=require"], {
        FOODAPI_REDIS_URL: "rediss://:redis-secret@cache.internal:6380/0",
      });
      expect(config.stateUrl).toEqual({
        kind: "postgres",
        href: "postgresql://foodapi:pg-secret@db.internal:5433/food%20state?sslmode=require",
        display: "postgresql://foodapi@db.internal:5433/food%20state",
        host: "db.internal:5433",
        database: "food state",
      });
      expect(config.redisUrl).toEqual({ kind: "redis", href: "rediss://:redis-secret@cache.internal:6380/0", display: "rediss://cache.internal:6380/0", host: "cache.internal:6380" });
      expect(Object.isFrozen(config.stateUrl)).toBe(true);
      expect(load([]).stateUrl).toBeUndefined();
      expect(load([], { FOODAPI_REDIS_URL: "" }).redisUrl).toBeUndefined();
    });

    const refused: [string, string, string][] = [
      ["--state-url", "FOODAPI_STATE_URL", "redis://:secret@127.0.0.1:6379"],
      ["--state-url", "FOODAPI_STATE_URL", "mysql://root:secret@localhost/foodapi"],
      ["--state-url", "FOODAPI_STATE_URL", "not a url secret"],
      ["--state-url", "FOODAPI_STATE_URL", "/var/lib/foodapi/secret.sqlite"],
      ["--redis-url", "FOODAPI_REDIS_URL", "postgres://user:secret@localhost/db"],
      ["--redis-url", "FOODAPI_REDIS_URL", "http://:secret@localhost:6379"],
      ["--redis-url", "FOODAPI_REDIS_URL", "localhost:6379/secret"],
      ["--redis-url", "FOODAPI_REDIS_URL", "redis://"],
    ];
    for (const [flag, variable, url] of refused) {
      test(`${flag} '${url}' is a ConfigError naming the setting, without repeating the URL`, () => {
        for (const [argv, env, name] of [[[flag, url], {}, flag], [[], { [variable]: url }, variable]] as const) {
          const error = (() => {
            try {
              load([...argv], env);
            } catch (e) {
              return e as Error;
            }
          })();
          expect(error).toBeInstanceOf(ConfigError);
          expect(error!.message).toStartWith(`invalid ${name}: `);
          expect(error!.message).not.toContain("secret");
        }
      });
    }
  });

  test("rate specs", () => {
    expect(parseRateSpec("30/30s", "x")).toEqual({ limit: 30, windowSeconds: 30 });
    expect(parseRateSpec("7/1d", "x")).toEqual({ limit: 7, windowSeconds: 86400 });
    expect(parseRateSpec("7/h", "x")).toEqual({ limit: 7, windowSeconds: 3600 });
  });

  const invalid: [string[], Record<string, string>, string][] = [
    [["--port", "abc"], {}, "--port"],
    [[], { PORT: "70000" }, "PORT"],
    [["--free-limit", "5/xyz"], {}, "--free-limit"],
    [[], { FOODAPI_AUTH_LIMIT: "0/1m" }, "FOODAPI_AUTH_LIMIT"],
    [["--base-url", "not a url"], {}, "--base-url"],
    [["--trusted-origins", "https://ok.example,ftp://bad"], {}, "--trusted-origins"],
    [[], { FOODAPI_TRIAL_SECRET: "short" }, "FOODAPI_TRIAL_SECRET"],
    [["--turnstile-timeout-ms", "0"], {}, "--turnstile-timeout-ms"],
    [["--turnstile-timeout-ms", "60001"], {}, "--turnstile-timeout-ms"],
    [[], { FOODAPI_TURNSTILE_TIMEOUT_MS: "5s" }, "FOODAPI_TURNSTILE_TIMEOUT_MS"],
    [["--metrics-token", "has spaces in it, sixteen+"], {}, "--metrics-token"],
    [[], { FOODAPI_CORS_ORIGINS: "https://ok.example,ftp://bad" }, "FOODAPI_CORS_ORIGINS"],
    [["--cors-origins", "*,https://ok.example"], {}, "--cors-origins"],
    [["--idle-timeout", "0"], {}, "--idle-timeout"],
    [["--idle-timeout", "256"], {}, "--idle-timeout"],
    [[], { FOODAPI_IDLE_TIMEOUT: "1m" }, "FOODAPI_IDLE_TIMEOUT"],
    [["--log-level", "verbose"], {}, "--log-level"],
  ];
  for (const [argv, env, setting] of invalid) {
    test(`an invalid ${setting} is a ConfigError naming it`, () => {
      expect(() => load(argv, env)).toThrow(ConfigError);
      expect(() => load(argv, env)).toThrow(setting);
    });
  }
});
