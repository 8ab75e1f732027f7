import type { ErrorEntry, ErrorTable } from "../platform/http/error-catalog";

/** Every error as the document shows it, `[status, example message, wire code]`, by name. */
export type ErrorRows<N extends string = string> = Readonly<Record<N, readonly [number, string, string]>>;

/** The rows of a table of errors (the composition root's, src/app/error-catalog.ts): each entry's example message. */
export function errorRows<T extends ErrorTable>(table: T): ErrorRows<keyof T & string> {
  return Object.fromEntries(
    Object.entries(table).map(([name, entry]) => {
      const known = entry as ErrorEntry<unknown[]>;
      return [name, [known.status, known.message(...known.example), known.code ?? name] as const];
    }),
  ) as ErrorRows<keyof T & string>;
}

/**
 * Errors of the shell (src/app/http/shell.ts), for every operation whatever its route says: a declared
 * content-length over the limit is refused before routing, body or not; a body is parsed as JSON when
 * declared so, on every method that is not GET or HEAD.
 */
export function shellErrors(method: string): string[] {
  const bodyParsed = method !== "get" && method !== "head";
  return bodyParsed ? ["INVALID_JSON", "PAYLOAD_TOO_LARGE"] : ["PAYLOAD_TOO_LARGE"];
}
