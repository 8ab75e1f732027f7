import type {} from "altcha";
import { callApi } from "./api";
import { byId, formatDate } from "./dom";
import { messageArea } from "./messages";

// The widget's proof of work runs in a worker served by this server (the "external" build has none
// inlined), so the page's Content-Security-Policy needs no blob: or data: workers.
const WORKER_URL = "/assets/altcha-pbkdf2-worker.js";
/** The token lives as long as the tab: a reload keeps it, a new tab or a closed browser does not. */
const STORAGE_KEY = "foodapi.trial-token";

interface StoredToken {
  token: string;
  expiresAt: string;
  /** As the last answer's RateLimit header said. */
  remaining?: number;
}

/** The "try it without an account" panel: the ALTCHA widget solves the challenge, we redeem its payload. */
export function setupTrial(events: { onToken(token: string): void }) {
  for (const algorithm of ["PBKDF2/SHA-256", "PBKDF2/SHA-384", "PBKDF2/SHA-512"]) {
    $altcha.algorithms.set(algorithm, () => new Worker(WORKER_URL));
  }
  const widget = byId("altcha") as HTMLElement & { configure?: (options: { fetch: typeof fetch }) => Promise<void> };
  const messages = messageArea("trial", widget, "after");

  // The widget fetches its challenge itself and reports a refusal only as "error": this fetch remembers
  // the last answer, so that a 429 can say how long to wait.
  let lastChallenge: { status: number; retryAfter: string | null } | undefined;
  const challengeFetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const response = await fetch(input, init);
    lastChallenge = { status: response.status, retryAfter: response.headers.get("retry-after") };
    return response;
  }) as typeof fetch;
  void widget.configure?.({ fetch: challengeFetch });

  const use = (stored: StoredToken) => {
    const expires = byId<HTMLTimeElement>("trial-expires");
    expires.dateTime = stored.expiresAt;
    expires.textContent = formatDate(stored.expiresAt);
    byId("trial-info").hidden = false;
    if (stored.remaining !== undefined) byId("trial-remaining").textContent = String(stored.remaining);
    events.onToken(stored.token);
  };

  widget.addEventListener("verified", async (event) => {
    const { payload } = (event as CustomEvent<{ payload: string }>).detail;
    const result = await callApi<StoredToken>("POST", "/v1/trial-token", { body: { challengeToken: payload } });
    if (!result.ok) return messages.fail(`Could not get a trial token: ${result.message}${waitHint(result.headers.get("retry-after"))}`);
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify({ token: result.data.token, expiresAt: result.data.expiresAt }));
    use(result.data);
    messages.say("Trial token ready: the playground below now uses it.");
  });
  widget.addEventListener("statechange", (event) => {
    const { state, error } = (event as CustomEvent<{ state: string; error?: string | null }>).detail;
    if (state === "error") {
      if (lastChallenge?.status === 429) messages.fail(`Too many trial challenges from your network.${waitHint(lastChallenge.retryAfter)}`);
      else messages.fail(`The challenge failed: ${error ?? "it could not be fetched or solved"}. Try again.`);
    }
    if (state === "expired") messages.fail("The challenge expired before it was used. Solve it again.");
  });

  return {
    /** Takes up a token from earlier in this tab, while it is still valid (once every panel is set up). */
    restore() {
      const stored = readStored();
      if (stored) use(stored);
    },
    showRemaining(remaining: number) {
      byId("trial-remaining").textContent = String(remaining);
      const stored = readStored();
      if (stored) sessionStorage.setItem(STORAGE_KEY, JSON.stringify({ ...stored, remaining }));
    },
  };
}

function readStored(): StoredToken | undefined {
  try {
    const stored = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? "null") as StoredToken | null;
    if (stored && typeof stored.token === "string" && Date.parse(stored.expiresAt) > Date.now()) return stored;
  } catch {
    // Nothing usable stored.
  }
  sessionStorage.removeItem(STORAGE_KEY);
  return undefined;
}

/** " Try again in 27 minutes." from a Retry-After in seconds. */
function waitHint(retryAfter: string | null): string {
  const seconds = Number(retryAfter);
  if (!Number.isFinite(seconds) || seconds <= 0) return "";
  const minutes = Math.ceil(seconds / 60);
  return seconds < 90 ? ` Try again in ${Math.ceil(seconds)} seconds.` : ` Try again in ${minutes} minutes.`;
}
