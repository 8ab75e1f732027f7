import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "../../accounts/passwords";
import { MAX_ACTIVE_KEYS_PER_ACCOUNT } from "../../keys/service";
import { TRIAL_TOKEN_REQUESTS } from "../../trial/token";
import { MAX_BODY_BYTES } from "./body";
import { MAX_HEAD_BYTES } from "./head-limit";
import { ApiError, type ErrorDescription, NO_STORE } from "./errors";

/**
 * Every error this API answers with, in one place: the name a throw site uses (typed: a typo does not
 * compile), the wire code (several names may share one, as SESSION_REQUIRED answers UNAUTHORIZED), the
 * status, and the message, built from the real constants. Throw sites use `apiError`/`refusal`; the OpenAPI
 * document lists the same entries with their `example` arguments, so the two cannot drift apart.
 */
interface Entry<A extends unknown[]> {
  readonly status: number;
  /** The wire code, when it differs from the entry's name. */
  readonly code?: string;
  readonly message: (...args: A) => string;
  /** Arguments for the document's example message. */
  readonly example: A;
  /** Headers every answer of this error carries. */
  readonly headers?: Readonly<Record<string, string>>;
}

const entry = <A extends unknown[]>(value: Entry<A>) => value;
const fixed = (status: number, message: string, rest: { code?: string; headers?: Record<string, string> } = {}) =>
  entry<[]>({ status, message: () => message, example: [], ...rest });

/** Seconds a client should wait when the state database or the challenge verifier cannot answer. */
export const STORAGE_RETRY_AFTER_SECONDS = 5;

/**
 * For the errors also answered before any route runs (the shell's and the direct routes' declared-length
 * check, the server's head check and its last resort): such an answer cannot know whether the request was
 * about an account (no-store.ts), and an error is never worth keeping anyway, so it is never stored.
 */
const UNROUTED = { headers: NO_STORE };

