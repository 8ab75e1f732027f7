import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import fc from "fast-check";
import { MAX_SESSIONS_PER_ACCOUNT, newSession, SESSION_COOKIE } from "../../src/accounts/sessions";
import { obtainTrialToken } from "../helpers/altcha";
import { contractOf } from "../helpers/contract";
import { createTestApp, documentOf, type TestApp } from "../helpers/test-app";

/**
 * A seeded, bounded fuzz pass over every operation of the served OpenAPI document (enumerated from it, so a
 * new operation is fuzzed without a change here): random path parameters, query strings (unicode, control
 * characters, NUL, long values, numbers, empty and repeated parameters), JSON bodies (arbitrary JSON, and
 * objects shaped after the operation's body schema with wrong types and lengths, and malformed text), with
 * and without credentials. Every answer must be below 500, of a status the operation documents, with a
 * body and headers valid against the document (helpers/contract.ts).
 */
const SEED = 20_261_123;
const RUNS_PER_OPERATION = 250;

type Json = Record<string, any>;
type Credential = "none" | "apiKey" | "trialToken" | "session" | "bogus";

let t: TestApp;
let document: Json;
let credentials: Record<Credential, Record<string, string>>;
/** Sessions being stored for requests about to be made (a store may answer later: PostgreSQL does). */
const sessionsStored: Promise<unknown>[] = [];

beforeAll(async () => {
  // Limits far away, so the fuzzer explores the routes rather than the 429s (which it meets anyway).
  t = await createTestApp({ env: { FOODAPI_AUTH_LIMIT: "100000/1m", FOODAPI_TRIAL_IP_LIMIT: "100000/1h", FOODAPI_FREE_LIMIT: "100000/1h" } });
  document = documentOf(t.app);
  const key = await t.issueKey("fuzz@example.com");
  // Sessions are stored as a sign-in stores them, under the account's password hash: the account issueKey
  // made has none, so it gets one that no password matches.
  const bounds = { whilePasswordHash: "$argon2id$no-password-matches-this", maxPerAccount: MAX_SESSIONS_PER_ACCOUNT };
  await t.stores.accounts.changePassword(key.userId, bounds.whilePasswordHash, Date.now());
  const { token } = await obtainTrialToken((path, init) => t.request(path, init));
  credentials = {
    none: {},
    apiKey: { "x-api-key": key.key },
    trialToken: { authorization: `Bearer ${token}` },
    // A session of its own per request (no argon2): sign-out, when fuzzed, ends only that one.
    get session() {
      const { token, session } = newSession(() => Date.now(), key.userId, true, { ipAddress: null, userAgent: null });
      // The request waits for it (below): the session exists before the request is made.
      sessionsStored.push(Promise.resolve(t.stores.sessions.insert(session, bounds)));
      return { cookie: `${SESSION_COOKIE}=${token}` };
    },
    bogus: { "x-api-key": "fnk_nope", authorization: "Bearer x.y", cookie: `${SESSION_COOKIE}=nope` },
  };
});
afterAll(() => t.close());

/** Text a client might send: printable unicode, control characters and NUL, long runs, numbers, nothing. */
const text = () =>
  fc.oneof(
    fc.string({ maxLength: 12 }),
    fc.string({ unit: "grapheme", maxLength: 8 }),
    fc.string({ unit: "binary", maxLength: 8 }),
    fc.constantFrom("", " ", "\u0000", "a\u0000b", "\t\n\r", "\u202e", "%", "%zz", "../..", "'; DROP TABLE foods; --", '"*', "NEAR(a b)", "\uD800"),
    fc.integer().map(String),
    fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map(String),
    fc.double().map(String),
    fc.nat({ max: 600 }).map((n) => "x".repeat(n)),
    fc.nat({ max: 300 }).map((n) => "é".repeat(n)),
    // A control or bidi character somewhere inside ordinary text.
    fc
      .tuple(fc.string({ minLength: 1, maxLength: 8 }), fc.constantFrom("\u0000", "\u0001", "\u001f", "\u007f", "\u0085", "\u202e", "\u2066"), fc.nat(8))
      .map(([value, control, at]) => value.slice(0, at) + control + value.slice(at)),
  );

