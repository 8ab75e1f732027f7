import { Elysia } from "elysia";
import { NO_STORE } from "./errors";
import { requestUrl } from "./request-context";

/** `path` is one of `prefixes` or below one (a path segment boundary: `/v1/keys` covers `/v1/keys/x`, not `/v1/keysx`). */
export function pathUnder(path: string, prefixes: readonly string[]): boolean {
  return prefixes.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}

/**
 * Every answer under these path prefixes, errors included, is `Cache-Control: no-store`: it is about an
 * account, and no cache may keep it. Set when the request arrives, before any route or guard runs, so that
 * no route under them can forget it. (Elysia's `onRequest` sees every request, hence the prefixes.)
 */
export function noStoreUnder(prefixes: readonly string[]) {
  return new Elysia().onRequest(({ request, set }) => {
    if (pathUnder(requestUrl(request).path, prefixes)) Object.assign(set.headers, NO_STORE);
  });
}
