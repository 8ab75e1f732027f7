import { Elysia } from "elysia";
import type { Clock } from "../clock";
import { ApiError } from "../http/errors";
import { sessionTokenFrom, setSessionCookie } from "./cookie";
import type { SessionStore } from "./session-store";
import { validateSession } from "./sessions";

export interface SessionDeps {
  sessions: SessionStore;
  clock: Clock;
  secureCookies: boolean;
}

/** Routes behind it get `account` (the valid session and its user) or answer 401. */
export function sessionGuard(deps: SessionDeps) {
  return new Elysia().resolve({ as: "scoped" }, ({ cookie }) => {
    const token = sessionTokenFrom(cookie);
    const account = validateSession(deps.sessions, deps.clock, token);
    if (!account || !token) throw new ApiError(401, "UNAUTHORIZED", "Sign in to manage API keys.");
    if (account.extended && account.session.persistent) {
      setSessionCookie(cookie, token, { secure: deps.secureCookies, persistent: true });
    }
    return { account };
  });
}
