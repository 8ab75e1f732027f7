import { type Contract, contractOf } from "./contract";

/**
 * Preloaded by bunfig.toml for every test file: `fetch` to a foodapi server the tests started (registered
 * by helpers/binary.ts) holds every response to the OpenAPI document, so that a response that breaks the
 * contract fails the test that made the request. Other servers (a Turnstile stand-in) are left alone.
 */

/** The unchecked fetch, for load loops that deliberately count raw responses. */
export const rawFetch: typeof fetch = globalThis.fetch;

/** The servers' origins, each with the environment it was started with. */
const foodApiServers = new Map<string, Record<string, string>>();

/**
 * Every response from this server (`http://127.0.0.1:port`) is checked from now on, until `forgetFoodApiServer`:
 * every test file runs in one process, and the kernel may give a stopped server's port to another server.
 */
export function registerFoodApiServer(url: string, env: Record<string, string> = {}): void {
  foodApiServers.set(new URL(url).origin, env);
}

/** The server at this origin has stopped: whatever answers there next is not checked. */
export function forgetFoodApiServer(url: string): void {
  foodApiServers.delete(new URL(url).origin);
}

const served = new Map<string, Promise<Contract>>();
/**
 * The document a server serves, built by the same code (the binary is compiled from this source tree) from
 * a real app in this process configured with the server's environment, which decides its routes (with
 * Turnstile there is no challenge route). Fetching it from each server would add lines to access logs
 * that tests count.
 */
function servedContract(env: Record<string, string>): Promise<Contract> {
  const key = JSON.stringify(env);
  let contract = served.get(key);
  if (!contract) {
    contract = (async () => {
      const { createTestApp, documentOf } = await import("./test-app");
      const app = await createTestApp({ env });
      try {
        return contractOf(documentOf(app.app));
      } finally {
        app.close();
      }
    })();
    served.set(key, contract);
  }
  return contract;
}

const checkedFetch = async (input: string | URL | Request, init?: RequestInit & { decompress?: boolean }): Promise<Response> => {
  const response = await rawFetch(input, init);
  const url = input instanceof Request ? input.url : String(input);
  // An undecoded body (decompress: false) is not JSON to read; a raw client asked for it.
  const env = foodApiServers.get(new URL(url).origin);
  if (!env || init?.decompress === false) return response;
  const method = (init?.method ?? (input instanceof Request ? input.method : "GET")).toUpperCase();
  await (await servedContract(env)).check({ method, url }, response);
  return response;
};

globalThis.fetch = Object.assign(checkedFetch, { preconnect: rawFetch.preconnect }) as typeof fetch;
