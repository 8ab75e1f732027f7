/**
 * The one error shape of the API: `{"code": "UPPER_SNAKE", "message": "..."}` for every 4xx and 5xx.
 * Flat, as Better Auth's client reads it. Handlers throw `ApiError`; `toErrorResponse` writes it.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = "ApiError";
  }
}

export const JSON_CONTENT_TYPE = "application/json; charset=utf-8";

/**
 * Headers every response carries: `nosniff`, so that a browser never reads a JSON answer (which may echo
 * user text) as anything else. Set by the shell for Elysia's answers and by the answers built outside it.
 */
export const SECURITY_HEADERS = { "x-content-type-options": "nosniff" } as const;

/** For answers that carry a secret (a session token, a plaintext key, a trial token): never stored by a cache. */
export const NO_STORE = { "cache-control": "no-store" } as const;

/**
 * What an error response says. An `ApiError` is one; a hot path that refuses without throwing (a quota
 * refusal on every request of an exhausted credential) passes a plain object and saves capturing a stack.
 */
export interface ErrorDescription {
  readonly status: number;
  readonly code: string;
  readonly message: string;
  readonly headers: Readonly<Record<string, string>>;
}

/** `contextHeaders`: headers a route already decided on (RateLimit), kept on the error response. */
export function errorResponse(error: ErrorDescription, contextHeaders: Record<string, unknown> = {}): Response {
  const headers = new Headers();
  for (const [name, value] of Object.entries(contextHeaders)) if (typeof value === "string") headers.set(name, value);
  for (const [name, value] of Object.entries(error.headers)) headers.set(name, value);
  headers.set("content-type", JSON_CONTENT_TYPE);
  headers.set("x-content-type-options", SECURITY_HEADERS["x-content-type-options"]);
  return new Response(JSON.stringify({ code: error.code, message: error.message }), { status: error.status, headers });
}

export const notFound = () => new ApiError(404, "NOT_FOUND", "No such route.");

export const validationError = (field: string, problem: string) =>
  new ApiError(400, "VALIDATION_ERROR", `${field}: ${problem}`);

/**
 * Every authentication failure on a data route, whatever the cause, is this one response. The cause is
 * kept for logs by the guard; nothing about it reaches the client.
 */
export const UNAUTHORIZED: ErrorDescription = Object.freeze({
  status: 401,
  code: "UNAUTHORIZED",
  message: "A valid API key or trial token is required.",
  headers: Object.freeze({ "www-authenticate": 'Bearer realm="foodapi"' }),
});

/** A bug: what went wrong is logged, never sent. */
export const internalError = () => new ApiError(500, "INTERNAL_ERROR", "Something went wrong on our side.");

/** How long a client should wait before retrying after a storage fault: a disk being cleaned up, a lock. */
export const STORAGE_RETRY_AFTER_SECONDS = 5;

/**
 * The storage cannot take or serve data right now (disk full, I/O error, read-only file system): the
 * request did not happen, and the same request may succeed shortly.
 */
export const serviceUnavailable = () =>
  new ApiError(503, "SERVICE_UNAVAILABLE", "The service cannot store data right now. Try again shortly.", {
    "retry-after": String(STORAGE_RETRY_AFTER_SECONDS),
  });

/**
 * A JSON response sent as it is. Hot routes use it so Elysia does not re-check and re-encode every
 * answer against the route's response schema (which stays for the OpenAPI document); the body's type
 * is still checked at compile time by the service's return type.
 */
export function jsonResponse(body: string | object, status = 200): Response {
  return new Response(typeof body === "string" ? body : JSON.stringify(body), {
    status,
    headers: { "content-type": JSON_CONTENT_TYPE, ...SECURITY_HEADERS },
  });
}