export const ERROR_CATALOG = {
  VALIDATION_ERROR: entry({ status: 400, message: (field: string, problem: string) => `${field}: ${problem}`, example: ["limit", "must be an integer"] }),
  UNKNOWN_NUTRIENT: entry({
    status: 400,
    message: (number: string) => `No nutrient has the number '${number.slice(0, 20)}'. The numbers are listed at /v1/nutrients.`,
    example: ["999"],
  }),
  INVALID_JSON: fixed(400, "The request body is not valid JSON."),
  INVALID_EMAIL: fixed(400, "The e-mail address is not valid."),
  PASSWORD_TOO_SHORT: entry({ status: 400, message: () => `The password must be at least ${PASSWORD_MIN_LENGTH} characters.`, example: [] }),
  PASSWORD_TOO_LONG: entry({ status: 400, message: () => `The password must be at most ${PASSWORD_MAX_LENGTH} characters.`, example: [] }),
  INVALID_PASSWORD: fixed(400, "The password is not correct."),
  EMAIL_CAN_NOT_BE_UPDATED: fixed(400, "The e-mail address of an account cannot be changed."),
  UNAUTHORIZED: fixed(401, "A valid API key or trial token is required.", { headers: { "www-authenticate": 'Bearer realm="foodapi"' } }),
  SESSION_REQUIRED: fixed(401, "Sign in to manage API keys.", { code: "UNAUTHORIZED" }),
  SIGN_IN_REQUIRED: fixed(401, "Sign in to manage your account.", { code: "UNAUTHORIZED" }),
  INVALID_EMAIL_OR_PASSWORD: fixed(401, "Invalid e-mail or password."),
  INVALID_ORIGIN: fixed(
    403,
    "This request came from a site that is not allowed to make it: its origin is neither the service's own (--base-url) nor a trusted one (--trusted-origins).",
  ),
  BANNED_USER: fixed(403, "You have been banned from this application. Contact its operator."),
  CHALLENGE_FAILED: fixed(403, "The bot challenge was not solved, has expired, or was already used."),
  NOT_FOUND: fixed(404, "No such route."),
  FOOD_NOT_FOUND: entry({ status: 404, message: (foodNumber: string) => `No food has the number '${foodNumber.slice(0, 20)}'.`, example: ["99999"] }),
  KEY_NOT_FOUND: fixed(404, "No such key."),
  SESSION_NOT_FOUND: fixed(404, "No such session."),
  KEY_LIMIT_REACHED: entry({ status: 409, message: () => `An account can have at most ${MAX_ACTIVE_KEYS_PER_ACCOUNT} active keys. Revoke one first.`, example: [] }),
  PAYLOAD_TOO_LARGE: entry({ status: 413, message: () => `Request bodies are limited to ${MAX_BODY_BYTES} bytes.`, example: [], ...UNROUTED }),
  USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL: fixed(422, "An account with this e-mail already exists. Use another e-mail."),
  RATE_LIMITED: fixed(429, "This key has reached its rate limit. Slow down and retry later."),
  TRIAL_QUOTA_EXHAUSTED: entry({
    status: 429,
    message: () => `This trial token has used its ${TRIAL_TOKEN_REQUESTS} requests. Sign up for a free API key to keep going.`,
    example: [],
  }),
  TOO_MANY_REQUESTS: fixed(429, "Too many attempts from your network. Try again later."),
  // Said alike for an e-mail address without an account, so that it tells nobody which addresses have one.
  PASSWORD_ATTEMPTS_LIMITED: fixed(429, "Too many wrong passwords for this account. Try again later.", { code: "TOO_MANY_REQUESTS" }),
  KEY_ISSUE_LIMITED: fixed(429, "This account has issued too many keys recently. Try again later.", { code: "RATE_LIMITED" }),
  HEADERS_TOO_LARGE: entry({
    status: 431,
    message: () => `Request headers, with the request line, are limited to ${MAX_HEAD_BYTES} bytes.`,
    example: [],
    ...UNROUTED,
  }),
  INTERNAL_ERROR: fixed(500, "Something went wrong on our side.", UNROUTED),
  CHALLENGE_UNAVAILABLE: fixed(503, "The bot-challenge verifier did not answer. Try again shortly.", {
    headers: { "retry-after": String(STORAGE_RETRY_AFTER_SECONDS) },
  }),
  SERVICE_UNAVAILABLE: fixed(503, "The service cannot store data right now. Try again shortly.", {
    headers: { "retry-after": String(STORAGE_RETRY_AFTER_SECONDS) },
  }),
} as const;

export type ErrorName = keyof typeof ERROR_CATALOG;
type ArgsOf<N extends ErrorName> = (typeof ERROR_CATALOG)[N] extends Entry<infer A> ? A : never;

/** The error as a plain description (for hot paths that answer without throwing), with extra headers. */
export function errorDescription<N extends ErrorName>(name: N, args: ArgsOf<N>, headers: Readonly<Record<string, string>> = {}): ErrorDescription {
  const known = ERROR_CATALOG[name] as Entry<unknown[]>;
  return { status: known.status, code: known.code ?? name, message: known.message(...args), headers: { ...known.headers, ...headers } };
}

const throwable = (described: ErrorDescription) => new ApiError(described.status, described.code, described.message, described.headers);

/** The error to throw. */
export function apiError<N extends ErrorName>(name: N, ...args: ArgsOf<N>): ApiError {
  return throwable(errorDescription(name, args));
}

/** A 429 with Retry-After in whole seconds, as a plain description (nothing thrown). */
export function quotaRefusal(
  name: "RATE_LIMITED" | "TRIAL_QUOTA_EXHAUSTED" | "TOO_MANY_REQUESTS" | "PASSWORD_ATTEMPTS_LIMITED" | "KEY_ISSUE_LIMITED",
  retryAfterSeconds: number,
): ErrorDescription {
  return errorDescription(name, [] as never, { "retry-after": String(Math.max(1, retryAfterSeconds)) });
}

/** The same 429, to throw. */
export function tooManyRequests(name: Parameters<typeof quotaRefusal>[0], retryAfterSeconds: number): ApiError {
  return throwable(quotaRefusal(name, retryAfterSeconds));
}
