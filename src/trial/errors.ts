import { errorEntry, errorsOf, fixedError, PLATFORM_ERRORS, STORAGE_RETRY_AFTER_SECONDS } from "../platform/http/error-catalog";
import { TRIAL_TOKEN_REQUESTS } from "./token";

/** The trial's errors (the catalogue's rules: src/platform/http/error-catalog.ts). */
export const TRIAL_ERRORS = {
  CHALLENGE_FAILED: fixedError(403, "The bot challenge was not solved, has expired, or was already used."),
  TRIAL_QUOTA_EXHAUSTED: errorEntry({
    status: 429,
    message: () => `This trial token has used its ${TRIAL_TOKEN_REQUESTS} requests. Sign up for a free API key to keep going.`,
    example: [],
  }),
  CHALLENGE_UNAVAILABLE: fixedError(503, "The bot-challenge verifier did not answer. Try again shortly.", {
    headers: { "retry-after": String(STORAGE_RETRY_AFTER_SECONDS) },
  }),
} as const;

export const { apiError, quotaRefusal } = errorsOf({ ...PLATFORM_ERRORS, ...TRIAL_ERRORS });
