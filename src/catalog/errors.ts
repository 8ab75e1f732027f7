import { errorEntry, errorsOf, PLATFORM_ERRORS } from "../platform/http/error-catalog";

/** The catalog's errors (the catalogue's rules: src/platform/http/error-catalog.ts). */
export const CATALOG_ERRORS = {
  UNKNOWN_NUTRIENT: errorEntry({
    status: 400,
    message: (number: string) => `No nutrient has the number '${number.slice(0, 20)}'. The numbers are listed at /v1/nutrients.`,
    example: ["999"],
  }),
  FOOD_NOT_FOUND: errorEntry({ status: 404, message: (foodNumber: string) => `No food has the number '${foodNumber.slice(0, 20)}'.`, example: ["99999"] }),
} as const;

export const { apiError } = errorsOf({ ...PLATFORM_ERRORS, ...CATALOG_ERRORS });
