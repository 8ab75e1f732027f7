import { errorEntry, errorsOf, fixedError, PLATFORM_ERRORS } from "../platform/http/error-catalog";
import { ACCOUNT_ERRORS } from "../accounts/errors";
import { MAX_ACTIVE_KEYS_PER_ACCOUNT } from "./service";

/** The keys' errors (the catalogue's rules: src/platform/http/error-catalog.ts). */
export const KEY_ERRORS = {
  KEY_NOT_FOUND: fixedError(404, "No such key."),
  KEY_LIMIT_REACHED: errorEntry({ status: 409, message: () => `An account can have at most ${MAX_ACTIVE_KEYS_PER_ACCOUNT} active keys. Revoke one first.`, example: [] }),
  RATE_LIMITED: fixedError(429, "This key has reached its rate limit. Slow down and retry later."),
  KEY_ISSUE_LIMITED: fixedError(429, "This account has issued too many keys recently. Try again later.", { code: "RATE_LIMITED" }),
} as const;

// An account deleted while its session was checked answers as if signed out: the accounts' error.
export const { apiError, quotaRefusal, tooManyRequests } = errorsOf({ ...PLATFORM_ERRORS, SESSION_REQUIRED: ACCOUNT_ERRORS.SESSION_REQUIRED, ...KEY_ERRORS });
