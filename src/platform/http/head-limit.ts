/**
 * A request's head (request line and headers) is at most 16 KiB, as Bun's parser allows by default, and a
 * larger one gets the API's JSON 431. Bun's own limit is raised to 64 KiB in the compiled binary (build.sh,
 * `--compile-exec-argv`), so that heads between the two reach the app and are refused here in the JSON
 * shape; past 64 KiB Bun's parser still answers a bodiless 431 and closes the connection, which bounds the
 * memory one connection can make the server hold while it sends a head.
 */
export const MAX_HEAD_BYTES = 16 * 1024;
export const RUNTIME_MAX_HEAD_BYTES = 64 * 1024;

/**
 * The request headers the app reads on its hot paths (the data routes' credential, content coding and
 * conditional, the declared body length, the proxy's request id): read in the server's one pass over the
 * head, and then by name from the request's facts (request-context.ts `headerOf`).
 */
export type ReadHeader = "x-api-key" | "authorization" | "accept-encoding" | "if-none-match" | "content-length" | "x-request-id";

/** Each header of `ReadHeader` as the request's Headers would give it (values of a repeated one joined), or null. */
export type HeadValues = Record<ReadHeader, string | null>;

/** What the server reads of a request's head, in its one pass over the headers. */
export interface Head {
  /**
   * The head's size as sent, near enough: the target (Bun's absolute URL, a few bytes longer than the
   * request line's) and each header line. Header values are byte strings, so a length is a byte count.
   */
  bytes: number;
  /** The configured client-IP header's value; null when absent or when none is configured. */
  clientIp: string | null;
  /** A forwarding header a proxy sets (`X-Forwarded-For`, `X-Real-IP`, as named here), when one is present. */
  forwarded: string | undefined;
  values: HeadValues;
}

/**
 * Reads the head once for everything the server and the hot paths need of it, given the client-IP header
 * configured (lower case, or null). Each question asked of a request's Headers is a call into the runtime,
 * costlier than the string comparisons of the pass the server makes anyway to size the head.
 */
/** Bun's Headers (bun-types says so; the DOM's, which the dashboard's browser code checks this file with, do not). */
type BunHeaders = { toJSON(): Record<string, string | string[]> };

export function headReader(clientIpHeader: string | null): (request: Request) => Head {
  // The Headers as one plain object (Bun's `toJSON`, made natively) rather than `forEach`, whose call back
  // into JavaScript per header cost more than the whole pass (docs/performance.md). Its values are the
  // Headers' own (a repeated header joined, as `get` gives it); `set-cookie` alone comes as a list.
  return (request) => {
    const values: HeadValues = { "x-api-key": null, authorization: null, "accept-encoding": null, "if-none-match": null, "content-length": null, "x-request-id": null };
    const head: Head = { bytes: request.url.length, clientIp: null, forwarded: undefined, values };
    const all = (request.headers as unknown as BunHeaders).toJSON();
    const names = Object.keys(all);
    for (let i = 0; i < names.length; i++) {
      const sent = names[i]!;
      const value = all[sent]!;
      // Bun gives every name in lower case, but documents that a rare name may keep its case.
      const name = sent.toLowerCase();
      if (typeof value !== "string") {
        for (const line of value) head.bytes += name.length + line.length + 4;
        continue;
      }
      head.bytes += name.length + value.length + 4;
      if (name === clientIpHeader) head.clientIp = value;
      switch (name) {
        case "x-api-key":
        case "authorization":
        case "accept-encoding":
        case "if-none-match":
        case "content-length":
        case "x-request-id":
          values[name] = value;
          break;
        // Both present: X-Forwarded-For is the one named, whichever comes first.
        case "x-forwarded-for":
          head.forwarded = "X-Forwarded-For";
          break;
        case "x-real-ip":
          head.forwarded ??= "X-Real-IP";
          break;
      }
    }
    return head;
  };
}
