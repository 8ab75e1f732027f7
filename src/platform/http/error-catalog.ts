import { MAX_BODY_BYTES } from "./body-limit";
import { MAX_HEAD_BYTES } from "./head-limit";
import { ApiError, type ErrorDescription, NO_STORE } from "./errors";

/**
 * Every error this API answers with is declared once: the name a throw site uses (typed: a typo does not
 * compile), the wire code (several names may share one, as SESSION_REQUIRED answers UNAUTHORIZED), the
 * status, and the message, built from the real constants. The platform declares its own errors here; each
 * capability declares its own beside its code (`src/<capability>/errors.ts`) and throws through `errorsOf`
 * over the two. The composition root puts every table together (src/app/error-catalog.ts) for the OpenAPI
 * document, which lists the same entries with their `example` arguments, so the two cannot drift apart.
 */
export interface ErrorEntry<A extends unknown[]> {
  readonly status: number;
  /** The wire code, when it differs from the entry's name. */
  readonly code?: string;
  readonly message: (...args: A) => string;
  /** Arguments for the document's example message. */
  readonly example: A;
  /** Headers every answer of this error carries. */
  readonly headers?: Readonly<Record<string, string>>;
}

/** A table of errors by name (`any`: each entry has its own argument list). */
export type ErrorTable = Readonly<Record<string, ErrorEntry<any>>>;

export const errorEntry = <A extends unknown[]>(value: ErrorEntry<A>) => value;
export const fixedError = (status: number, message: string, rest: { code?: string; headers?: Record<string, string> } = {}) =>
  errorEntry<[]>({ status, message: () => message, example: [], ...rest });

/** Seconds a client should wait when the state database or the challenge verifier cannot answer. */
export const STORAGE_RETRY_AFTER_SECONDS = 5;

/**
 * For the errors also answered before any route runs (the shell's and the direct routes' declared-length
 * check, the server's head check and its last resort): such an answer cannot know whether the request was
 * about an account (no-store.ts), and an error is never worth keeping anyway, so it is never stored.
 */
const UNROUTED = { headers: NO_STORE };

/** The errors of the platform's own pieces: request shape, credential gate, origin, routing, limits, storage. */
export const PLATFORM_ERRORS = {
  VALIDATION_ERROR: errorEntry({ status: 400, message: (field: string, problem: string) => `${field}: ${problem}`, example: ["limit", "must be an integer"] }),
  INVALID_JSON: fixedError(400, "The request body is not valid JSON."),
  UNAUTHORIZED: fixedError(401, "A valid API key or trial token is required.", { headers: { "www-authenticate": 'Bearer realm="foodapi"' } }),
  INVALID_ORIGIN: fixedError(
    403,
    "This request came from a site that is not allowed to make it: its origin is neither the service's own (--base-url) nor a trusted one (--trusted-origins).",
  ),
  NOT_FOUND: fixedError(404, "No such route."),
  PAYLOAD_TOO_LARGE: errorEntry({ status: 413, message: () => `Request bodies are limited to ${MAX_BODY_BYTES} bytes.`, example: [], ...UNROUTED }),
  HEADERS_TOO_LARGE: errorEntry({
    status: 431,
    message: () => `Request headers, with the request line, are limited to ${MAX_HEAD_BYTES} bytes.`,
    example: [],
    ...UNROUTED,
  }),
  INTERNAL_ERROR: fixedError(500, "Something went wrong on our side.", UNROUTED),
  SERVICE_UNAVAILABLE: fixedError(503, "The service cannot store data right now. Try again shortly.", {
    headers: { "retry-after": String(STORAGE_RETRY_AFTER_SECONDS) },
  }),
} as const;

/** The error of every operation that reads or writes the state database (accounts, sessions, keys, counters). */
export const STATE_ERROR = "SERVICE_UNAVAILABLE" satisfies keyof typeof PLATFORM_ERRORS;

type ArgsOf<E> = E extends ErrorEntry<infer A> ? A : never;
/** The names of a table's errors whose message takes no argument (a quota refusal's). */
type Argless<T extends ErrorTable> = { [N in keyof T & string]: ArgsOf<T[N]> extends [] ? N : never }[keyof T & string];

/** Throw sites' functions over one table (the platform's errors and a capability's own), typed by its names. */
export function errorsOf<T extends ErrorTable>(table: T) {
  /** The error as a plain description (for hot paths that answer without throwing), with extra headers. */
  function errorDescription<N extends keyof T & string>(name: N, args: ArgsOf<T[N]>, headers: Readonly<Record<string, string>> = {}): ErrorDescription {
    const known = table[name] as ErrorEntry<unknown[]>;
    return { status: known.status, code: known.code ?? name, message: known.message(...(args as unknown[])), headers: { ...known.headers, ...headers } };
  }

  const throwable = (described: ErrorDescription) => new ApiError(described.status, described.code, described.message, described.headers);

  /** A 429 with Retry-After in whole seconds, as a plain description (nothing thrown). */
  function quotaRefusal(name: Argless<T>, retryAfterSeconds: number): ErrorDescription {
    return errorDescription(name, [] as never, { "retry-after": String(Math.max(1, retryAfterSeconds)) });
  }

  return {
    errorDescription,
    /** The error to throw. */
    apiError: <N extends keyof T & string>(name: N, ...args: ArgsOf<T[N]>): ApiError => throwable(errorDescription(name, args)),
    quotaRefusal,
    /** The same 429, to throw. */
    tooManyRequests: (name: Argless<T>, retryAfterSeconds: number): ApiError => throwable(quotaRefusal(name, retryAfterSeconds)),
  };
}

/** The platform's own throw sites. */
export const { apiError, errorDescription } = errorsOf(PLATFORM_ERRORS);
