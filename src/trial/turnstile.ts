/**
 * Cloudflare Turnstile's siteverify, for operators who configure TURNSTILE_SECRET_KEY instead of ALTCHA.
 * A verifier that does not answer within `timeoutMs` (--turnstile-timeout-ms) is "unavailable", never a hang.
 */
export type TurnstileResult = "ok" | "failed" | "unavailable";

export async function verifyTurnstile(options: {
  url: string;
  secret: string;
  token: string;
  remoteIp: string;
  timeoutMs: number;
}): Promise<TurnstileResult> {
  const form = new URLSearchParams({ secret: options.secret, response: options.token });
  if (options.remoteIp !== "unknown" && !options.remoteIp.includes("/")) form.set("remoteip", options.remoteIp);
  try {
    const response = await fetch(options.url, {
      method: "POST",
      body: form,
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    if (!response.ok) return "unavailable";
    const body = (await response.json()) as { success?: unknown };
    return body.success === true ? "ok" : "failed";
  } catch {
    return "unavailable";
  }
}
