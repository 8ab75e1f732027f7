import { t } from "elysia";
import { Integer } from "../platform/http/schema";

/** What `GET /v1/meta` answers: the service, its dataset and the limits in force. */
export const MetaResponse = t.Object({
  service: t.Object({ name: t.String(), version: t.String() }),
  apiVersion: t.String({ description: "v1" }),
  dataset: t.Object({
    name: t.String(),
    release: t.String(),
    importedAt: t.Union([t.String({ format: "date-time" }), t.Null()]),
    counts: t.Object({
      foods: Integer(),
      foodGroups: Integer(),
      nutrients: Integer(),
      nutrientValues: Integer(),
      portions: Integer(),
      footnotes: Integer(),
    }),
  }),
  limits: t.Object({
    pageSize: t.Object({ default: Integer(), max: Integer() }),
    trialToken: t.Object({ lifetimeSeconds: Integer(), requests: Integer() }),
    freeTier: t.Object({ requests: Integer(), windowSeconds: Integer() }),
  }),
  license: t.String(),
  citation: t.String(),
});

export type MetaResponse = typeof MetaResponse.static;
