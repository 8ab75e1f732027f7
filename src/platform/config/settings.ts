/**
 * Every setting foodapi reads, in one list: the config loader reads each by its flag and environment
 * variable, `help` prints them, and the argument parser accepts exactly these flags (an unknown one is an
 * error, not silently ignored).
 *
 * A setting's default is declared here once: `default` is the value as an operator would write it, and
 * the loader reads it with the same parser as a flag's value, so `help` and the loader cannot disagree
 * (test/platform/config.test.ts checks that a start without settings equals one given every default, and that
 * docs/configuration.md's table, generated from this list by `npm run docs:config`, shows them).
 * A setting without one has `unset`: what no value means, in words (derived at start, or nothing).
 */
interface SettingBase {
  readonly flag: string | null;
  readonly env: string | null;
  readonly help: string;
}

export type Setting = SettingBase & ({ readonly default: string; readonly unset?: never } | { readonly unset: string; readonly default?: never });

/**
 * The data directory when none is set. A foodapi checkout keeps SR28 in ./data (data/sr28, committed), so
 * the state goes beside it instead, where `rm -rf data` cannot take SR28 with it. A checkout is a directory
 * with data/sr28/ and a package.json named foodapi (config.ts); there, a state database an earlier version
 * left in ./data keeps being used, with a notice saying how to move it.
 */
export const DATA_DIR_DEFAULT = { checkout: "./.foodapi", elsewhere: "./data" } as const;

/**
 * What deploy/foodapi.service gives `serve` besides the environment: its env file and the directory flags
 * on its ExecStart (its StateDirectory and CacheDirectory, the only places it may write). The commands that
 * work on the server's state (keys, users, backup, restore) read the same, so that run as root on the
 * systemd install they find what the service uses (cli/service-settings.ts; test/app/deploy.test.ts checks
 * the unit against this).
 */
export const SYSTEMD_UNIT = {
  envFile: "/etc/foodapi/foodapi.env",
  flags: { "data-dir": "/var/lib/foodapi", "cache-dir": "/var/cache/foodapi" },
} as const;

