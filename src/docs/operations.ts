/**
 * What the route schemas cannot say, per operation: which credential it takes, which errors it answers
 * with, and examples. The generated document (openapi.ts) is decorated with these; a route without an
 * entry here is documented without credentials or errors, which test/openapi.test.ts refuses.
 * Every number in a message or description comes from the constant the server uses.
 */
import { PAGE_SIZE_MAX } from "../catalog/search-params";
import { MAX_ACTIVE_KEYS_PER_ACCOUNT } from "../keys/service";
import { CHALLENGE_LIFETIME_SECONDS } from "../trial/challenge";
import { ERROR_CATALOG, type ErrorName } from "../http/error-catalog";
import { TrialChallenge } from "../trial/model";
import { TRIAL_TOKEN_LIFETIME_SECONDS, TRIAL_TOKEN_REQUESTS } from "../trial/token";

/** "30 requests over 24 hours": the trial token's allowance, in words. */
export const TRIAL_ALLOWANCE = `${TRIAL_TOKEN_REQUESTS} requests over ${TRIAL_TOKEN_LIFETIME_SECONDS / 3600} hours`;

/** `apiKeyOrTrial`: the data routes' credential guard. `optionalSession`: works without one too. */
export type Credential = "none" | "apiKeyOrTrial" | "session" | "optionalSession";

/**
 * Every error as the document shows it, `[status, example message, wire code]`, from the one catalogue the
 * throw sites use (src/http/error-catalog.ts).
 */
export const ERRORS = Object.fromEntries(
  Object.entries(ERROR_CATALOG).map(([name, entry]) => {
    const known = entry as { status: number; code?: string; message: (...args: unknown[]) => string; example: unknown[] };
    return [name, [known.status, known.message(...known.example), known.code ?? name] as const];
  }),
) as Readonly<Record<ErrorName, readonly [number, string, string]>>;

export type { ErrorName };

/**
 * Errors of the shell (src/http/shell.ts), for every operation whatever its route says: a declared
 * content-length over the limit is refused before routing, body or not; a body is parsed as JSON when
 * declared so, on every method that is not GET or HEAD.
 */
export function shellErrors(method: string): ErrorName[] {
  const bodyParsed = method !== "get" && method !== "head";
  return bodyParsed ? ["INVALID_JSON", "PAYLOAD_TOO_LARGE"] : ["PAYLOAD_TOO_LARGE"];
}

/** A success response the route does not declare as a schema (204s, untyped handlers). */
export interface ExtraResponse {
  description: string;
  schema?: Record<string, unknown>;
  example?: unknown;
}

export interface OperationNotes {
  credential: Credential;
  errors: readonly ErrorName[];
  /** Instead of the route's own, when that one would have to type a limit by hand. */
  summary?: string;
  description?: string;
  /** Examples for the declared success response, by status. */
  examples?: Readonly<Record<string, unknown>>;
  requestExample?: unknown;
  responses?: Readonly<Record<string, ExtraResponse>>;
  /** The response sets or clears the session cookie. */
  setsCookie?: boolean;
}

/** Every operation that reads or writes the state database (accounts, sessions, keys, counters). */
const STATE = "SERVICE_UNAVAILABLE";
const DATA_ERRORS = ["UNAUTHORIZED", "RATE_LIMITED", "TRIAL_QUOTA_EXHAUSTED", STATE] as const;
const AUTH_ERRORS = ["VALIDATION_ERROR", "INVALID_ORIGIN", "TOO_MANY_REQUESTS", STATE] as const;
const KEY_ERRORS = ["SESSION_REQUIRED", "INVALID_ORIGIN", STATE] as const;

const user = {
  id: "usr_7Qp2Xw9LmZk4",
  email: "you@example.com",
  name: "You",
  emailVerified: false,
  image: null,
  createdAt: "2026-01-05T10:00:00.000Z",
  updatedAt: "2026-01-05T10:00:00.000Z",
};
const session = { id: "ses_3hV8rTq1Nc5y", userId: user.id, expiresAt: "2026-01-12T10:00:00.000Z", createdAt: user.createdAt, updatedAt: user.createdAt };
const keyFields = { id: "key_9Rf2WmQ8sTx1", name: "laptop", keyPrefix: "fnk_5Hq2Zr8W", tier: "free", createdAt: "2026-01-05T10:01:00.000Z" };

