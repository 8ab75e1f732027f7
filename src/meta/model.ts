// The builders as a namespace (see catalog/model.ts).
import * as Type from "@sinclair/typebox";
import { Integer } from "../platform/http/schema";

/** What `GET /v1/meta` answers: the service, its dataset and the limits in force. */
export const MetaResponse = Type.Object({
  service: Type.Object({ name: Type.String(), version: Type.String() }),
  apiVersion: Type.String({ description: "v1" }),
  dataset: Type.Object({
    name: Type.String(),
    release: Type.String(),
    importedAt: Type.Union([Type.String({ format: "date-time" }), Type.Null()]),
    counts: Type.Object({
      foods: Integer(),
      foodGroups: Integer(),
      nutrients: Integer(),
      nutrientValues: Integer(),
      portions: Integer(),
      footnotes: Integer(),
    }),
  }),
  limits: Type.Object({
    pageSize: Type.Object({ default: Integer(), max: Integer() }),
    trialToken: Type.Object({ lifetimeSeconds: Integer(), requests: Integer() }),
    freeTier: Type.Object({ requests: Integer(), windowSeconds: Integer() }),
  }),
  license: Type.String(),
  citation: Type.String(),
});

export type MetaResponse = typeof MetaResponse.static;