export const SETTINGS = {
  port: { flag: "port", env: "PORT", default: "3000", help: "port to listen on (0: any free port, printed at start)" },
  host: { flag: "host", env: "HOST", default: "127.0.0.1", help: "address to listen on (an IP address or a host name)" },
  dataDir: {
    flag: "data-dir",
    env: "FOODAPI_DATA_DIR",
    unset: `${DATA_DIR_DEFAULT.checkout} in a foodapi checkout, else ${DATA_DIR_DEFAULT.elsewhere}`,
    help: "the state database's directory (a checkout's ./data holds SR28)",
  },
  baseUrl: { flag: "base-url", env: "FOODAPI_BASE_URL", unset: "http://<host>:<port>", help: "the public origin (origin checks, Secure cookies)" },
  trustedOrigins: { flag: "trusted-origins", env: "FOODAPI_TRUSTED_ORIGINS", unset: "none", help: "other origins allowed to use the cookie routes, comma-separated" },
  clientIpHeader: { flag: "client-ip-header", env: "FOODAPI_CLIENT_IP_HEADER", default: "cf-connecting-ip", help: "header the proxy sets to the client IP (empty: the TCP peer)" },
  freeLimit: { flag: "free-limit", env: "FOODAPI_FREE_LIMIT", default: "1000/1h", help: "requests per window for each free key" },
  authLimit: { flag: "auth-limit", env: "FOODAPI_AUTH_LIMIT", default: "10/1m", help: "sign-in, sign-up and password attempts per client IP and route" },
  passwordFailureLimit: { flag: "password-failure-limit", env: "FOODAPI_PASSWORD_FAILURE_LIMIT", default: "10/15m", help: "wrong passwords per account from any client IP (sign-in, and change-password with delete-user, counted apart)" },
  trialIpLimit: { flag: "trial-ip-limit", env: "FOODAPI_TRIAL_IP_LIMIT", default: "10/1h", help: "trial challenges and tokens per client IP and route" },
  keyIssueLimit: { flag: "key-issue-limit", env: "FOODAPI_KEY_ISSUE_LIMIT", default: "60/1h", help: "API keys an account may issue per window" },
  catalog: { flag: "catalog", env: "FOODAPI_CATALOG", unset: "the embedded one", help: "a catalog file from 'foodapi import' to serve instead" },
  cacheDir: {
    flag: "cache-dir",
    env: "FOODAPI_CACHE_DIR",
    unset: "$XDG_CACHE_HOME/foodapi, else ~/.cache/foodapi, else (no HOME) <data-dir>/cache, named at start",
    help: "where the embedded catalog (210 MB) is unpacked once",
  },
  workers: { flag: "workers", env: "FOODAPI_WORKERS", unset: "one per core", help: "server processes sharing the port and state (1-64)" },
  stateUrl: { flag: "state-url", env: "FOODAPI_STATE_URL", unset: "SQLite in the data directory", help: "postgres://… : accounts, sessions, keys and trial state in PostgreSQL (15+)" },
  redisUrl: { flag: "redis-url", env: "FOODAPI_REDIS_URL", unset: "the state store", help: "redis://… or rediss://… : rate-limit windows and the revocation signal in Redis (7+)" },
  metricsToken: { flag: "metrics-token", env: "FOODAPI_METRICS_TOKEN", unset: "no /metrics", help: "serve GET /metrics to 'Authorization: Bearer <token>' (16-512 characters; prefer the variable: flags show in ps)" },
  corsOrigins: { flag: "cors-origins", env: "FOODAPI_CORS_ORIGINS", unset: "none", help: "origins whose browsers may call the data API, comma-separated, or *" },
  idleTimeout: { flag: "idle-timeout", env: "FOODAPI_IDLE_TIMEOUT", default: "30", help: "seconds a connection may stay idle or stall mid-request before it is closed (1-255)" },
  logLevel: { flag: "log-level", env: "FOODAPI_LOG_LEVEL", default: "info", help: "error, warn, info (adds the access log) or debug (adds the route template to each line)" },
  trialSecret: { flag: null, env: "FOODAPI_TRIAL_SECRET", unset: "generated once", help: "signs trial tokens (at least 32 characters); kept in the data directory if unset" },
  turnstileSecretKey: { flag: null, env: "TURNSTILE_SECRET_KEY", unset: "ALTCHA's proof of work", help: "verify trial challenges with Cloudflare Turnstile instead" },
  turnstileVerifyUrl: { flag: null, env: "TURNSTILE_VERIFY_URL", default: "https://challenges.cloudflare.com/turnstile/v0/siteverify", help: "Turnstile's siteverify URL" },
  turnstileTimeoutMs: { flag: "turnstile-timeout-ms", env: "FOODAPI_TURNSTILE_TIMEOUT_MS", default: "5000", help: "ms to wait for Turnstile's siteverify, then 503 (1-60000)" },
} as const satisfies Record<string, Setting>;

export type SettingKey = keyof typeof SETTINGS;

/** The settings that have a `default` value (the others' absence means what their `unset` says). */
export type DefaultedSettingKey = { [K in SettingKey]: (typeof SETTINGS)[K] extends { readonly default: string } ? K : never }[SettingKey];

/** The flags `serve` accepts. */
export const SETTING_FLAGS: readonly string[] = Object.values(SETTINGS).flatMap((s: Setting) => (s.flag ? [s.flag] : []));

/** The default as help shows it: the value itself, or what no value means. */
const shownDefault = (s: Setting): string => s.default ?? s.unset!;

/** The settings as help text lines: flag, variable, default, what it does. */
export function settingsHelp(keys: readonly SettingKey[] = Object.keys(SETTINGS) as SettingKey[]): string {
  const rows = keys.map((key) => {
    const s: Setting = SETTINGS[key];
    return [s.flag ? `--${s.flag}` : "", s.env ?? "", shownDefault(s), s.help];
  });
  const widths = [0, 1].map((column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows.map(([flag, env, shown, help]) => `  ${flag!.padEnd(widths[0]!)}  ${env!.padEnd(widths[1]!)}  ${help} (default: ${shown})`).join("\n");
}
