/**
 * The one error shape of the API: `{"code": "UPPER_SNAKE", "message": "..."}` for every 4xx and 5xx.
 * Flat, as Better Auth's client reads it. Handlers throw `ApiError`s built by `apiError` (src/platform/http/error-catalog.ts); `errorResponse` writes them.
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
