import { apiError } from "./error-catalog";
import { MAX_BODY_BYTES } from "./body-limit";
import { ApiError } from "./errors";
import { headerOf } from "./request-context";

/**
 * Reads a request body as text, refusing it as soon as it passes `max` bytes, so that a body without a
 * content-length (chunked) is never buffered beyond the limit.
 */
async function readBodyText(request: Request, max: number): Promise<string> {
  if (!request.body) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of request.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > max) throw apiError("PAYLOAD_TOO_LARGE");
    chunks.push(chunk);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}

/**
 * A declared length over the limit is refused before anything else, on every route (body-less ones too,
 * as the OpenAPI document says): one rule for the shell and the direct routes.
 */
export function declaresTooLargeBody(request: Request): boolean {
  const declared = headerOf(request, "content-length");
  return declared !== null && Number(declared) > MAX_BODY_BYTES;
}

/**
 * The one body parser of the API: size-checked (a declared length, and bodies without one as they are
 * read), JSON when declared as JSON, else the text, which the route's checks then refuse. The Elysia shell
 * parses with it, and so do the data routes with a body, which read their body themselves once the
 * credential is checked (credential-guard.ts `guardedBody`).
 */
export async function readJsonBody(request: Request): Promise<unknown> {
  if (declaresTooLargeBody(request)) throw apiError("PAYLOAD_TOO_LARGE");
  let text: string;
  try {
    text = await readBodyText(request, MAX_BODY_BYTES);
  } catch (error) {
    // A body cut short (the client went away mid-body) is no JSON either: a 400, not a bug to log.
    if (error instanceof ApiError) throw error;
    throw apiError("INVALID_JSON");
  }
  if (!request.headers.get("content-type")?.toLowerCase().startsWith("application/json")) return text;
  try {
    return JSON.parse(text);
  } catch {
    throw apiError("INVALID_JSON");
  }
}
