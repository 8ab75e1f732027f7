import type { Server } from "bun";
import { clientIp } from "./client-ip";
import { ApiError, errorResponse } from "./errors";
import { requestFacts } from "./request-context";

export const MAX_BODY_BYTES = 16 * 1024;

export interface AccessLogEntry {
  time: string;
  method: string;
  path: string;
  status: number;
  ms: number;
  ip: string;
  keyId: string | null;
  authFailure?: string;
}

export interface HttpServerOptions {
  hostname: string;
  port: number;
  clientIpHeader: string | null;
  handle: (request: Request) => Promise<Response> | Response;
  log: (entry: AccessLogEntry) => void;
}

/**
 * Bun.serve around the app: records the peer address for the client-IP rule, refuses oversized bodies
 * before they are read, and writes one access-log line per request: path without its query, the key
 * id but never a credential.
 */
export function startHttpServer(options: HttpServerOptions): Server<undefined> {
  return Bun.serve({
    hostname: options.hostname,
    port: options.port,
    // Bun's own backstop for bodies without a content-length; the check below answers in JSON first.
    maxRequestBodySize: MAX_BODY_BYTES,
    async fetch(request, server) {
      const started = performance.now();
      const facts = requestFacts(request);
      facts.peerAddress = server.requestIP(request)?.address;
      const response = await respond(request, options);
      const url = new URL(request.url);
      options.log({
        time: new Date().toISOString(),
        method: request.method,
        path: url.pathname,
        status: response.status,
        ms: Math.round((performance.now() - started) * 100) / 100,
        ip: clientIp(request.headers, facts.peerAddress, options.clientIpHeader),
        keyId: facts.principalId ?? null,
        ...(facts.authFailure ? { authFailure: facts.authFailure } : {}),
      });
      return response;
    },
    error() {
      return errorResponse(new ApiError(500, "INTERNAL_ERROR", "Something went wrong on our side."));
    },
  });
}

async function respond(request: Request, options: HttpServerOptions): Promise<Response> {
  const length = Number(request.headers.get("content-length") ?? 0);
  if (length > MAX_BODY_BYTES) {
    return errorResponse(new ApiError(413, "PAYLOAD_TOO_LARGE", `Request bodies are limited to ${MAX_BODY_BYTES} bytes.`));
  }
  return options.handle(request);
}