export const OPERATIONS: Readonly<Record<string, OperationNotes>> = {
  "GET /v1/meta": {
    credential: "none",
    errors: [],
    responses: { "200": { description: "Service, dataset counts, the limits in force, licence and citation" } },
  },
  "GET /healthz": {
    credential: "none",
    errors: [],
    responses: {
      "200": { description: "Both databases answer a query", schema: healthSchema(), example: { status: "ok" } },
      "503": { description: "A database does not answer", schema: healthSchema(), example: { status: "unavailable" } },
    },
  },
  "POST /api/auth/sign-up/email": {
    credential: "none",
    errors: [...AUTH_ERRORS, "INVALID_EMAIL", "PASSWORD_TOO_SHORT", "PASSWORD_TOO_LONG", "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL"],
    description: "Creates the account and signs it in: the response sets the session cookie.",
    requestExample: { email: "you@example.com", password: "a long password", name: "You" },
    examples: { "200": { token: "<session token>", user } },
    setsCookie: true,
  },
  "POST /api/auth/sign-in/email": {
    credential: "none",
    errors: [...AUTH_ERRORS, "INVALID_EMAIL_OR_PASSWORD"],
    description: "An unknown e-mail and a wrong password get the same 401. `rememberMe: false` makes the cookie end with the browser session.",
    requestExample: { email: "you@example.com", password: "a long password" },
    examples: { "200": { redirect: false, token: "<session token>", user } },
    setsCookie: true,
  },
  "GET /api/auth/get-session": {
    credential: "optionalSession",
    errors: [STATE],
    description: "Answers 200 `null` without a valid session.",
    examples: { "200": { session, user } },
  },
  "POST /api/auth/sign-out": {
    credential: "optionalSession",
    errors: ["INVALID_ORIGIN", STATE],
    description: "Deletes the session server-side and clears the cookie. Idempotent: 200 without a session too.",
    responses: {
      "200": {
        description: "Signed out",
        schema: { type: "object", required: ["success"], properties: { success: { const: true, type: "boolean" } } },
        example: { success: true },
      },
    },
    setsCookie: true,
  },
  "POST /v1/keys": {
    credential: "session",
    errors: [...KEY_ERRORS, "VALIDATION_ERROR", "KEY_LIMIT_REACHED", "KEY_ISSUE_LIMITED"],
    description: `The plaintext \`key\` is in this response only: it is stored as a hash and cannot be shown again. At most ${MAX_ACTIVE_KEYS_PER_ACCOUNT} active keys per account, and a limit on keys issued per hour. Without a session: 401, whatever the body.`,
    requestExample: { name: "laptop" },
    examples: { "201": { ...keyFields, key: "fnk_5Hq2Zr8WbN3xK7mPq4Ls9Td2Vf6Yg1Hc8Jr" } },
  },
  "GET /v1/keys": {
    credential: "session",
    errors: ["SESSION_REQUIRED", STATE],
    examples: { "200": { items: [{ ...keyFields, lastUsedAt: null }] } },
  },
  "DELETE /v1/keys/{id}": {
    credential: "session",
    errors: [...KEY_ERRORS, "KEY_NOT_FOUND"],
    description: "The key stops working on the next request. Another account's key, an unknown or an already revoked one: 404.",
    responses: { "204": { description: "Revoked" } },
  },
  "GET /v1/trial-challenge": {
    credential: "none",
    errors: ["TOO_MANY_REQUESTS", STATE],
    summary: `A signed ALTCHA proof-of-work challenge (expires in ${CHALLENGE_LIFETIME_SECONDS / 60} minutes)`,
    description: `Solve it in the browser with the ALTCHA widget (\`<altcha-widget challenge="/v1/trial-challenge">\`); its payload is the \`challengeToken\` of \`POST /v1/trial-token\`. Expires after ${CHALLENGE_LIFETIME_SECONDS / 60} minutes. Not served when Turnstile is configured.`,
    responses: {
      // Not the route's response schema: Elysia would re-shape the signed object it returns.
      "200": { description: "An ALTCHA v2 challenge, signed; `Cache-Control: no-store`", schema: TrialChallenge },
    },
  },
  "POST /v1/trial-token": {
    credential: "none",
    errors: ["VALIDATION_ERROR", "CHALLENGE_FAILED", "TOO_MANY_REQUESTS", "CHALLENGE_UNAVAILABLE", STATE],
    description: `Each solved challenge is accepted once. The token is good for ${TRIAL_ALLOWANCE}.`,
    requestExample: { challengeToken: "<the widget's payload>" },
    examples: { "201": { token: "eyJqdGkiOiJ0cmlhbF8... .3pSQ13yW...", expiresAt: "2026-01-06T10:00:00.000Z" } },
  },
  "GET /v1/foods": {
    credential: "apiKeyOrTrial",
    errors: [...DATA_ERRORS, "VALIDATION_ERROR"],
    description: `Every term of \`q\` must occur in the name (substring, ignoring case and diacritics). Ordered by relevance with \`q\`, else by food number. \`limit\` is 1 to ${PAGE_SIZE_MAX}.`,
    examples: { "200": { items: [{ foodNumber: "01009", name: "Cheese, cheddar" }], total: 37, page: 1, limit: 1 } },
  },
  "GET /v1/foods/{foodNumber}": {
    credential: "apiKeyOrTrial",
    errors: [...DATA_ERRORS, "FOOD_NOT_FOUND"],
    description: "Nutrient values are per 100 g of edible portion, in SR order. A 404 counts against the quota too.",
    examples: {
      "200": {
        foodNumber: "01001",
        name: "Butter, salted",
        group: { code: "0100", name: "Dairy and Egg Products" },
        nutrients: [{ number: "208", name: "Energy", tag: "ENERC_KCAL", unit: "kcal", value: 717, dataPoints: 0, stdError: null, derivation: { code: "NC", description: "Nutrient that is based on other nutrient/s; calculated rather than analyzed" } }],
      },
    },
  },
  "GET /v1/food-groups": {
    credential: "apiKeyOrTrial",
    errors: DATA_ERRORS,
    examples: { "200": { items: [{ code: "0100", name: "Dairy and Egg Products", foodCount: 283 }] } },
  },
  "GET /v1/nutrients": {
    credential: "apiKeyOrTrial",
    errors: DATA_ERRORS,
    examples: { "200": { items: [{ number: "203", name: "Protein", unit: "g", tag: "PROCNT", decimals: 2, order: 600 }] } },
  },
};

function healthSchema() {
  return { type: "object", required: ["status"], properties: { status: { enum: ["ok", "unavailable"], type: "string" } } };
}
