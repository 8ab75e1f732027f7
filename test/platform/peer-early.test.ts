import { expect, test } from "bun:test";
import { cachedJsonResponse } from "../../src/platform/http/cached-response";
import { peerAddressOf, requestFacts } from "../../src/platform/http/request-context";

// The server asks the TCP peer's address once per request, and only when something will use it (the access
// log, without a client-IP header): an answer asks it next to its body's read, and the log line then finds
// it asked. Each ask is a system call (Bun's requestIP), so neither a second one nor one nobody needs.

function served(peerNeeded: boolean) {
  const request = new Request("http://127.0.0.1:3000/v1/foods/01009");
  const asked: string[] = [];
  const facts = requestFacts(request);
  facts.received = request;
  facts.peerNeeded = peerNeeded;
  facts.peerLookup = { requestIP: () => (asked.push("peer"), { address: "127.0.0.9" }) };
  const response = cachedJsonResponse(request, '{"foodNumber":"01009"}', {});
  return { response, asked, facts };
}

test("an answer asks the peer's address while it is made, once, when the log will need it", () => {
  const { response, asked, facts } = served(true);
  expect([response.status, asked]).toEqual([200, ["peer"]]);
  expect(peerAddressOf(facts)).toBe("127.0.0.9");
  expect(asked).toEqual(["peer"]);
});

test("an answer does not ask the peer's address when nothing will use it", () => {
  const { response, asked } = served(false);
  expect([response.status, asked]).toEqual([200, []]);
});
