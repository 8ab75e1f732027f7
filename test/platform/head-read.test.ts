import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { connect } from "node:net";
import { type HeadValues, headReader, type ReadHeader } from "../../src/platform/http/head-limit";

/**
 * The server's one pass over a request's head (src/platform/http/head-limit.ts): what the hot paths then
 * read by name (request-context.ts `headerOf`) must be what the request's Headers would have answered,
 * for heads as clients really send them: names in any case, a header repeated, values padded. Sent as raw
 * bytes to a real Bun server on loopback, so that Bun's parser, not a client library, makes the Headers.
 */
const READ: readonly ReadHeader[] = ["x-api-key", "authorization", "accept-encoding", "if-none-match", "content-length", "x-request-id"];

interface Seen {
  read: { bytes: number; clientIp: string | null; forwarded: string | undefined; values: HeadValues };
  asked: Record<string, string | null>;
  bytes: number;
}

let server: ReturnType<typeof Bun.serve>;
beforeAll(() => {
  const read = headReader("x-client-ip");
  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(request) {
      const head = read(request);
      // Copied before anything else reads a head: the reader's answer is for this request only.
      const seen: Seen = {
        read: { ...head, values: { ...head.values } },
        asked: Object.fromEntries([...READ, "x-client-ip"].map((name) => [name, request.headers.get(name)])),
        bytes: request.url.length + [...request.headers].reduce((sum, [name, value]) => sum + name.length + value.length + 4, 0),
      };
      return Response.json(seen);
    },
  });
});
afterAll(() => server.stop(true));

/** One request written as raw lines (bounded: 5 s), its JSON answer. */
function send(lines: string[], body = ""): Promise<Seen> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.port!, "127.0.0.1");
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error("no answer within 5 s"));
    }, 5000);
    let received = "";
    socket.on("data", (chunk) => {
      received += chunk.toString("latin1");
      const split = received.indexOf("\r\n\r\n");
      const length = /content-length: *(\d+)/i.exec(received)?.[1];
      if (split !== -1 && length !== undefined && received.length >= split + 4 + Number(length)) {
        clearTimeout(timer);
        socket.destroy();
        resolve(JSON.parse(received.slice(split + 4, split + 4 + Number(length))) as Seen);
      }
    });
    socket.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    socket.write(`${["GET /v1/foods?q=x HTTP/1.1", "Host: 127.0.0.1", ...lines].join("\r\n")}\r\n\r\n${body}`);
  });
}

describe("the server's one read of the head", () => {
  test("gives each header the hot paths read as the request's Headers would: any case, repeated ones joined, values trimmed", async () => {
    const seen = await send([
      "X-API-KEY:   fnk_padded   ",
      "Accept-Encoding: gzip",
      "accept-encoding: br;q=0.5",
      'If-None-Match: "a"',
      'IF-NONE-MATCH: W/"b"',
      "Authorization: Bearer t",
      "X-Request-Id: edge-1",
      "Content-Length: 2",
      "X-Client-IP: 198.51.100.7",
    ], "{}");
    for (const name of READ) expect([name, seen.read.values[name]]).toEqual([name, seen.asked[name]!]);
    expect(seen.read.values["accept-encoding"]).toBe("gzip, br;q=0.5");
    expect(seen.read.values["x-api-key"]).toBe("fnk_padded");
    expect(seen.read.clientIp).toBe(seen.asked["x-client-ip"]!);
    expect(seen.read.bytes).toBe(seen.bytes);
  });

  test("counts each Set-Cookie line of the head, which the Headers keep apart", async () => {
    const seen = await send(["Set-Cookie: a=1", "X-API-Key: fnk_x", "set-cookie: b=22"]);
    expect(seen.read.bytes).toBe(seen.bytes);
    expect(seen.read.values["x-api-key"]).toBe("fnk_x");
  });

  test("a header not sent is null, as the Headers answer it", async () => {
    const seen = await send(["X-Other: 1"]);
    for (const name of READ) expect([name, seen.read.values[name]]).toEqual([name, null]);
    expect(seen.read.clientIp).toBeNull();
    expect(seen.read.forwarded).toBeUndefined();
  });

  test("names the forwarding header a proxy sent, X-Forwarded-For when it sent both, whatever their order", async () => {
    expect((await send(["X-Real-IP: 203.0.113.9"])).read.forwarded).toBe("X-Real-IP");
    expect((await send(["X-Forwarded-For: 203.0.113.9"])).read.forwarded).toBe("X-Forwarded-For");
    expect((await send(["X-Real-IP: 203.0.113.9", "X-Forwarded-For: 203.0.113.9"])).read.forwarded).toBe("X-Forwarded-For");
    expect((await send(["X-Forwarded-For: 203.0.113.9", "X-Real-IP: 203.0.113.9"])).read.forwarded).toBe("X-Forwarded-For");
  });
});
