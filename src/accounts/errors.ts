import { errorEntry, errorsOf, fixedError, PLATFORM_ERRORS } from "../platform/http/error-catalog";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "./passwords";

/** The accounts' errors (the catalogue's rules: src/platform/http/error-catalog.ts). */
export const ACCOUNT_ERRORS = {
  INVALID_EMAIL: fixedError(400, "The e-mail address is not valid."),
  PASSWORD_TOO_SHORT: errorEntry({ status: 400, message: () => `The password must be at least ${PASSWORD_MIN_LENGTH} characters.`, example: [] }),
  PASSWORD_TOO_LONG: errorEntry({ status: 400, message: () => `The password must be at most ${PASSWORD_MAX_LENGTH} characters.`, example: [] }),
  INVALID_PASSWORD: fixedError(400, "The password is not correct."),
  EMAIL_CAN_NOT_BE_UPDATED: fixedError(400, "The e-mail address of an account cannot be changed."),
  SESSION_REQUIRED: fixedError(401, "Sign in to manage API keys.", { code: "UNAUTHORIZED" }),
  SIGN_IN_REQUIRED: fixedError(401, "Sign in to manage your account.", { code: "UNAUTHORIZED" }),
  INVALID_EMAIL_OR_PASSWORD: fixedError(401, "Invalid e-mail or password."),
  BANNED_USER: fixedError(403, "You have been banned from this application. Contact its operator."),
  SESSION_NOT_FOUND: fixedError(404, "No such session."),
  USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL: fixedError(422, "An account with this e-mail already exists. Use another e-mail."),
  // Said alike for an e-mail address without an account, so that it tells nobody which addresses have one.
  PASSWORD_ATTEMPTS_LIMITED: fixedError(429, "Too many wrong passwords for this account. Try again later.", { code: "TOO_MANY_REQUESTS" }),
} as const;

export const { apiError, tooManyRequests } = errorsOf({ ...PLATFORM_ERRORS, ...ACCOUNT_ERRORS });
