import type { Server } from "bun";
import { clientIpOf } from "./client-ip";
import { splitUrl, withAbsoluteUrl } from "./direct-routes";
import { errorDescription } from "./error-catalog";
import { errorResponse } from "./errors";
import { requestFacts } from "./request-context";

export interface AccessLogEntry {
  time: string;
  method: string;
  path: string;
  status: number;
  ms: number;
  ip: string;
  keyId: string | null;
  authFailure?: string;
  /** Which worker process answered, when there are several. */
  worker?: number;
}

export interface HttpServerOptions {
  hostname: string;
  port: number;
  clientIpHeader: string | null;
  handle: (request: Request) => Promise<Response> | Response;
  log: (entry: AccessLogEntry) => void;
  /** Several processes listen on one port (SO_REUSEPORT); the kernel spreads connections over them. */
  reusePort?: boolean;
  worker?: number;
}

/**
 * Bun.serve around the app: records the peer address for the client-IP rule, caps body sizes, and writes one access-log line per request: path without its query, the key
 * id but never a credential.
 */
export function startHttpServer(options: HttpServerOptions): Server<undefined> {
  const server = Bun.serve({
    hostname: options.hostname,
    port: options.port,
    reusePort: options.reusePort ?? false,
    // No limit of Bun's own: it would answer a large declared length first, with an empty, unlogged 413.
    // The app answers oversized bodies with its JSON 413 from the declared length, and never reads more
    // than MAX_BODY_BYTES of a body without one.
    maxRequestBodySize: Number.MAX_SAFE_INTEGER,
    fetch(received, server) {
      const started = performance.now();
      const request = withAbsoluteUrl(received);
      // The peer address is asked of the request Bun handed in: a copy is unknown to the server.
      requestFacts(request).peerAddress = server.requestIP(received)?.address;
      const response = options.handle(request);
      // Most answers are synchronous; awaiting them anyway would cost a promise per request.
      return response instanceof Promise ? response.then((r) => logged(request, r, started)) : logged(request, response, started);
    },
    error() {
      return errorResponse(errorDescription("INTERNAL_ERROR", []));
    },
  });
  return server;

  function logged(request: Request, response: Response, started: number): Response {
    const facts = requestFacts(request);
    const entry: AccessLogEntry = {
      time: isoNow(),
      method: request.method,
      // Without its query, which may hold user text.
      path: splitUrl(request.url).path,
      status: response.status,
      ms: Math.round((performance.now() - started) * 100) / 100,
      ip: clientIpOf(request, options.clientIpHeader),
      keyId: facts.principalId ?? null,
    };
    if (facts.authFailure) entry.authFailure = facts.authFailure;
    if (options.worker !== undefined) entry.worker = options.worker;
    options.log(entry);
    return response;
  }
}

let lastMs = 0;
let lastIso = "";
/** The log's timestamp, formatted at most once per millisecond. */
function isoNow(): string {
  const now = Date.now();
  if (now !== lastMs) {
    lastMs = now;
    lastIso = new Date(now).toISOString();
  }
  return lastIso;
}
