import { describe, expect, test } from "bun:test";
import { requestFacts, requestUrl } from "../../src/platform/http/request-context";
import { decodeSegment, parseRequestUrl, routePath } from "../../src/platform/http/request-url";

/**
 * The one place a request URL is taken apart and its path normalised (src/platform/http/request-url.ts):
 * the route table, the dispatcher, CORS, metrics, limits, no-store, the session guard and the access log
 * all read what it makes.
 */
describe("the path a route is matched on", () => {
  test("one trailing slash is the same route, as Elysia matches it; nothing else is rewritten", () => {
    const cases: [string, string][] = [
      ["/", "/"],
      ["//", "/"],
      ["/v1/foods", "/v1/foods"],
      ["/v1/foods/", "/v1/foods"],
      ["/v1/foods//", "/v1/foods/"],
      ["/v1/foods/01001/", "/v1/foods/01001"],
      ["/v1/%66oods/", "/v1/%66oods"],
      ["/V1/Foods", "/V1/Foods"],
      ["/v1/foods/a%2Fb", "/v1/foods/a%2Fb"],
    ];
    for (const [path, matched] of cases) expect([path, routePath(path)]).toEqual([path, matched]);
  });

  test("a parameter's segment is percent-decoded; invalid encoding is taken literally", () => {
    expect(decodeSegment("01001")).toBe("01001");
    expect(decodeSegment("%30%31001")).toBe("01001");
    expect(decodeSegment("a%2Fb")).toBe("a/b");
    expect(decodeSegment("r%201")).toBe("r 1");
    expect(decodeSegment("%zz")).toBe("%zz");
    expect(decodeSegment("%E0%A4%A")).toBe("%E0%A4%A");
  });
});

describe("a request URL taken apart", () => {
  test("path as sent, path matched and query, from an absolute URL or a bare request target", () => {
    expect(parseRequestUrl("http://127.0.0.1:3000/v1/foods/?q=a/b?c")).toEqual({ rawPath: "/v1/foods/", path: "/v1/foods", search: "q=a/b?c" });
    expect(parseRequestUrl("https://x/v1/meta")).toEqual({ rawPath: "/v1/meta", path: "/v1/meta", search: "" });
    expect(parseRequestUrl("/v1/meta/?")).toEqual({ rawPath: "/v1/meta/", path: "/v1/meta", search: "" });
    expect(parseRequestUrl("http://x")).toEqual({ rawPath: "/", path: "/", search: "" });
    // The authority is never guessed from a fixed offset: a short Host does not eat the path.
    expect(parseRequestUrl("http://x/anything/api/auth/sign-in/email").path).toBe("/anything/api/auth/sign-in/email");
  });

  test("once per request: the parts are kept with it", () => {
    const request = new Request("http://localhost/v1/foods/?q=cheddar");
    const url = requestUrl(request);
    expect(url).toEqual({ rawPath: "/v1/foods/", path: "/v1/foods", search: "q=cheddar" });
    expect(requestUrl(request)).toBe(url);
    expect(requestFacts(request).url).toBe(url);
    expect(requestUrl(new Request("http://localhost/v1/foods/?q=cheddar"))).not.toBe(url);
  });
});
