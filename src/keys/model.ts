import { t } from "elysia";

export const CreateKeyBody = t.Object({ name: t.String({ description: "A label, 1 to 64 characters." }) });

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

export type IssuedKey = typeof IssuedKey.static;
export type ListedKey = typeof ListedKey.static;
