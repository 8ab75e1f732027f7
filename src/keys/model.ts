import { t } from "elysia";
import { Integer, lenient } from "../platform/http/schema";
import { KEY_NAME_MAX_LENGTH } from "./service";

/** The rule is for the document; the route checks it itself, in its own words (see accounts/model.ts). */
export const CreateKeyBody = lenient(
  t.Object({ name: t.String({ minLength: 1, maxLength: KEY_NAME_MAX_LENGTH, description: `A label, 1 to ${KEY_NAME_MAX_LENGTH} characters after trimming.` }) }),
);

/**
 * A rename takes the create body: one rule for a key's name, under the name each route documents.
 * @alias
 */
export const RenameKeyBody = CreateKeyBody;

const keyFields = {
  id: t.String(),
  name: t.String(),
  keyPrefix: t.String({ description: "fnk_ and the next 8 characters, to recognise the key." }),
  tier: t.Literal("free"),
  createdAt: t.String({ format: "date-time" }),
};

export const IssuedKey = t.Object({ ...keyFields, key: t.String({ description: "The whole key. Shown only here, once." }) });
export const ListedKey = t.Object({ ...keyFields, lastUsedAt: t.Union([t.String({ format: "date-time" }), t.Null()]) });
export const KeyList = t.Object({ items: t.Array(ListedKey) });

export const KeyUsage = t.Object({
  items: t.Array(
    t.Object({
      hour: t.String({ format: "date-time", description: "The hour's start, UTC, e.g. 2026-11-22T13:00:00Z." }),
      allowed: Integer({ minimum: 0, description: "Requests admitted." }),
      refused: Integer({ minimum: 0, description: "Requests refused with 429 (past the rate limit)." }),
    }),
  ),
});

export type IssuedKey = typeof IssuedKey.static;
export type ListedKey = typeof ListedKey.static;
