import { Elysia, t } from "elysia";
import { sessionGuard, type SessionDeps } from "../accounts/session-guard";
import { apiError, tooManyRequests } from "./errors";
import type { RateSpec } from "../platform/config/config";
import { STATE_ERROR } from "../platform/http/error-catalog";
import type { Limiter } from "../limits/limiter";
import { parseName } from "../platform/security/text";
import { originCheck } from "../platform/http/origin-check";
import { operation } from "../platform/http/route-notes";
import { CreateKeyBody, IssuedKey, KeyList, KeyUsage, ListedKey, RenameKeyBody } from "./model";
import { type ActiveKeys, KEYS_REFUSED } from "./active-keys";
import { issueKey, KEY_NAME_MAX_LENGTH, keyIssueBucket, MAX_ACTIVE_KEYS_PER_ACCOUNT } from "./service";
import type { ApiKey, KeyStore } from "./store";
import type { KeyUse } from "./use";

const iso = (ms: number) => new Date(ms).toISOString();

/** What every state-changing key route can answer: no session, another site's origin, the store. */
const KEY_ERRORS = ["SESSION_REQUIRED", "INVALID_ORIGIN", STATE_ERROR] as const;
const keyFields = { id: "key_9Rf2WmQ8sTx1", name: "laptop", keyPrefix: "fnk_5Hq2Zr8W", tier: "free", createdAt: "2026-01-05T10:01:00.000Z" };

function toListedKey(key: ApiKey): typeof ListedKey.static {
  return {
    id: key.id,
    name: key.name,
    keyPrefix: key.keyPrefix,
    tier: key.tier,
    createdAt: iso(key.createdAt),
    lastUsedAt: key.lastUsedAt === null ? null : iso(key.lastUsedAt),
  };
}

