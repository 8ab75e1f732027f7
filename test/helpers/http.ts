/** Small helpers for talking JSON to the API. */
export function jsonPost(body: unknown, headers: Record<string, string> = {}): RequestInit {
  return { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) };
}

/** `name=value` of the session cookie from a Set-Cookie header, for the Cookie header of the next request. */
export function sessionCookie(response: Response): string {
  const header = response.headers.get("set-cookie") ?? "";
  const match = /foodapi\.session_token=[^;]*/.exec(header);
  if (!match) throw new Error(`no session cookie in: ${header}`);
  return match[0];
}

/** Status, body and every header but Date: the parts that must match for "identical" responses. */
export async function snapshot(response: Response) {
  const headers = [...response.headers.entries()].filter(([name]) => name !== "date").sort();
  return { status: response.status, body: await response.text(), headers };
}

/** The requests left in a data answer's `RateLimit` header (`r=`). */
export function rateLimitRemaining(response: Response): number {
  return Number(/r=(\d+)/.exec(response.headers.get("ratelimit") ?? "")![1]);
}
