import { Database } from "bun:sqlite";
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MAX_SESSIONS_PER_ACCOUNT, SESSION_TTL_SECONDS } from "../../src/accounts/sessions";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "../../src/accounts/passwords";
import { EMAIL_MAX_LENGTH } from "../../src/accounts/email";
import { ERRORS } from "../../src/app/error-catalog";
import { STORE_CALL_DEADLINE_MS } from "../../src/app/state/postgres-state";
import { FRAME_BYTES, FRAMES_IN_FLIGHT } from "../../src/catalog/frame-pack";
import { expandCatalog } from "../../src/catalog/catalog-expand";
import { GRAMS_MAX, LOOKUP_MAX_FOODS, NUTRIENT_FILTERS_MAX, PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX, QUERY_MAX_CHARS } from "../../src/catalog/model";
import { COMMANDS } from "../../src/cli/commands";
import { FIRST_ANSWER_WAIT_MS } from "../../src/cli/serve";
import { KEY_CACHE_TTL_MS, KEY_REFRESH_AFTER_MS } from "../../src/keys/active-keys";
import { MAX_ACTIVE_KEYS_PER_ACCOUNT } from "../../src/keys/service";
import { REVOKED_KEY_RETENTION_MS } from "../../src/keys/store";
import { LEASE_HEADROOM, LEASE_TTL_MS, REFILL_AT_SPENT } from "../../src/limits/limiter";
import { loadConfig } from "../../src/platform/config/config";
import { SETTINGS, type Setting } from "../../src/platform/config/settings";
import { MAX_BODY_BYTES } from "../../src/platform/http/body-limit";
import { DATA_CACHE_CONTROL } from "../../src/platform/http/cached-response";
import { STORAGE_RETRY_AFTER_SECONDS } from "../../src/platform/http/error-catalog";
import { MAX_HEAD_BYTES, RUNTIME_MAX_HEAD_BYTES } from "../../src/platform/http/head-limit";
import { OLD_GROWTH_BYTES } from "../../src/platform/http/young-collection";
import { REDIS_COMMAND_TIMEOUT_MS, REDIS_CONNECT_TIMEOUT_MS } from "../../src/platform/storage/redis";
import { TRIAL_TOKEN_LIFETIME_SECONDS, TRIAL_TOKEN_REQUESTS } from "../../src/trial/token";
import { USAGE_HOURS } from "../../src/usage/service";
import { TARGETS } from "../../bench/lib/report";
import {
  AB_DEFAULT_ROUNDS,
  AB_DEFAULT_SLICE_SECONDS,
  DEFAULT_ROUNDS,
  FIRST_START_RUNS,
  INPROCESS_DEFAULT_RUNS,
  INPROCESS_EDEN_EVERY,
  INPROCESS_REQUESTS_PER_ROUND,
  INPROCESS_ROUNDS,
  INPROCESS_WARM_ROUNDS,
  LATER_START_RUNS,
  SYSCALL_SLICE_SECONDS,
} from "../../bench/lib/settings";
import { PROBE_BODIES, PROBE_LONGEST, PROBE_SHORTEST } from "../../bench/lib/syscall-probe";
import { lineOf, userDocs } from "../helpers/docs";
import { CATALOG_PATH, ROOT } from "../helpers/paths";

/**
 * What the README and docs/ state that comes from the code is held to the code: the numbers (limits, sizes,
 * counts, the sandbox's score), the defaults of settings, the flags and variables they name, the status and
 * code of each error they name, and the files they point to. A doc that drifts from the code fails here,
 * naming the file and line. (Links and anchors: docs-links.test.ts; the settings table: docs-config.test.ts.)
 */
const docs = userDocs();

/** Every match of `pattern` in every doc: where, and its captured values (thousands separators dropped). */
function stated(pattern: RegExp): { where: string; values: string[] }[] {
  const global = new RegExp(pattern.source, pattern.flags.includes("g") ? pattern.flags : `${pattern.flags}g`);
  return docs.flatMap((doc) =>
    [...doc.text.matchAll(global)].map((m) => ({ where: `${doc.path}:${lineOf(doc.text, m.index!)}`, values: m.slice(1).map((v) => v.replace(/(\d),(\d{3})/g, "$1$2")) })),
  );
}

const KIB = 1024;
const MIB = 1024 * KIB;
const DAY_SECONDS = 24 * 3600;
const defaults = loadConfig(new Map(), {});

