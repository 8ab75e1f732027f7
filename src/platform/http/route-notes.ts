import type { DocumentDecoration } from "elysia";

/**
 * The vocabulary of what route schemas cannot say: which credential an operation takes, which errors it
 * answers with, examples, and which per-IP limit counts it. Each route declares its own notes beside its
 * handler (`operation()` for an Elysia route, a `DirectRouteSpec` for a direct one, route-table.ts); the
 * generated document (src/docs/openapi.ts) is decorated with them, and a route without notes is documented
 * without credentials or errors, which test/docs/openapi.test.ts refuses. Every number in a message or
 * description comes from the constant the server uses.
 */

/** `apiKeyOrTrial`: the data routes' credential guard. `optionalSession`: works without one too. */
type Credential = "none" | "apiKeyOrTrial" | "session" | "optionalSession";

/** A success response the route does not declare as a schema (204s, untyped handlers). */
interface ExtraResponse {
  description: string;
  schema?: Record<string, unknown>;
  example?: unknown;
  /** Other media types it may be answered in (a label's `image/svg+xml`), beside the JSON schema. */
  media?: Readonly<Record<string, { schema: Record<string, unknown> }>>;
}

export interface OperationNotes {
  credential: Credential;
  /** The names of its errors, each declared in a table of the catalogue (src/platform/http/error-catalog.ts). */
  errors: readonly string[];
  /**
   * The per-IP limit this route counts against, by the name the composition root gives it (`auth`,
   * `trial`: src/app/app.ts), per client IP and per route template. Absent: none.
   */
  ipLimit?: string;
  /** Examples for the declared success response, by status. */
  examples?: Readonly<Record<string, unknown>>;
  requestExample?: unknown;
  responses?: Readonly<Record<string, ExtraResponse>>;
  /** The response sets or clears the session cookie (always, or only when the call changed the caller's session). */
  setsCookie?: boolean | "whenChanged";
}

/** An operation's documentation: what Elysia's `detail` carries, and what schemas cannot say. */
export interface OperationDocs extends OperationNotes {
  summary: string;
  description?: string;
  tags: readonly string[];
}

// A symbol, so that Elysia and the generator carry it along (spread, merged) without showing it anywhere.
const NOTES = Symbol("foodapi.route-notes");

type NotedDetail = DocumentDecoration & { [NOTES]?: OperationNotes };

/** The `detail` of a documented route: summary, description and tags, with the notes attached. */
export function operation({ summary, description, tags, ...notes }: OperationDocs): DocumentDecoration {
  const detail: NotedDetail = { summary, tags: [...tags], ...(description === undefined ? {} : { description }) };
  detail[NOTES] = notes;
  return detail;
}

/** The notes `operation()` attached to a route's `detail`, if any. */
export function notesOf(detail: unknown): OperationNotes | undefined {
  return (detail as NotedDetail | undefined)?.[NOTES];
}

/** `detail` as the OpenAPI generator should see it: without the notes. */
export function withoutNotes(detail: DocumentDecoration | undefined): DocumentDecoration | undefined {
  if (notesOf(detail) === undefined) return detail;
  const { [NOTES]: _notes, ...rest } = detail as NotedDetail;
  return rest;
}
