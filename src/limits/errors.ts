import { errorsOf, fixedError, PLATFORM_ERRORS } from "../platform/http/error-catalog";

/** The per-IP limit's error (the catalogue's rules: src/platform/http/error-catalog.ts). */
export const LIMIT_ERRORS = {
  TOO_MANY_REQUESTS: fixedError(429, "Too many attempts from your network. Try again later."),
} as const;

export const { tooManyRequests } = errorsOf({ ...PLATFORM_ERRORS, ...LIMIT_ERRORS });