/** Each fact: the phrases that state it (each capture a number), and what the code says they must read. */
const FACTS: { what: string; patterns: RegExp[]; expected: (string | number)[] }[] = [
  { what: "the page size", patterns: [/`limit` is 1 to (\d+), default (\d+)/], expected: [PAGE_SIZE_MAX, PAGE_SIZE_DEFAULT] },
  { what: "the longest q", patterns: [/`q` may be at most (\d+) code\s+points/, /`q` over (\d+) code\s+points/, /`q`'s (\d+)-character/], expected: [QUERY_MAX_CHARS] },
  { what: "nutrient filters per search", patterns: [/Up to (\d+) filters/, /up to (\d+)\s+inclusive ranges/], expected: [NUTRIENT_FILTERS_MAX] },
  { what: "the largest amount", patterns: [/at most (\d+(?:,\d{3})*) grams/, /g ≤ (\d+(?:,\d{3})*)/], expected: [GRAMS_MAX] },
  { what: "foods per lookup", patterns: [/1 to (\d+) food\s+numbers/, /1–(\d+) food\s+numbers/], expected: [LOOKUP_MAX_FOODS] },
  { what: "the body limit", patterns: [/[Bb]odies (?:are\s+limited\s+to|over)\s+(\d+) KiB/], expected: [MAX_BODY_BYTES / KIB] },
  { what: "the head limit", patterns: [/[Rr]equest\s+head(?:\s+\([^)]*\))?\s+over\s+(\d+) KiB/], expected: [MAX_HEAD_BYTES / KIB] },
  { what: "Bun's own head limit", patterns: [/a head over (\d+) KiB/, /limit\s+to\s+(\d+) KiB/], expected: [RUNTIME_MAX_HEAD_BYTES / KIB] },
  { what: "a session's life", patterns: [/[Ss]essions?\s+lasts?\s+(\d+)\s+days/], expected: [SESSION_TTL_SECONDS / DAY_SECONDS] },
  { what: "sessions per account", patterns: [/at most (\d+)\s+sessions/, /keeps at most (\d+)/], expected: [MAX_SESSIONS_PER_ACCOUNT] },
  { what: "active keys per account", patterns: [/[Aa]t most (\d+)\s+active\s+keys/], expected: [MAX_ACTIVE_KEYS_PER_ACCOUNT] },
  { what: "the trial allowance", patterns: [/(\d+) requests over (\d+) hours/], expected: [TRIAL_TOKEN_REQUESTS, TRIAL_TOKEN_LIFETIME_SECONDS / 3600] },
  { what: "requests per trial token", patterns: [/[Ee]xactly (\d+) requests per/], expected: [TRIAL_TOKEN_REQUESTS] },
  { what: "the trial's RateLimit-Policy", patterns: [/"trial";q=(\d+);w=(\d+)/], expected: [TRIAL_TOKEN_REQUESTS, TRIAL_TOKEN_LIFETIME_SECONDS] },
  { what: "the free tier's RateLimit-Policy", patterns: [/"free";q=(\d+);w=(\d+)/], expected: [defaults.freeLimit.limit, defaults.freeLimit.windowSeconds] },
  { what: "the hours of usage shown", patterns: [/(\d+) hours\s+up\s+to\s+the\s+current\s+one/], expected: [USAGE_HOURS] },
  { what: "how long a cached key is trusted", patterns: [/cached\s+key\s+(?:is\s+trusted\s+)?for\s+at\s+most\s+(a|one|\d+)\s+second/], expected: [KEY_CACHE_TTL_MS / 1000] },
  { what: "how long revoked keys are kept", patterns: [/revoked\s+(?:more\s+than|over)\s+(\d+)\s+days\s+ago/, /Revoked keys are kept (\d+) days/], expected: [REVOKED_KEY_RETENTION_MS / 1000 / DAY_SECONDS] },
  { what: "when a cached key is asked again", patterns: [/cached\s+answer\s+is\s+(\d+)\s+ms\s+old/, /asked\s+again\s+once\s+its\s+answer\s+is\s+(\d+)\s+ms\s+old/], expected: [KEY_REFRESH_AFTER_MS] },
  { what: "when a busy lease is topped up", patterns: [/once\s+(\d+)\s+%\s+of\s+its\s+last\s+grant/], expected: [REFILL_AT_SPENT * 100] },
  { what: "a lease's life", patterns: [/for\s+at\s+most\s+(\d+)\s+ms/, /seen\s+up\s+to\s+(\d+)\s+ms\s+later/], expected: [LEASE_TTL_MS] },
  { what: "the lease headroom, and the smallest limit whose refusals are remembered", patterns: [/only\s+while\s+at\s+least\s+(\d+)\s+are\s+left/, /for\s+limits\s+of\s+(\d+)\s+or\s+more/], expected: [LEASE_HEADROOM] },
  { what: "Retry-After on a storage fault", patterns: [/`Retry-After: (\d+)`/], expected: [STORAGE_RETRY_AFTER_SECONDS] },
  { what: "the data routes' Cache-Control", patterns: [/`Cache-Control: (private, max-age=\d+)`/], expected: [DATA_CACHE_CONTROL] },
  { what: "password lengths", patterns: [/password\s+of\s+(\d+)\s+to\s+(\d+)\s+characters/], expected: [PASSWORD_MIN_LENGTH, PASSWORD_MAX_LENGTH] },
  { what: "the longest e-mail address", patterns: [/at\s+most\s+(\d+)\s+characters\s+in\s+all/, /64\/(\d+) octets/], expected: [EMAIL_MAX_LENGTH] },
  {
    what: "the stores' deadlines",
    patterns: [/(\d+) s for PostgreSQL, (\d+) s to connect to Redis and (\d+) s per\s+command/, /(\d+) s for PostgreSQL, (\d+) s to connect and per command/],
    expected: [STORE_CALL_DEADLINE_MS / 1000, REDIS_CONNECT_TIMEOUT_MS / 1000, REDIS_COMMAND_TIMEOUT_MS / 1000],
  },
  { what: "the heap's growth before a whole collection", patterns: [/grown (\d+) MB\s+past\s+its\s+size\s+after\s+the\s+last\s+whole/], expected: [OLD_GROWTH_BYTES / MIB] },
  {
    what: "how long a start's deferred work waits for the first answer",
    patterns: [/first\s+answer,?\s+\(?or\s+(\d+)\s+ms\s+without\s+one/, /or\s+(\d+)\s+ms\s+after\s+the\s+start\s+without\s+one/],
    expected: [FIRST_ANSWER_WAIT_MS],
  },
  {
    what: "the later start's target (bench/run)",
    patterns: [/a later start ≤ (\d+) ms/, /later start[^|\n]*\|[^|\n]*\|\s*≤ (\d+) ms/],
    expected: [TARGETS.coldStartMs],
  },
  { what: "bench/ab.ts's rounds and slice", patterns: [/`BENCH_AB_ROUNDS`, (\d+); `BENCH_AB_SLICE_SECONDS`, (\d+)/], expected: [AB_DEFAULT_ROUNDS, AB_DEFAULT_SLICE_SECONDS] },
  { what: "bench/run's interleaved rounds", patterns: [/`BENCH_ROUNDS` \((\d+):/], expected: [DEFAULT_ROUNDS] },
  {
    what: "bench/run's starts",
    patterns: [/the first start, median of (\d+)[\s\S]{0,200}?`--workers 1`, median of (\d+)/],
    expected: [FIRST_START_RUNS, LATER_START_RUNS],
  },
  {
    what: "bench/in-process.ts's rounds, warm-up and requests a round",
    patterns: [/(\d+) rounds\s+of\s+(\d+(?:,\d{3})*)\s+\(the\s+first\s+(\d+)\s+warm/],
    expected: [INPROCESS_ROUNDS, INPROCESS_REQUESTS_PER_ROUND, INPROCESS_WARM_ROUNDS],
  },
  { what: "bench/in-process.ts's eden collections", patterns: [/an\s+eden\s+collection\s+every\s+(\d+(?:,\d{3})*)\s+requests\s+stands/], expected: [INPROCESS_EDEN_EVERY] },
  { what: "bench/in-process.ts's processes", patterns: [/`BENCH_INPROCESS_RUNS`\s+processes,\s+(\d+)\)/], expected: [INPROCESS_DEFAULT_RUNS] },
  {
    what: "bench/syscall-cost.ts's bodies",
    patterns: [/the\s+same\s+(\d+(?:,\d{3})*)\s+JSON\s+bodies\s+of\s+(\d+)-(\d+)\s+KB/],
    expected: [PROBE_BODIES, PROBE_SHORTEST / 1000, PROBE_LONGEST / 1000],
  },
  { what: "bench/syscall-cost.ts's slices", patterns: [/`BENCH_ROUNDS`\s+rounds\s+of\s+(\d+)\s+s\)/], expected: [SYSCALL_SLICE_SECONDS] },
  { what: "the packed answers' frames", patterns: [/packed\s+in\s+(\d+)\s+MB\s+zstd\s+frames/, /\((\d+)\s+MB\s+zstd\s+frames/], expected: [FRAME_BYTES / MIB] },
  {
    what: "the frames inflated and written at once",
    patterns: [/inflates\s+(two|\d+)\s+at\s+a\s+time/, /frames,\s+(two|\d+)\s+at\s+a\s+time/, /frames,\s+(two|\d+)\s+in\s+flight/, /`fs\.write`,\s+(two|\d+)\s+in\s+flight/],
    expected: [FRAMES_IN_FLIGHT],
  },
];

const WORDS: Record<string, string> = { a: "1", one: "1", two: "2" };

describe("numbers the docs state from the code", () => {
  for (const fact of FACTS) {
    test(`${fact.what}: ${fact.expected.join(", ")}`, () => {
      const found = fact.patterns.flatMap((pattern) => stated(pattern).map((s) => ({ ...s, values: s.values.map((v) => WORDS[v] ?? v) })));
      expect(found.length, `no doc states ${fact.what} in a phrase this test knows (${fact.patterns.join(" or ")})`).toBeGreaterThan(0);
      for (const { where, values } of found) {
        // Each pattern captures a prefix of the expected values (the shorter deadline phrase names two).
        expect([where, values]).toEqual([where, fact.expected.slice(0, values.length).map(String)]);
      }
    });
  }

  test("SR28's counts: foods, nutrients and nutrient values, as in the catalog", () => {
    const db = new Database(CATALOG_PATH, { readonly: true });
    const count = (table: string) => String(db.query<{ n: number }, []>(`SELECT count(*) AS n FROM ${table}`).get()!.n);
    const counts = { foods: count("foods"), nutrients: count("nutrients"), values: count("nutrient_values") };
    db.close();
    const checks = [
      { pattern: /Search (\d+(?:,\d{3})*)\s+foods/, expected: counts.foods },
      { pattern: /food's (\d+) nutrients/, expected: counts.nutrients },
      { pattern: /scanning\s+(\d+(?:,\d{3})*)\s+values/, expected: counts.values },
    ];
    for (const { pattern, expected } of checks) {
      const found = stated(pattern);
      expect(found.length, String(pattern)).toBeGreaterThan(0);
      for (const { where, values } of found) expect([where, values[0]]).toEqual([where, expected]);
    }
  });
});

describe("sizes the docs state, within 10 %", () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  /** Every "<phrase> (about N MB" must be within 10 % of `bytes`. */
  function checkAbout(pattern: RegExp, bytes: number): void {
    const found = stated(pattern);
    expect(found.length, String(pattern)).toBeGreaterThan(0);
    for (const { where, values } of found) {
      const megabytes = Number(values[0]);
      expect([where, Math.abs(bytes / 1e6 - megabytes) <= megabytes * 0.1]).toEqual([where, true]);
    }
  }

  test("the embedded catalog: the compressed file build.sh embeds", () => {
    checkAbout(/embedded\s+catalog\s+\(about\s+([\d.]+)\s+MB/, statSync(join(ROOT, "dist/catalog.sqlite.zst")).size + statSync(join(ROOT, "dist/catalog.answers.zst")).size);
  });

  test("the expanded catalog: the file the first start writes into the cache directory", async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), "foodapi-docs-facts-"));
    dirs.push(cacheDir);
    const expanded = await expandCatalog({ catalog: join(ROOT, "dist/catalog.sqlite.zst"), answers: join(ROOT, "dist/catalog.answers.zst") }, "00000000000000dd", cacheDir);
    checkAbout(/expanded\s+catalog\s+\(about\s+([\d.]+)\s+MB\)/, statSync(expanded.catalog).size + statSync(expanded.answers).size);
  }, 60_000);

  test("SR28 in the repository: data/sr28's compressed files", () => {
    const bytes = readdirSync(join(ROOT, "data/sr28")).filter((name) => name.endsWith(".zst")).reduce((sum, name) => sum + statSync(join(ROOT, "data/sr28", name)).size, 0);
    checkAbout(/zstd-compressed\s+\(about\s+([\d.]+)\s+MB\)/, bytes);
  });
});

