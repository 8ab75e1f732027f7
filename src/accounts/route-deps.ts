import type { Config } from "../platform/config/config";
import type { Limiter } from "../limits/limiter";
import type { DeletedAccountKeys } from "./account-keys";
import type { SessionDeps } from "./session-guard";
import type { AccountStore } from "./store";

/**
 * The per-IP limit of the routes that try a password (sign-up, sign-in, change-password, delete-user),
 * by the name the composition root gives its setting (`--auth-limit`, src/app/app.ts).
 */
export const AUTH_LIMIT = "auth";

/** What the account routes need, sign-in's (routes.ts) and self-service's (self-service-routes.ts) alike. */
export interface AuthRouteDeps extends SessionDeps {
  accounts: AccountStore;
  accountKeys: DeletedAccountKeys;
  limiter: Limiter;
  config: Config;
  allowedOrigins: ReadonlySet<string>;
}
