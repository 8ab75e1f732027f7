import { Elysia, t } from "elysia";
import type { Config } from "../config/config";
import { clientIpOf } from "../http/client-ip";
import { NO_STORE } from "../http/errors";
import type { Limiter } from "../limits/limiter";
import { ipRateLimit } from "../limits/http";
import { newChallenge } from "./challenge";
import { redeemChallenge, type TrialDeps } from "./service";

const TrialTokenResponse = t.Object({
  token: t.String({ description: "<base64url payload>.<base64url HMAC-SHA256>; send as Authorization: Bearer" }),
  expiresAt: t.String({ format: "date-time" }),
});

/** Public trial routes: a bot challenge, and a 24-hour, 30-request token for its solution. */
export function trialRoutes(deps: TrialDeps & { config: Config; limiter: Limiter }) {
  const app = new Elysia({ prefix: "/v1" }).use(
    ipRateLimit({ limiter: deps.limiter, spec: deps.config.trialIpLimit, scope: "trial", clientIpHeader: deps.config.clientIpHeader }),
  );
  // With Turnstile configured, the challenge comes from Cloudflare's widget, not from here.
  const withChallenge = deps.turnstile
    ? app
    : app.get(
        "/trial-challenge",
        async ({ set }) => {
          Object.assign(set.headers, NO_STORE);
          return newChallenge(deps.secrets.challenge, deps.clock);
        },
        { detail: { summary: "A signed ALTCHA proof-of-work challenge (expires in 10 minutes)", tags: ["Trial"] } },
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
      detail: { summary: "Exchange a solved bot challenge for a trial token", tags: ["Trial"] },
    },
  );
}
