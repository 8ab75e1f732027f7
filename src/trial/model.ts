import { t } from "elysia";
import { Integer } from "../platform/http/schema";

/**
 * An ALTCHA v2 challenge as altcha-lib's `createChallenge` makes it (its `Challenge` type). The signature
 * covers `parameters`, so fields a later altcha-lib adds must pass through: additional properties allowed.
 */
export const TrialChallenge = t.Object(
  {
    parameters: t.Object(
      {
        algorithm: t.String({ description: "PBKDF2/SHA-256" }),
        cost: Integer({ minimum: 1, description: "Iterations of the key derivation." }),
        nonce: t.String(),
        salt: t.String(),
        keyPrefix: t.String({ description: "The hex prefix a solution's derived key must start with." }),
        keyLength: Integer({ minimum: 1 }),
        expiresAt: Integer({ description: "Seconds since the epoch." }),
        keySignature: t.Optional(t.String()),
        memoryCost: t.Optional(Integer()),
        parallelism: t.Optional(Integer()),
        data: t.Optional(t.Record(t.String(), t.Union([t.String(), t.Number(), t.Boolean(), t.Null()]))),
      },
      { additionalProperties: true },
    ),
    signature: t.String({ description: "HMAC of the parameters by the server." }),
  },
  { additionalProperties: true },
);
