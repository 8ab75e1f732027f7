import { Elysia } from "elysia";
import type { Clock } from "../platform/clock";
import { apiError } from "./errors";
import { noStoreUnder, pathUnder } from "../platform/http/no-store";
import { requestUrl } from "../platform/http/request-context";
import { resendIfExtended, sessionTokenFromHeader } from "./cookie";
import type { SessionStore } from "./store";
import { validateSession, type ValidSession } from "./sessions";

export interface SessionDeps {
  sessions: SessionStore;
  clock: Clock;
  secureCookies: boolean;
}

/**
 * Every route under `prefix` (or each of several) needs a session; they get `account` (the valid session
 * and its user) or answer 401 (`required`). The check runs when the request arrives, before Elysia reads or
 * validates a body, so that without a session the answer is the same 401 whatever was sent. (Elysia's
 * `onRequest` sees every request, hence the prefixes.) Every answer of these routes is about the account:
 * none may be kept by a cache (`no-store`, whatever the route returns).
 */
export function sessionGuard(deps: SessionDeps, prefix: string | readonly string[], required: "SESSION_REQUIRED" | "SIGN_IN_REQUIRED" = "SESSION_REQUIRED") {
  const checked = new WeakMap<Request, { account: ValidSession; token: string }>();
  const prefixes = typeof prefix === "string" ? [prefix] : prefix;
  return new Elysia()
    .use(noStoreUnder(prefixes))
    .onRequest(async ({ request }) => {
      if (!pathUnder(requestUrl(request).path, prefixes)) return;
      const token = sessionTokenFromHeader(request.headers.get("cookie"));
      const account = await validateSession(deps.sessions, deps.clock, token);
      if (!account || !token) throw apiError(required);
      checked.set(request, { account, token });
    })
    .resolve({ as: "scoped" }, ({ request, cookie }) => {
      const found = checked.get(request);
      if (!found) throw apiError(required);
      resendIfExtended(cookie, found.token, found.account, { secure: deps.secureCookies });
      return { account: found.account };
    });
}
