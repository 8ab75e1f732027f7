import { Elysia, t } from "elysia";
import type { Config } from "../platform/config/config";
import { STATE_ERROR } from "../platform/http/error-catalog";
import { TRIAL_ALLOWANCE } from "./token";
import { clientIpOf } from "../platform/http/client-ip";
import { NO_STORE } from "../platform/http/errors";
import { operation } from "../platform/http/route-notes";
import { CHALLENGE_LIFETIME_SECONDS, newChallenge } from "./challenge";
import { TrialChallenge } from "./model";
import { redeemChallenge, TRIAL_LIMIT, type TrialDeps } from "./service";

const TrialTokenResponse = t.Object({
  token: t.String({ description: "<base64url payload>.<base64url HMAC-SHA256>; send as Authorization: Bearer" }),
  expiresAt: t.String({ format: "date-time" }),
});

/** Public trial routes: a bot challenge, and a trial token (trial/token.ts: its lifetime and quota) for its solution. */
export function trialRoutes(deps: TrialDeps & { config: Config }) {
  const app = new Elysia({ prefix: "/v1" });
  // With Turnstile configured, the challenge comes from Cloudflare's widget, not from here.
  const withChallenge = deps.turnstile
    ? app
    : app.get(
        "/trial-challenge",
        async ({ set }) => {
          Object.assign(set.headers, NO_STORE);
          return newChallenge((await deps.secrets()).challenge, deps.clock);
        },
        {
          detail: operation({
            summary: `A signed ALTCHA proof-of-work challenge (expires in ${CHALLENGE_LIFETIME_SECONDS / 60} minutes)`,
            description: `Solve it in the browser with the ALTCHA widget (\`<altcha-widget challenge="/v1/trial-challenge">\`); its payload is the \`challengeToken\` of \`POST /v1/trial-token\`. Expires after ${CHALLENGE_LIFETIME_SECONDS / 60} minutes. Not served when Turnstile is configured.`,
            tags: ["Trial"],
            credential: "none",
            errors: ["TOO_MANY_REQUESTS", STATE_ERROR],
            ipLimit: TRIAL_LIMIT,
            responses: {
              // Not the route's response schema: Elysia would re-shape the signed object it returns.
              "200": { description: "An ALTCHA v2 challenge, signed; `Cache-Control: no-store`", schema: TrialChallenge },
            },
          }),
        },
      );
  return withChallenge.post(
    "/trial-token",
    async ({ body, request, set }) => {
      const issued = await redeemChallenge(deps, body.challengeToken, clientIpOf(request, deps.config.clientIpHeader));
      set.status = 201;
      Object.assign(set.headers, NO_STORE);
      return issued;
    },
    {
      body: t.Object({ challengeToken: t.String({ description: "The solved widget's payload" }) }),
      response: { 201: TrialTokenResponse },
      detail: operation({
        summary: "Exchange a solved bot challenge for a trial token",
        description: `Each solved challenge is accepted once. The token is good for ${TRIAL_ALLOWANCE}.`,
        tags: ["Trial"],
        credential: "none",
        errors: ["VALIDATION_ERROR", "CHALLENGE_FAILED", "TOO_MANY_REQUESTS", "CHALLENGE_UNAVAILABLE", STATE_ERROR],
        ipLimit: TRIAL_LIMIT,
        requestExample: { challengeToken: "<the widget's payload>" },
        examples: { "201": { token: "eyJqdGkiOiJ0cmlhbF8... .3pSQ13yW...", expiresAt: "2026-01-06T10:00:00.000Z" } },
      }),
    },
  );
}
