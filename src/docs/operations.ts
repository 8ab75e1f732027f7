/**
 * The vocabulary of what route schemas cannot say: which credential an operation takes, which errors it
 * answers with, examples. Each route declares its own notes beside its handler (`operation()` and
 * `DirectRouteSpec` in src/platform/http/route-table.ts); the generated document (openapi.ts) is decorated with them,
 * and a route without notes is documented without credentials or errors, which test/openapi.test.ts refuses.
 * Every number in a message or description comes from the constant the server uses.
 */
import { ERROR_CATALOG, type ErrorName } from "../platform/http/error-catalog";
import { TRIAL_TOKEN_LIFETIME_SECONDS, TRIAL_TOKEN_REQUESTS } from "../trial/token";

/** "30 requests over 24 hours": the trial token's allowance, in words. */
export const TRIAL_ALLOWANCE = `${TRIAL_TOKEN_REQUESTS} requests over ${TRIAL_TOKEN_LIFETIME_SECONDS / 3600} hours`;

/** `apiKeyOrTrial`: the data routes' credential guard. `optionalSession`: works without one too. */
export type Credential = "none" | "apiKeyOrTrial" | "session" | "optionalSession";

/**
 * Every error as the document shows it, `[status, example message, wire code]`, from the one catalogue the
 * throw sites use (src/platform/http/error-catalog.ts).
 */
export const ERRORS = Object.fromEntries(
  Object.entries(ERROR_CATALOG).map(([name, entry]) => {
    const known = entry as { status: number; code?: string; message: (...args: unknown[]) => string; example: unknown[] };
    return [name, [known.status, known.message(...known.example), known.code ?? name] as const];
  }),
) as Readonly<Record<ErrorName, readonly [number, string, string]>>;

export type { ErrorName };

/**
 * Errors of the shell (src/app/http/shell.ts), for every operation whatever its route says: a declared
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
  /** Examples for the declared success response, by status. */
  examples?: Readonly<Record<string, unknown>>;
  requestExample?: unknown;
  responses?: Readonly<Record<string, ExtraResponse>>;
  /** The response sets or clears the session cookie (always, or only when the call changed the caller's session). */
  setsCookie?: boolean | "whenChanged";
}

/** The error of every operation that reads or writes the state database (accounts, sessions, keys, counters). */
export const STATE_ERROR = "SERVICE_UNAVAILABLE" satisfies ErrorName;
