import { ACCOUNT_ERRORS } from "../accounts/errors";
import { CATALOG_ERRORS } from "../catalog/errors";
import { errorRows } from "../docs/operations";
import { KEY_ERRORS } from "../keys/errors";
import { LIMIT_ERRORS } from "../limits/errors";
import { PLATFORM_ERRORS, type ErrorTable } from "../platform/http/error-catalog";
import { TRIAL_ERRORS } from "../trial/errors";

const TABLES: readonly ErrorTable[] = [PLATFORM_ERRORS, CATALOG_ERRORS, ACCOUNT_ERRORS, KEY_ERRORS, LIMIT_ERRORS, TRIAL_ERRORS];

/**
 * Every error this API answers with: the platform's and each capability's table, put together here, where
 * every capability is known. A name is declared in one table only (a second would answer two ways).
 */
const ERROR_CATALOG = { ...PLATFORM_ERRORS, ...CATALOG_ERRORS, ...ACCOUNT_ERRORS, ...KEY_ERRORS, ...LIMIT_ERRORS, ...TRIAL_ERRORS } as const;
const declared = TABLES.flatMap((table) => Object.keys(table));
const twice = declared.filter((name, i) => declared.indexOf(name) !== i);
if (twice.length > 0) throw new Error(`Errors declared in two tables: ${twice.join(", ")}`);

export type ErrorName = keyof typeof ERROR_CATALOG;

/** Every error as the OpenAPI document shows it (docs/operations.ts), `[status, example message, wire code]`. */
export const ERRORS = errorRows(ERROR_CATALOG);
