import { existsSync, readFileSync } from "node:fs";
import { isIP } from "../ip-address";
import { join, resolve } from "node:path";
import { STATE_FILE_NAME } from "../storage/data-files";
import { DATA_DIR_DEFAULT, type DefaultedSettingKey, SETTINGS, type SettingKey } from "./settings";

/**
 * The one config loader: every setting is read here, once, from a flag, else its environment variable,
 * else its default (settings.ts, read by the same parser), and validated. A bad value stops start-up naming the setting (exit code 2).
 */

export interface RateSpec {
  readonly limit: number;
  readonly windowSeconds: number;
}

export interface Config {
  readonly port: number;
  readonly host: string;
  readonly dataDir: string;
  /** A line for start-up to print about the data directory it chose by itself (a checkout's ./data kept). */
  readonly dataDirNotice: string | undefined;
  readonly baseUrl: URL;
  readonly trustedOrigins: readonly string[];
  /** Header carrying the client IP set by the edge proxy; null means the TCP peer address only. */
  readonly clientIpHeader: string | null;
  /** The header is the default one, not a choice the operator made (start-up warns about it off loopback). */
  readonly clientIpHeaderIsDefault: boolean;
  readonly freeLimit: RateSpec;
  readonly authLimit: RateSpec;
  /** Wrong passwords an account may have in a window, whatever the client IP (accounts/password-check.ts). */
  readonly passwordFailureLimit: RateSpec;
  readonly trialIpLimit: RateSpec;
  /** API keys an account may issue per window. */
  readonly keyIssueLimit: RateSpec;
  readonly trialSecret: string | undefined;
  readonly turnstileSecretKey: string | undefined;
  readonly turnstileVerifyUrl: string;
  /** How long a trial-token request waits for Turnstile's siteverify before it is 503 CHALLENGE_UNAVAILABLE. */
  readonly turnstileTimeoutMs: number;
  /** A catalog database file to serve instead of the one embedded in the binary. */
  readonly catalogPath: string | undefined;
  /** Where the embedded catalog is expanded once and read from (shared by every data directory and worker). */
  readonly cacheDir: string;
  /** Nothing named a cache directory, not even a home directory: the catalog goes into the data directory. */
  readonly cacheDirInDataDir: boolean;
  /** Server processes sharing the port (SO_REUSEPORT) and the state database. */
  readonly workers: number;
  /** PostgreSQL for the state instead of SQLite in the data directory (design §11). Its `href` holds credentials: never logged. */
  readonly stateUrl: PostgresUrl | undefined;
  /** Redis for the counters instead of the state store. Its `href` holds credentials: never logged. */
  readonly redisUrl: RedisUrl | undefined;
  /** The bearer token `GET /metrics` requires; undefined: there is no /metrics. A secret: never logged. */
  readonly metricsToken: string | undefined;
  /** Origins whose browsers may call the data API (CORS), or "*" for any; empty: no CORS headers. */
  readonly corsOrigins: readonly string[] | "*";
  /** Seconds a connection may stay idle (or stall mid-request) before the server closes it. */
  readonly idleTimeoutSeconds: number;
  readonly logLevel: LogLevel;
}

const LOG_LEVELS = ["error", "warn", "info", "debug"] as const;
type LogLevel = (typeof LOG_LEVELS)[number];

export class ConfigError extends Error {
  constructor(
    readonly setting: string,
    problem: string,
  ) {
    super(`invalid ${setting}: ${problem}`);
  }
}

type Source = { readonly flags: ReadonlyMap<string, string>; readonly env: Readonly<Record<string, string | undefined>> };

function read(source: Source, flag: string | null, env: string | null): { value: string; name: string } | undefined {
  if (flag !== null) {
    const value = source.flags.get(flag);
    if (value !== undefined) return { value, name: `--${flag}` };
  }
  if (env !== null) {
    const value = source.env[env];
    if (value !== undefined) return { value, name: env };
  }
  return undefined;
}

const WINDOW_UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 };

export function parseRateSpec(text: string, setting: string): RateSpec {
  const match = /^(\d{1,9})\/(\d{0,6})([smhd])$/.exec(text.trim());
  if (!match) throw new ConfigError(setting, `'${text}' is not requests/window such as 1000/1h or 10/30s`);
  const limit = Number(match[1]);
  const windowSeconds = Number(match[2] || "1") * WINDOW_UNITS[match[3]!]!;
  if (limit < 1 || windowSeconds < 1) throw new ConfigError(setting, `'${text}' must allow at least 1 request in a window of at least 1s`);
  return { limit, windowSeconds };
}