/** Percent-encoding as a client may send it: a lone surrogate goes out as its (invalid) WTF-8 bytes. */
function percentEncode(value: string): string {
  let encoded = "";
  for (const char of value) {
    const unit = char.charCodeAt(0);
    encoded +=
      char.length === 1 && unit >= 0xd800 && unit <= 0xdfff
        ? [0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 63), 0x80 | (unit & 63)].map((b) => `%${b.toString(16).toUpperCase()}`).join("")
        : encodeURIComponent(char);
  }
  return encoded;
}

/**
 * A query string: the operation's parameters and stray ones, in any order, some repeated.
 */
function queryOf(operation: Json) {
  const names: string[] = (operation.parameters ?? []).filter((p: Json) => p.in === "query").map((p: Json) => p.name);
  const pair = fc.tuple(fc.oneof(fc.constantFrom(...names, "x"), fc.string({ maxLength: 5 })), fc.constant(null)).chain(([name]) =>
    text().map((value) => [name, value] as const),
  );
  return fc.array(pair, { maxLength: 6 }).map((pairs) => pairs.map(([name, value]) => `${percentEncode(name)}=${percentEncode(value)}`).join("&"));
}

/**
 * A path with its `{parameters}` filled: real-looking values, random text (lone surrogates included, sent
 * as `%ED%A0%80`, which is not valid percent-encoding), and encodings of both.
 */
function pathOf(template: string) {
  const names = [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  const segment = fc.oneof(fc.constantFrom("01001", "99999", "1001", "key_nope", "0", "-1"), text().filter((value) => value !== ""));
  const slash = fc.boolean().map((trailing) => (trailing ? "/" : ""));
  return fc.tuple(fc.array(segment, { minLength: names.length, maxLength: names.length }), slash).map(
    ([values, trailing]) => names.reduce((path, name, i) => path.replace(`{${name}}`, percentEncode(values[i]!)), template) + trailing,
  );
}

/** `value` one time in five, else null. */
const rarely = <T>(value: fc.Arbitrary<T>) => fc.oneof({ arbitrary: fc.constant(null), weight: 4 }, { arbitrary: value, weight: 1 });

/**
 * A value for a schema: often one that keeps its rules (so the request gets past validation), often one
 * at or just past a limit (counted in code points, UTF-16 units and bytes differently), or any text or JSON.
 */
function valueFor(schema: Json): fc.Arbitrary<unknown> {
  const choices: fc.WeightedArbitrary<unknown>[] = [{ arbitrary: fc.jsonValue({ maxDepth: 2 }), weight: 1 }];
  if (schema.type === "string") {
    const min = schema.minLength ?? 0;
    const max = schema.maxLength ?? 40;
    const valid = schema.format === "email" ? fc.oneof(fc.emailAddress(), fc.emailAddress().map((e) => ` ${e.toUpperCase()} `)) : fc.string({ unit: "grapheme-composite", minLength: Math.max(min, 1), maxLength: Math.min(max, 40) });
    const bounds = [schema.minLength, schema.maxLength].filter((n): n is number => typeof n === "number");
    const boundary = fc.constantFrom(...bounds.flatMap((n) => [n - 1, n, n + 1]).filter((n) => n >= 0), 0).chain((n) => fc.constantFrom("a".repeat(n), "é".repeat(n), "😀".repeat(n), ` ${"b".repeat(n)} `));
    choices.push({ arbitrary: valid, weight: 8 }, { arbitrary: boundary, weight: 2 }, { arbitrary: text(), weight: 2 });
  }
  if (schema.type === "boolean") choices.push({ arbitrary: fc.boolean(), weight: 8 });
  if (schema.type === "integer" || schema.type === "number") choices.push({ arbitrary: fc.integer(), weight: 8 });
  return fc.oneof(...choices);
}

/** A body: shaped after the operation's schema (fields present or not, extra ones), any JSON, or not JSON. */
function bodyOf(operation: Json) {
  const schema = operation.requestBody?.content?.["application/json"]?.schema as Json | undefined;
  const names = Object.keys((schema?.properties ?? {}) as Json);
  const shaped = schema?.properties
    ? [
        fc
          .record({
            fields: fc.record(Object.fromEntries(names.map((name) => [name, valueFor(schema.properties[name])]))),
            // Mostly every field; sometimes one missing, sometimes stray ones.
            missing: rarely(fc.constantFrom(...names)),
            extra: rarely(fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 2 })),
          })
          .map(({ fields, missing, extra }) => {
            const body: Json = { ...extra, ...fields };
            if (missing !== null) delete body[missing];
            return JSON.stringify(body);
          }),
      ]
    : [];
  return fc.oneof(
    ...shaped.map((arbitrary) => ({ arbitrary, weight: 4 })),
    { arbitrary: fc.json({ maxDepth: 3 }), weight: 1 },
    { arbitrary: fc.constantFrom("", "{", "{nope", "[1,", "null", '"\u0000"', "x".repeat(17_000)), weight: 1 },
  );
}

