import { isIP } from "../ip-address";
import { peerAddressOf, type RequestFacts, requestFacts } from "./request-context";

/**
 * The one client-IP rule: the edge proxy's header when configured and parsable, else the TCP peer.
 * IPv6 addresses are reduced to their /64, the block one subscriber usually controls, so that a
 * client cannot dodge per-IP limits by walking its own prefix.
 */
function clientIp(headerValue: string | null | undefined, facts: RequestFacts): string {
  return parseIp(headerValue?.trim()) ?? parseIp(peerAddressOf(facts)) ?? "unknown";
}

/**
 * The client IP of a request the server has seen (its peer address is in the request facts, and the
 * header's value too when the server read it: `header` is the same setting).
 */
export function clientIpOf(request: Request, header: string | null): string {
  const facts = requestFacts(request);
  if (header === null) return clientIp(undefined, facts);
  return clientIp(facts.clientIpHeaderValue === undefined ? request.headers.get(header) : facts.clientIpHeaderValue, facts);
}

const parsedIps = new Map<string, string | undefined>();
const PARSED_IPS_MAX = 10_000;
/** Longer than any IP address in text (45 characters for IPv6 with an IPv4 tail): not one, and not memoised. */
const IP_TEXT_MAX = 64;

/** Parsing is memoised (the same few addresses arrive again and again); the memo holds short keys only. */
function parseIp(raw: string | undefined | null): string | undefined {
  if (!raw || raw.length > IP_TEXT_MAX) return undefined;
  const known = parsedIps.get(raw);
  if (known !== undefined || parsedIps.has(raw)) return known;
  if (parsedIps.size >= PARSED_IPS_MAX) parsedIps.clear();
  const parsed = parseIpUncached(raw);
  parsedIps.set(raw, parsed);
  return parsed;
}

function parseIpUncached(raw: string): string | undefined {
  const mapped = raw.toLowerCase().replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/, "$1");
  const family = isIP(mapped);
  if (family === 4) return mapped;
  if (family === 6) return `${ipv6Prefix64(mapped)}::/64`;
  return undefined;
}

function ipv6Prefix64(address: string): string {
  const [head = "", tail = ""] = address.split("::");
  const headGroups = head ? head.split(":") : [];
  const tailGroups = tail ? tail.split(":") : [];
  const groups = address.includes("::")
    ? [...headGroups, ...Array(8 - headGroups.length - tailGroups.length).fill("0"), ...tailGroups]
    : headGroups;
  return groups.slice(0, 4).map((g) => parseInt(g, 16).toString(16)).join(":");
}

/**
 * A check for each request that warns once per process when a proxy in front does not set the client-IP
 * header: every client behind it then counts as the proxy's own address, and shares its per-IP limits.
 * Given what the server read of the head (head-limit.ts): the configured header's value and the forwarding
 * header a proxy sets (`X-Forwarded-For`, `X-Real-IP`), if any. The line names the setting and the header
 * seen, never its value (a client's address).
 */
export function missingClientIpHeaderCheck(
  header: string | null,
  warn: (message: string) => void,
): (head: { readonly clientIp: string | null; readonly forwarded: string | undefined }) => void {
  let warned = header === null;
  return ({ clientIp, forwarded: seen }) => {
    if (warned || clientIp !== null || seen === undefined) return;
    warned = true;
    warn(
      `a request came through a proxy (it carries ${seen}) without the '${header}' header that client IPs are read from, so every ` +
        `client behind that proxy counts as the proxy's address and shares its per-IP limits: have the proxy set '${header}' to the ` +
        `connecting address (deploy/nginx.conf, deploy/Caddyfile) or set --client-ip-header (FOODAPI_CLIENT_IP_HEADER) to the header it sets. ` +
        `Warned once per process.`,
    );
  };
}