/** `/v1/keys`: the signed-in user's own API keys. Never shows a plaintext key except once, at issue. */
export function keyRoutes(
  deps: SessionDeps & { keys: KeyStore; activeKeys: ActiveKeys; usage: Pick<KeyUse, "hourly" | "hours">; allowedOrigins: ReadonlySet<string>; limiter: Limiter; issueLimit: RateSpec },
) {
  const { keys, clock } = deps;
  return new Elysia({ prefix: "/v1/keys" })
    .use(originCheck(deps.allowedOrigins))
    .use(sessionGuard(deps, "/v1/keys"))
    .post(
      "",
      async ({ body, account, set }) => {
        const checked = parseName(body.name, KEY_NAME_MAX_LENGTH);
        if (!checked.ok) throw apiError("VALIDATION_ERROR", "name", checked.problem);
        // Issuing is limited per account: each issue and revoke is a write and a cache change everywhere.
        const allowance = await deps.limiter.consume(keyIssueBucket(account.user.id), deps.issueLimit);
        if (!allowance.allowed) {
          throw tooManyRequests("KEY_ISSUE_LIMITED", allowance.retryAfterSeconds);
        }
        const result = await issueKey(keys, clock, account.user.id, checked.name);
        // An account deleted after the session check (its sessions went with it): as if signed out.
        if (!result.ok) throw apiError(result.reason === "ACCOUNT_NOT_FOUND" ? "SESSION_REQUIRED" : "KEY_LIMIT_REACHED");
        set.status = 201;
        const { lastUsedAt: _unused, ...listed } = toListedKey(result.key);
        return { ...listed, key: result.key.key };
      },
      {
        body: CreateKeyBody,
        response: { 201: IssuedKey },
        detail: operation({
          summary: "Issue an API key (shown once)",
          description: `The plaintext \`key\` is in this response only: it is stored as a hash and cannot be shown again. At most ${MAX_ACTIVE_KEYS_PER_ACCOUNT} active keys per account, and a limit on keys issued per hour. Without a session: 401, whatever the body.`,
          tags: ["API keys"],
          credential: "session",
          errors: [...KEY_ERRORS, "VALIDATION_ERROR", "KEY_LIMIT_REACHED", "KEY_ISSUE_LIMITED"],
          requestExample: { name: "laptop" },
          examples: { "201": { ...keyFields, key: "fnk_5Hq2Zr8WbN3xK7mPq4Ls9Td2Vf6Yg1Hc8Jr" } },
        }),
      },
    )
    .get("", async ({ account }) => ({ items: (await keys.listActive(account.user.id)).map(toListedKey) }), {
      response: { 200: KeyList },
      detail: operation({
        summary: "The caller's active keys, newest first, without plaintext",
        tags: ["API keys"],
        credential: "session",
        errors: ["SESSION_REQUIRED", STATE_ERROR],
        examples: { "200": { items: [{ ...keyFields, lastUsedAt: null }] } },
      }),
    })
    .patch(
      "/:id",
      async ({ params, body, account }) => {
        const checked = parseName(body.name, KEY_NAME_MAX_LENGTH);
        if (!checked.ok) throw apiError("VALIDATION_ERROR", "name", checked.problem);
        const renamed = await keys.rename(account.user.id, params.id, checked.name);
        if (!renamed) throw apiError("KEY_NOT_FOUND");
        return toListedKey(renamed);
      },
      {
        params: t.Object({ id: t.String() }),
        body: RenameKeyBody,
        response: { 200: ListedKey },
        detail: operation({
          summary: "Rename one of the caller's keys",
          description: "Answers the key as `GET /v1/keys` lists it (never the plaintext). Another account's key, an unknown or a revoked one: 404.",
          tags: ["API keys"],
          credential: "session",
          errors: [...KEY_ERRORS, "VALIDATION_ERROR", "KEY_NOT_FOUND"],
          requestExample: { name: "build server" },
          examples: { "200": { ...keyFields, name: "build server", lastUsedAt: "2026-01-06T08:12:00.000Z" } },
        }),
      },
    )
    .get(
      "/:id/usage",
      async ({ params, account }) => {
        // The account's own active keys are at most a few dozen: finding one among them is the ownership check.
        const owned = (await keys.listActive(account.user.id)).some((key) => key.id === params.id);
        if (!owned) throw apiError("KEY_NOT_FOUND");
        return deps.usage.hourly(params.id, clock());
      },
      {
        params: t.Object({ id: t.String() }),
        response: { 200: KeyUsage },
        detail: operation({
          summary: "The key's requests per hour over the last 7 days",
          description: `Allowed and refused (429) requests per hour, for the ${deps.usage.hours} hours up to the current one, oldest first; hours without requests are left out. Counts are written in batches, so the last few seconds may not show yet. Another account's key, an unknown or a revoked one: 404.`,
          tags: ["API keys"],
          credential: "session",
          errors: ["SESSION_REQUIRED", "KEY_NOT_FOUND", STATE_ERROR],
          examples: {
            "200": {
              items: [
                { hour: "2026-01-06T08:00:00Z", allowed: 120, refused: 0 },
                { hour: "2026-01-06T09:00:00Z", allowed: 1000, refused: 3 },
              ],
            },
          },
        }),
      },
    )
    .delete(
      "/:id",
      async ({ params, account }) => {
        if (!(await deps.activeKeys.revoke(account.user.id, params.id, clock()))) {
          throw apiError("KEY_NOT_FOUND");
        }
        return new Response(null, { status: 204 });
      },
      {
        params: t.Object({ id: t.String() }),
        detail: operation({
          summary: "Revoke one of the caller's keys",
          description: `The key gets the uniform 401 ${KEYS_REFUSED}. Another account's key, an unknown or an already revoked one: 404.`,
          tags: ["API keys"],
          credential: "session",
          errors: [...KEY_ERRORS, "KEY_NOT_FOUND"],
          responses: { "204": { description: "Revoked" } },
        }),
      },
    );
}
