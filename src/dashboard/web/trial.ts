import type {} from "altcha";
import { callApi } from "./api";
import { announce, byId, reportError } from "./dom";

// The widget's proof of work runs in a worker served by this server (the "external" build has none
// inlined), so the page's Content-Security-Policy needs no blob: or data: workers.
const WORKER_URL = "/assets/altcha-pbkdf2-worker.js";

/** The "try it without an account" panel: the ALTCHA widget solves the challenge, we redeem its payload. */
export function setupTrial(events: { onToken(token: string): void }) {
  for (const algorithm of ["PBKDF2/SHA-256", "PBKDF2/SHA-384", "PBKDF2/SHA-512"]) {
    $altcha.algorithms.set(algorithm, () => new Worker(WORKER_URL));
  }
  const widget = byId("altcha");

  widget.addEventListener("verified", async (event) => {
    const { payload } = (event as CustomEvent<{ payload: string }>).detail;
    const result = await callApi<{ token: string; expiresAt: string }>("POST", "/v1/trial-token", { body: { challengeToken: payload } });
    if (!result.ok) return reportError(`Could not get a trial token: ${result.message}`);
    const expires = byId<HTMLTimeElement>("trial-expires");
    expires.dateTime = result.data.expiresAt;
    expires.textContent = new Date(result.data.expiresAt).toLocaleString();
    byId("trial-info").hidden = false;
    announce("Trial token ready: the playground below now uses it.");
    events.onToken(result.data.token);
  });
  widget.addEventListener("statechange", (event) => {
    const { state, error } = (event as CustomEvent<{ state: string; error?: string | null }>).detail;
    if (state === "error") reportError(`The challenge failed: ${error ?? "it could not be fetched or solved"}. Try again.`);
    if (state === "expired") reportError("The challenge expired before it was used. Solve it again.");
  });

  return {
    showRemaining(remaining: number) {
      byId("trial-remaining").textContent = String(remaining);
    },
  };
}
