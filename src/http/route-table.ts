import type { DocumentDecoration } from "elysia";
import type { OperationNotes } from "../docs/operations";

/**
 * Where a route is declared once: its path, handler and schemas, and its documentation, so that what is
 * served and what the OpenAPI document says cannot drift apart. An Elysia route gets its documentation from
 * `operation()` as its `detail`.
 */

/** An operation's documentation: what Elysia's `detail` carries, and what schemas cannot say. */
export interface OperationDocs extends OperationNotes {
  summary: string;
  description?: string;
  tags: readonly string[];
}

/** What the document builder reads of a route, beside its schemas. */
export type RouteNotes = OperationNotes;

// A symbol, so that Elysia and the generator carry it along (spread, merged) without showing it anywhere.
const NOTES = Symbol("foodapi.route-notes");

type NotedDetail = DocumentDecoration & { [NOTES]?: RouteNotes };

/** The `detail` of a documented Elysia route: summary, description and tags, with the notes attached. */
export function operation({ summary, description, tags, ...notes }: OperationDocs): DocumentDecoration {
  const detail: NotedDetail = { summary, tags: [...tags], ...(description === undefined ? {} : { description }) };
  detail[NOTES] = notes;
  return detail;
}

/** The notes `operation()` attached to a route's `detail`, if any. */
export function notesOf(detail: unknown): RouteNotes | undefined {
  return (detail as NotedDetail | undefined)?.[NOTES];
}

/** `detail` as the OpenAPI generator should see it: without the notes. */
export function withoutNotes(detail: DocumentDecoration | undefined): DocumentDecoration | undefined {
  if (notesOf(detail) === undefined) return detail;
  const { [NOTES]: _notes, ...rest } = detail as NotedDetail;
  return rest;
}