const HOST_NAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i;

/** An IP address or a host name; dotted digits that are not an IPv4 address (`999.1.1.1`) are neither. */
function parseHost(text: string, setting: string): string {
  const host = text.trim().replace(/^\[(.*)\]$/, "$1");
  if (isIP(host) || (HOST_NAME.test(host) && !/^[\d.]+$/.test(host))) return host;
  throw new ConfigError(setting, `'${text}' is not an IP address or host name (for example 127.0.0.1, 0.0.0.0 or ::1)`);
}

function parsePort(text: string, setting: string): number {
  if (!/^\d{1,5}$/.test(text) || Number(text) > 65535) throw new ConfigError(setting, `'${text}' is not a port number (0-65535)`);
  return Number(text);
}

function parseMilliseconds(text: string, setting: string, max: number): number {
  if (!/^\d{1,9}$/.test(text) || Number(text) < 1 || Number(text) > max) {
    throw new ConfigError(setting, `'${text}' is not a number of milliseconds (1-${max})`);
  }
  return Number(text);
}

function parseOrigin(text: string, setting: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ConfigError(setting, `'${text}' is not a URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new ConfigError(setting, `'${text}' is not http(s)`);
  return url.origin;
}

/** A token68-style bearer token: what a scrape config can put in a header without quoting. */
function parseMetricsToken(text: string, setting: string): string {
  // The message never repeats the value: it is a secret.
  if (!/^[A-Za-z0-9._~+/=-]{16,512}$/.test(text)) {
    throw new ConfigError(setting, "must be 16-512 characters of letters, digits and . _ ~ + / = -");
  }
  return text;
}

function parseCorsOrigins(text: string, setting: string): readonly string[] | "*" {
  const entries = text.split(",").map((s) => s.trim()).filter(Boolean);
  if (entries.includes("*")) {
    if (entries.length > 1) throw new ConfigError(setting, "'*' allows every origin: give it alone, or a list of origins");
    return "*";
  }
  return Object.freeze(entries.map((origin) => parseOrigin(origin, setting)));
}

function parseSeconds(text: string, setting: string, max: number): number {
  const match = /^(\d{1,9})s?$/.exec(text.trim());
  if (!match || Number(match[1]) < 1 || Number(match[1]) > max) throw new ConfigError(setting, `'${text}' is not a number of seconds (1-${max})`);
  return Number(match[1]);
}

function parseLogLevel(text: string, setting: string): LogLevel {
  const level = text.trim().toLowerCase();
  if (!(LOG_LEVELS as readonly string[]).includes(level)) throw new ConfigError(setting, `'${text}' is not one of ${LOG_LEVELS.join(", ")}`);
  return level as LogLevel;
}

/**
 * A foodapi checkout: SR28 in data/sr28 beside the package.json of foodapi (not merely any directory with a
 * data/ folder, nor an unrelated project).
 */
function isCheckout(dir: string): boolean {
  if (!existsSync(join(dir, "data", "sr28"))) return false;
  try {
    return (JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { name?: unknown }).name === "foodapi";
  } catch {
    return false;
  }
}

/**
 * The data directory when none is set (settings.ts, DATA_DIR_DEFAULT): ./data, except in a checkout,
 * where ./data holds SR28 and the state goes to ./.foodapi; a state database an earlier version made in a
 * checkout's ./data stays in use, and start-up says how to move it.
 */
function defaultDataDir(cwd: string): { dir: string; notice?: string } {
  const elsewhere = resolve(cwd, DATA_DIR_DEFAULT.elsewhere);
  if (!isCheckout(cwd)) return { dir: elsewhere };
  if (!existsSync(join(elsewhere, STATE_FILE_NAME))) return { dir: resolve(cwd, DATA_DIR_DEFAULT.checkout) };
  return {
    dir: elsewhere,
    notice:
      `foodapi: the state database is in ${DATA_DIR_DEFAULT.elsewhere}, beside SR28 (data/sr28), where 'rm -rf data' would delete both; ` +
      `new checkouts keep it in ${DATA_DIR_DEFAULT.checkout}. To move it, stop the server, then: mkdir -m 700 ${DATA_DIR_DEFAULT.checkout} && ` +
      `mv data/${STATE_FILE_NAME}* data/keys.epoch ${DATA_DIR_DEFAULT.checkout}/ (or pass --data-dir ${DATA_DIR_DEFAULT.elsewhere} to keep it there)`,
  };
}

export function loadConfig(flags: ReadonlyMap<string, string>, env: Readonly<Record<string, string | undefined>>): Config {
  const source = { flags, env };
  const cwd = process.cwd();
  const get = (key: SettingKey) => read(source, SETTINGS[key].flag, SETTINGS[key].env);
  /** The value given, else the setting's default, which goes through the same parser as a given one. */
  const orDefault = (key: DefaultedSettingKey) => get(key) ?? fallback(key);
  /** The same, for settings where an empty value means the default too (an env file's `HOST=`). */
  const nonEmptyOrDefault = (key: DefaultedSettingKey) => {
    const input = get(key);
    return input?.value ? input : fallback(key);
  };
  const fallback = (key: DefaultedSettingKey) => ({ value: SETTINGS[key].default, name: SETTINGS[key].flag ? `--${SETTINGS[key].flag}` : SETTINGS[key].env });

  const portIn = orDefault("port");
  const port = parsePort(portIn.value, portIn.name);
  const hostIn = nonEmptyOrDefault("host");
  const host = parseHost(hostIn.value, hostIn.name);
  const dataDirIn = get("dataDir")?.value;
  const { dir: dataDir, notice: dataDirNotice } = dataDirIn ? { dir: resolve(cwd, dataDirIn) } : defaultDataDir(cwd);

  const baseUrlIn = get("baseUrl");
  const urlHost = host.includes(":") ? `[${host}]` : host;
  const baseUrl = new URL(baseUrlIn ? parseOrigin(baseUrlIn.value, baseUrlIn.name) : `http://${urlHost}:${port}`);

  const trustedIn = get("trustedOrigins");
  const trustedOrigins = (trustedIn?.value ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)
    .map((origin) => parseOrigin(origin, trustedIn!.name));

  const ipHeaderIn = orDefault("clientIpHeader");
  const ipHeader = ipHeaderIn.value.trim().toLowerCase();
  if (ipHeader && !/^[a-z0-9-]+$/.test(ipHeader)) throw new ConfigError(ipHeaderIn.name, `'${ipHeader}' is not a header name`);

  const rate = (key: "freeLimit" | "authLimit" | "passwordFailureLimit" | "trialIpLimit" | "keyIssueLimit") => {
    const input = orDefault(key);
    return parseRateSpec(input.value, input.name);
  };

  const turnstileUrlIn = orDefault("turnstileVerifyUrl");
  const trialSecret = get("trialSecret")?.value || undefined;
  if (trialSecret !== undefined && trialSecret.length < 32) {
    throw new ConfigError("FOODAPI_TRIAL_SECRET", "must be at least 32 characters");
  }

  const turnstileTimeoutIn = orDefault("turnstileTimeoutMs");
  const turnstileTimeoutMs = parseMilliseconds(turnstileTimeoutIn.value, turnstileTimeoutIn.name, 60_000);

  const catalogIn = get("catalog");
  const cacheHome = env.XDG_CACHE_HOME || (env.HOME ? join(env.HOME, ".cache") : undefined);
  const cacheDirIn = get("cacheDir")?.value;
  const cacheDirInDataDir = !cacheDirIn && !cacheHome;
  const cacheDir = resolve(cwd, cacheDirIn || (cacheHome ? join(cacheHome, "foodapi") : join(dataDir, "cache")));

  const workersIn = get("workers");
  if (workersIn && (!/^\d{1,3}$/.test(workersIn.value) || Number(workersIn.value) < 1 || Number(workersIn.value) > 64)) {
    throw new ConfigError(workersIn.name, `'${workersIn.value}' is not a number of workers (1-64)`);
  }

  const metricsTokenIn = get("metricsToken");
  const corsIn = get("corsOrigins");
  const idleIn = orDefault("idleTimeout");
  const logLevelIn = nonEmptyOrDefault("logLevel");

  const stateUrlIn = get("stateUrl");
  const redisUrlIn = get("redisUrl");

  return Object.freeze({
    port,
    host,
    dataDir,
    // With the state in PostgreSQL the data directory holds nothing to move.
    dataDirNotice: stateUrlIn?.value ? undefined : dataDirNotice,
    baseUrl,
    trustedOrigins: Object.freeze(trustedOrigins),
    clientIpHeader: ipHeader || null,
    clientIpHeaderIsDefault: get("clientIpHeader") === undefined,
    freeLimit: rate("freeLimit"),
    authLimit: rate("authLimit"),
    passwordFailureLimit: rate("passwordFailureLimit"),
    trialIpLimit: rate("trialIpLimit"),
    keyIssueLimit: rate("keyIssueLimit"),
    trialSecret,
    turnstileSecretKey: get("turnstileSecretKey")?.value || undefined,
    turnstileVerifyUrl: parseOrigin(turnstileUrlIn.value, turnstileUrlIn.name) && turnstileUrlIn.value,
    turnstileTimeoutMs,
    catalogPath: catalogIn?.value ? resolve(cwd, catalogIn.value) : undefined,
    cacheDir,
    cacheDirInDataDir,
    // The CPUs this process may run on (its affinity, as node:os's availableParallelism counts them),
    // without loading node:os at every start for it.
    workers: workersIn ? Number(workersIn.value) : navigator.hardwareConcurrency,
    stateUrl: stateUrlIn?.value ? parsePostgresUrl(stateUrlIn.value, stateUrlIn.name) : undefined,
    redisUrl: redisUrlIn?.value ? parseRedisUrl(redisUrlIn.value, redisUrlIn.name) : undefined,
    metricsToken: metricsTokenIn?.value ? parseMetricsToken(metricsTokenIn.value, metricsTokenIn.name) : undefined,
    corsOrigins: corsIn ? parseCorsOrigins(corsIn.value, corsIn.name) : Object.freeze([]),
    // Bun.serve's idleTimeout is at most 255 seconds.
    idleTimeoutSeconds: parseSeconds(idleIn.value, idleIn.name, 255),
    logLevel: parseLogLevel(logLevelIn.value, logLevelIn.name),
  });
}

/**
 * A store's URL, checked once, by the config loader: `href` is for the store's client only (it may hold a
 * password); `display` (scheme, user, host, port and path: no password, no query) and `host` are what a
 * message or log line may show. `kind` keeps one store's URL from being handed to the other's client.
 */
interface StoreUrl {
  readonly href: string;
  readonly display: string;
  /** host:port as written. */
  readonly host: string;
}
export interface PostgresUrl extends StoreUrl {
  readonly kind: "postgres";
  /** The database the path names (Bun's client would otherwise let PGDATABASE outrank it). */
  readonly database: string | undefined;
}
export interface RedisUrl extends StoreUrl {
  readonly kind: "redis";
}

/** `--state-url`: `postgres://user:password@host:5432/database?sslmode=require`. */
export function parsePostgresUrl(text: string, setting: string): PostgresUrl {
  const url = parseStoreUrl(text, setting, ["postgres:", "postgresql:"], "unset: SQLite in the data directory");
  return Object.freeze({ kind: "postgres", ...shown(url), database: decodeURIComponent(url.pathname.slice(1)) || undefined });
}

/** `--redis-url`: `redis://host:6379/0`, or `rediss://:password@host:6379/0` over TLS. */
export function parseRedisUrl(text: string, setting: string): RedisUrl {
  return Object.freeze({ kind: "redis", ...shown(parseStoreUrl(text, setting, ["redis:", "rediss:"], "unset: counters in the state store")) });
}

/** The message never repeats the value: it may carry a password. */
function parseStoreUrl(text: string, setting: string, schemes: readonly string[], unset: string): URL {
  const expected = schemes.map((s) => `${s}//…`).join(" or ");
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ConfigError(setting, `not a URL (expected ${expected}; ${unset})`);
  }
  if (!schemes.includes(url.protocol)) throw new ConfigError(setting, `the scheme is '${url.protocol}', expected ${expected} (${unset})`);
  if (!url.hostname) throw new ConfigError(setting, "names no host");
  return url;
}

const shown = (url: URL): StoreUrl => ({
  href: url.href,
  display: `${url.protocol}//${url.username ? `${url.username}@` : ""}${url.host}${url.pathname}`,
  host: url.host,
});

/**
 * With `--port 0` the port is known only once bound; the default base URL (origin checks, the OpenAPI
 * server) then takes the real one. An explicit --base-url is left alone.
 */
export function withBoundPort(config: Config, port: number): Config {
  if (config.baseUrl.port !== "0") return config;
  const baseUrl = new URL(config.baseUrl.href);
  baseUrl.port = String(port);
  return Object.freeze({ ...config, port, baseUrl });
}