interface FuzzRequest {
  path: string;
  init: RequestInit;
}

function requestsFor(template: string, method: string, operation: Json): fc.Arbitrary<FuzzRequest> {
  const hasBody = method !== "get" && method !== "head";
  return fc
    .record({
      path: pathOf(template),
      query: queryOf(operation),
      // Mostly a credential the operation may take, so that the fuzzer gets past the guards.
      credential: fc.oneof(
        { arbitrary: fc.constantFrom<Credential>("apiKey", "session"), weight: 4 },
        { arbitrary: fc.constantFrom<Credential>("none", "trialToken", "bogus"), weight: 2 },
      ),
      body: hasBody ? fc.option(bodyOf(operation), { nil: undefined, freq: 8 }) : fc.constant(undefined),
      contentType: fc.oneof(
        { arbitrary: fc.constantFrom("application/json", "application/json; charset=utf-8"), weight: 6 },
        { arbitrary: fc.constantFrom("text/plain", "application/x-www-form-urlencoded", undefined), weight: 1 },
      ),
      origin: rarely(fc.constantFrom("http://127.0.0.1:3000", "https://evil.example")),
      // A declared length over the limit without a body: refused before routing.
      declaredLength: rarely(fc.constantFrom("16385", "99999999999")),
    })
    .map(({ path, query, credential, body, contentType, origin, declaredLength }) => {
      const headers: Record<string, string> = { ...credentials[credential] };
      if (body !== undefined && contentType) headers["content-type"] = contentType;
      if (origin) headers.origin = origin;
      if (declaredLength && body === undefined) headers["content-length"] = declaredLength;
      return { path: query ? `${path}?${query}` : path, init: { method: method.toUpperCase(), headers, body } };
    });
}

describe(`fuzzing every documented operation (seed ${SEED}, ${RUNS_PER_OPERATION} runs each)`, () => {
  test("no 5xx; every status documented; every body and header valid against the document", async () => {
    const contract = contractOf(document);
    const operations = Object.entries(document.paths as Json).flatMap(([path, item]) => Object.entries(item as Json).map(([method, operation]) => ({ path, method, operation: operation as Json })));
    expect(operations.length).toBeGreaterThanOrEqual(19);
    // Every operation is run, and the failures of all of them reported together (each shrunk by fast-check).
    const failures: string[] = [];
    for (const [index, { path, method, operation }] of operations.entries()) {
      const details = await fc.check(
        fc.asyncProperty(requestsFor(path, method, operation), async ({ path: target, init }) => {
          await Promise.all(sessionsStored.splice(0));
          const response = await t.rawRequest(target, init);
          const what = `${init.method} ${target} (${JSON.stringify(init.headers)}; body ${String(init.body ?? "").slice(0, 120)})`;
          if (response.status >= 500) throw new Error(`${what} answered ${response.status}: ${await response.text()}`);
          await contract.check({ method: init.method!, url: `http://127.0.0.1:3000${target}` }, response).catch((error: Error) => {
            throw new Error(`${what}: ${error.message}`);
          });
        }),
        { seed: SEED + index, numRuns: RUNS_PER_OPERATION },
      );
      if (details.failed) failures.push(`${method.toUpperCase()} ${path}: ${String((details as { errorInstance?: unknown }).errorInstance)}`);
    }
    expect(failures).toEqual([]);
  });
});
