import { connect } from "node:net";

export interface RawResponse {
  status: number;
  headers: Map<string, string>;
  body: string;
  /** The whole answer as received ("" when the server closed the connection without one). */
  raw: string;
}

/**
 * Sends bytes as they are to a server on loopback and reads the answer until the server closes the
 * connection or `timeoutMs` passes: for requests no HTTP client would send (no Host, odd methods, huge
 * declared bodies). Ask for `Connection: close` in `text` to get the answer without waiting.
 * `localAddress`: the source address, e.g. 127.0.0.2 (Linux routes all of 127.0.0.0/8 to loopback), so
 * that one machine can be several clients to a server that counts by client IP.
 */
export function rawHttp(url: string, text: string | Uint8Array, timeoutMs = 3000, localAddress?: string): Promise<RawResponse> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port), ...(localAddress ? { localAddress } : {}) });
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => socket.destroy(), timeoutMs);
    socket.on("connect", () => socket.write(text));
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("error", (error) => {
      if ((error as NodeJS.ErrnoException).code !== "ECONNRESET") reject(error);
    });
    socket.on("close", () => {
      clearTimeout(timer);
      resolve(parseResponse(Buffer.concat(chunks).toString("latin1")));
    });
  });
}

function parseResponse(raw: string): RawResponse {
  const end = raw.indexOf("\r\n\r\n");
  const head = end === -1 ? raw : raw.slice(0, end);
  const [statusLine = "", ...lines] = head.split("\r\n");
  const headers = new Map<string, string>();
  for (const line of lines) {
    const colon = line.indexOf(":");
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0), headers, body: end === -1 ? "" : raw.slice(end + 4), raw };
}
