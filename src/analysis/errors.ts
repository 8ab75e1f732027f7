import { errorsOf, PLATFORM_ERRORS } from "../platform/http/error-catalog";

/** Recipe analysis answers only the platform's errors (VALIDATION_ERROR): it declares none of its own. */
export const { apiError } = errorsOf(PLATFORM_ERRORS);
