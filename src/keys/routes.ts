import { Elysia, t } from "elysia";
import { sessionGuard, type SessionDeps } from "../accounts/session-guard";
import { apiError, tooManyRequests } from "../http/error-catalog";
import { NO_STORE } from "../http/errors";
import type { RateSpec } from "../config/config";
import type { Limiter } from "../limits/limiter";
import { parseName } from "../security/text";
import { originCheck } from "../http/origin-check";
import { CreateKeyBody, IssuedKey, KeyList, type ListedKey } from "./model";
import type { ActiveKeys } from "./active-keys";
import { issueKey, KEY_NAME_MAX_LENGTH } from "./service";
import type { ApiKey, KeyStore } from "./store";

const iso = (ms: number) => new Date(ms).toISOString();

function toListedKey(key: ApiKey): ListedKey {
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
  deps: SessionDeps & { keys: KeyStore; activeKeys: ActiveKeys; allowedOrigins: ReadonlySet<string>; limiter: Limiter; issueLimit: RateSpec },
) {
  const { keys, clock } = deps;
  return new Elysia({ prefix: "/v1/keys" })
    .use(originCheck(deps.allowedOrigins))
    .use(sessionGuard(deps, "/v1/keys"))
    .post(
      "",
      async ({ body, account, set }) => {
        Object.assign(set.headers, NO_STORE);
        const checked = parseName(body.name, KEY_NAME_MAX_LENGTH);
        if (!checked.ok) throw apiError("VALIDATION_ERROR", "name", checked.problem);
        // Issuing is limited per account: each issue and revoke is a write and a cache change everywhere.
        const allowance = await deps.limiter.consume(`key-issue:${account.user.id}`, deps.issueLimit);
        if (!allowance.allowed) {
          throw tooManyRequests("KEY_ISSUE_LIMITED", allowance.retryAfterSeconds);
        }
        const result = await issueKey(keys, clock, account.user.id, checked.name);
        if (!result.ok) {
          throw apiError("KEY_LIMIT_REACHED");
        }
        set.status = 201;
        const { lastUsedAt: _unused, ...listed } = toListedKey(result.key);
        return { ...listed, key: result.key.key };
      },
      { body: CreateKeyBody, response: { 201: IssuedKey }, detail: { summary: "Issue an API key (shown once)", tags: ["API keys"] } },
    )
    .get("", async ({ account }) => ({ items: (await keys.listActive(account.user.id)).map(toListedKey) }), {
      response: { 200: KeyList },
      detail: { summary: "The caller's active keys, newest first, without plaintext", tags: ["API keys"] },
    })
    .delete(
      "/:id",
      async ({ params, account }) => {
        if (!(await deps.activeKeys.revoke(account.user.id, params.id, clock()))) {
          throw apiError("KEY_NOT_FOUND");
        }
        return new Response(null, { status: 204 });
      },
      { params: t.Object({ id: t.String() }), detail: { summary: "Revoke one of the caller's keys", tags: ["API keys"] } },
    );
}
