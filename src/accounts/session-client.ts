import { clientIpOf } from "../platform/http/client-ip";
import type { SessionClient } from "./sessions";

/** A User-Agent is kept to this many characters: enough to recognise a browser, bounded in the database. */
const USER_AGENT_MAX_LENGTH = 256;
const CONTROL = /\p{Cc}/gu;

/**
 * What a new session records of the request that starts it: the client IP by the one rule the rate limits
 * use (platform/http/client-ip.ts, IPv6 as its /64) and the User-Agent, without control characters and cut short.
 * Both are shown only to the account itself (list-sessions), never logged.
 */
export function sessionClientOf(request: Request, clientIpHeader: string | null): SessionClient {
  const ip = clientIpOf(request, clientIpHeader);
  const agent = request.headers.get("user-agent")?.replace(CONTROL, "").trim().slice(0, USER_AGENT_MAX_LENGTH);
  return { ipAddress: ip === "unknown" ? null : ip, userAgent: agent || null };
}