describe("the systemd unit's sandbox", () => {
  const ANALYZE = "/usr/bin/systemd-analyze";
  const haveAnalyze = existsSync(ANALYZE);
  // CI installs systemd (.ci/run): there, its absence is a failure, not a skip.
  if (!haveAnalyze && !process.env.CI) console.warn(`docs-facts: ${ANALYZE} is missing: the sandbox's score in docs/deployment.md is not checked`);
  test.skipIf(!haveAnalyze && !process.env.CI)("the score the docs state is what systemd-analyze security gives deploy/foodapi.service", () => {
    const run = Bun.spawnSync([ANALYZE, "security", "--offline=yes", "--no-pager", join(ROOT, "deploy/foodapi.service")], { stdout: "pipe", stderr: "pipe" });
    const score = /Overall exposure level for foodapi\.service: ([\d.]+)/.exec(run.stdout.toString())?.[1];
    expect(score, run.stderr.toString()).toBeDefined();
    const found = stated(/`systemd-analyze security` rates it ([\d.]+)/);
    expect(found.length).toBeGreaterThan(0);
    for (const { where, values } of found) expect([where, values[0]]).toEqual([where, score]);
  });
});

describe("settings, commands and errors the docs name", () => {
  const settings: Setting[] = Object.values(SETTINGS);

  test("every default stated as \"`--flag` (default `value`)\" is the flag's default", () => {
    const found = stated(/`--([a-z-]+)`[^`()]{0,40}?\(default\s+`([^`]*)`\)/);
    expect(found.length).toBeGreaterThan(5);
    for (const { where, values } of found) {
      const setting = settings.find((s) => s.flag === values[0]);
      expect([where, values[0], setting?.default]).toEqual([where, values[0], values[1]]);
    }
  });

  /** Options of other programs the docs show (sha256sum, systemctl, pg_dump, wrk, bun test, drizzle-kit, setpriv, the analysis scorer), and a typo shown as one. */
  const OTHER_PROGRAMS = new Set(["ignore-missing", "now", "format", "latency", "timeout", "prot", "config", "custom", "reuid", "set"]);

  test("every --option is a setting, an option of a foodapi command, or named as another program's", () => {
    const foodapi = new Set(["help", "version", ...Object.values(COMMANDS).flatMap((c) => [...c.flags, ...(c.switches ?? [])])]);
    const found = stated(/(?<![\w-])--([a-z][a-z0-9-]*)/);
    expect(found.length).toBeGreaterThan(20);
    const unknown = found.filter(({ values }) => !foodapi.has(values[0]!) && !OTHER_PROGRAMS.has(values[0]!));
    expect(unknown.map(({ where, values }) => `${where}: --${values[0]}`)).toEqual([]);
  });

  test("every FOODAPI_ or TURNSTILE_ variable is a setting's, or one the build or the tests read", () => {
    const envs = new Set(settings.flatMap((s) => (s.env ? [s.env] : [])));
    const found = stated(/\b((?:FOODAPI|TURNSTILE)_[A-Z0-9_]+)\b/);
    expect(found.length).toBeGreaterThan(10);
    for (const name of new Set(found.map(({ values }) => values[0]!).filter((name) => !envs.has(name)))) {
      // Not a setting: then something outside the docs reads it (build.sh, the importer, the test helpers).
      const readers = Bun.spawnSync(["git", "grep", "-l", "-w", name, "--", "build.sh", "src", "test", "scripts", "bench"], { cwd: ROOT, stdout: "pipe" }).stdout.toString().trim();
      expect([name, readers.length > 0]).toEqual([name, true]);
    }
  });

  test("every \"<status> `CODE`\" is an error the API answers with that status", () => {
    const answered = new Set(Object.values(ERRORS).map(([status, , code]) => `${status} ${code}`));
    const found = stated(/\b([45]\d\d) `([A-Z][A-Z0-9_]+)`/);
    expect(found.length).toBeGreaterThan(10);
    const unknown = found.filter(({ values }) => !answered.has(`${values[0]} ${values[1]}`));
    expect(unknown.map(({ where, values }) => `${where}: ${values.join(" ")}`)).toEqual([]);
  });
});

test("every file or folder the docs name in `code` is in the repository, or an output git ignores", () => {
  const found = stated(/`((?:src|test|deploy|scripts|bench|data|docs)\/[A-Za-z0-9_./-]*)`/).map(({ where, values }) => ({ where, path: values[0]! }));
  expect(found.length).toBeGreaterThan(50);
  const missing = found.filter(({ path }) => !existsSync(join(ROOT, path)) && Bun.spawnSync(["git", "check-ignore", "-q", path], { cwd: ROOT }).exitCode !== 0);
  expect(missing.map(({ where, path }) => `${where}: ${path}`)).toEqual([]);
});
