import { apiError } from "./error-catalog";

/** Every request body is at most 16 KiB: nothing this API accepts needs more. */
export const MAX_BODY_BYTES = 16 * 1024;

/**
 * Reads a request body as text, refusing it as soon as it passes `max` bytes, so that a body without a
 * content-length (chunked) is never buffered beyond the limit.
 */
export async function readBodyText(request: Request, max: number): Promise<string> {
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
  const declared = request.headers.get("content-length");
  return declared !== null && Number(declared) > MAX_BODY_BYTES;
}
