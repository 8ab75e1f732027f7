import type { Server } from "bun";
import { clientIpOf, missingClientIpHeaderCheck } from "../../platform/http/client-ip";
import { errorDescription } from "../../platform/http/error-catalog";
import { errorResponse } from "../../platform/http/errors";
import { headReader, MAX_HEAD_BYTES } from "../../platform/http/head-limit";
import { requestFacts, requestUrl } from "../../platform/http/request-context";
import { withAbsoluteUrl } from "../../platform/http/request-url";
import { requestIdFor } from "./response-headers";

export interface AccessLogEntry {
  time: string;
  method: string;
  path: string;
  status: number;
  ms: number;
  ip: string;
  keyId: string | null;
  /** The proxy's well-formed X-Request-Id, else one made here; also in the answer's X-Request-Id. */
  requestId: string;
  /** The route template (with --log-level debug). */
  route?: string;
  authFailure?: string;
  /** Which worker process answered, when there are several. */
  worker?: number;
}

export interface HttpServerOptions {
  hostname: string;
  port: number;
  clientIpHeader: string | null;
  /** Warnings while serving (a proxy that does not set the client-IP header); undefined at --log-level error. */
  warn?: (message: string) => void;
  handle: (request: Request) => Promise<Response> | Response;
  /** The access log; undefined below --log-level info. */
  log: ((entry: AccessLogEntry) => void) | undefined;
  /** Counts the answered request (metrics); returns its route template. */
  observe?: (request: Request, status: number, ms: number) => string | undefined;
  /** Write the route template on each access-log line (--log-level debug). */
  logRoute?: boolean;
  /** Seconds a connection may send nothing (between requests, or mid-request) before it is closed. */
  idleTimeoutSeconds: number;
  /** Several processes listen on one port (SO_REUSEPORT); the kernel spreads connections over them. */
  reusePort?: boolean;
  worker?: number;
  /** Called once per answer, before its access-log line (young-collection.ts). */
  answered?: () => void;
}

/**
 * Bun.serve around the app: records the peer address for the client-IP rule, caps head and body sizes, and
 * writes one access-log line per request: path without its query, the key id but never a credential.
 */
/** Built once: a refusal that may come often (a client stuck sending a huge cookie). */
const HEADERS_TOO_LARGE = errorDescription("HEADERS_TOO_LARGE", []);

export function startHttpServer(options: HttpServerOptions): Server<undefined> {
  const checkClientIpHeader = options.warn ? missingClientIpHeaderCheck(options.clientIpHeader, options.warn) : undefined;
  const readHead = headReader(options.clientIpHeader);
  const server = Bun.serve({
    hostname: options.hostname,
    port: options.port,
    reusePort: options.reusePort ?? false,
    // Bun resets this timer on every chunk received: it closes connections that go quiet, not ones that
    // trickle (README "Slow clients" says what bounds those).
    idleTimeout: options.idleTimeoutSeconds,
    // No limit of Bun's own: it would answer a large declared length first, with an empty, unlogged 413.
    // The app answers oversized bodies with its JSON 413 from the declared length, and never reads more
    // than MAX_BODY_BYTES of a body without one.
    maxRequestBodySize: Number.MAX_SAFE_INTEGER,
    fetch(received, server) {
      const started = performance.now();
      const request = withAbsoluteUrl(received);
      // The peer address is asked of the request Bun handed in, only if the client-IP rule needs it
      // (request-context.ts), once.
      const facts = requestFacts(request);
      facts.peerLookup = server;
      facts.received = received;
      const head = readHead(received);
      facts.clientIpHeaderValue = head.clientIp;
      facts.peerNeeded = options.log !== undefined && head.clientIp === null;
      facts.head = head.values;
      // Known before the app answers, so that an answer can be built with it (cached-response.ts).
      facts.requestId = requestIdFor(head.values["x-request-id"]);
      checkClientIpHeader?.(head);
      const response = head.bytes > MAX_HEAD_BYTES ? errorResponse(HEADERS_TOO_LARGE) : options.handle(request);
      // Most answers are synchronous; awaiting them anyway would cost a promise per request.
      return response instanceof Promise ? response.then((r) => finished(request, r, started)) : finished(request, response, started);
    },
    error() {
      return errorResponse(errorDescription("INTERNAL_ERROR", []));
    },
  });
  return server;

  /** Every answer passes here once: its request id, its count in the metrics, its access-log line. */
  function finished(request: Request, response: Response, started: number): Response {
    const ms = performance.now() - started;
    const facts = requestFacts(request);
    const requestId = facts.requestId!;
    if (!facts.requestIdSent) response.headers.set("x-request-id", requestId);
    const route = options.observe?.(request, response.status, ms);
    options.answered?.();
    if (options.log === undefined) return response;
    const entry: AccessLogEntry = {
      time: isoNow(),
      method: request.method,
      // Without its query, which may hold user text.
      path: requestUrl(request, facts).rawPath,
      status: response.status,
      ms: Math.round(ms * 100) / 100,
      ip: clientIpOf(request, options.clientIpHeader),
      keyId: facts.principalId ?? null,
      requestId,
    };
    if (facts.authFailure) entry.authFailure = facts.authFailure;
    if (options.worker !== undefined) entry.worker = options.worker;
    if (options.logRoute && route !== undefined) entry.route = route;
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
