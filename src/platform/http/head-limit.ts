/**
 * A request's head (request line and headers) is at most 16 KiB, as Bun's parser allows by default, and a
 * larger one gets the API's JSON 431. Bun's own limit is raised to 64 KiB in the compiled binary (build.sh,
 * `--compile-exec-argv`), so that heads between the two reach the app and are refused here in the JSON
 * shape; past 64 KiB Bun's parser still answers a bodiless 431 and closes the connection, which bounds the
 * memory one connection can make the server hold while it sends a head.
 */
export const MAX_HEAD_BYTES = 16 * 1024;
export const RUNTIME_MAX_HEAD_BYTES = 64 * 1024;

/** What the server reads of a request's head, in its one pass over the headers. */
export interface Head {
  /**
   * The head's size as sent, near enough: the target (Bun's absolute URL, a few bytes longer than the
   * request line's) and each header line. Header values are byte strings, so a length is a byte count.
   */
  bytes: number;
  /** The configured client-IP header's value; null when absent or when none is configured. */
  clientIp: string | null;
  /** The X-Request-Id a proxy in front set, as sent (not yet checked); null when absent. */
  requestId: string | null;
  /** A forwarding header a proxy sets (`X-Forwarded-For`, `X-Real-IP`, as named here), when one is present. */
  forwarded: string | undefined;
}

/**
 * Reads the head once for everything the server needs of it, given the client-IP header configured (lower
 * case, or null). Each question asked of a request's Headers is a call into the runtime, costlier than the
 * string comparisons of the pass it already makes to size the head. The answer is the reader's own object,
 * overwritten by the next request: read it before handling another.
 */
export function headReader(clientIpHeader: string | null): (request: Request) => Readonly<Head> {
  const head: Head = { bytes: 0, clientIp: null, requestId: null, forwarded: undefined };
  // One callback for every request (forEach, not an iterator: no [name, value] array per header).
  const visit = (value: string, name: string) => {
    head.bytes += name.length + value.length + 4;
    if (name === clientIpHeader) head.clientIp = value;
    if (name === "x-request-id") head.requestId = value;
    // Both present: X-Forwarded-For is the one named, whichever comes first.
    else if (name === "x-forwarded-for") head.forwarded = "X-Forwarded-For";
    else if (name === "x-real-ip") head.forwarded ??= "X-Real-IP";
  };
  return (request) => {
    head.bytes = request.url.length;
    head.clientIp = null;
    head.requestId = null;
    head.forwarded = undefined;
    request.headers.forEach(visit);
    return head;
  };
}
