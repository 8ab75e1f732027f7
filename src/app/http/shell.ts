import { Elysia, ValidationError } from "elysia";
import { declaresTooLargeBody, readJsonBody } from "../../platform/http/body";
import { apiError } from "../../platform/http/error-catalog";
import type { ErrorMapper } from "../../platform/http/error-mapping";
import { ApiError, errorResponse, JSON_CONTENT_TYPE, SECURITY_HEADERS } from "../../platform/http/errors";
import { requestFacts } from "../../platform/http/request-context";


/**
 * The Elysia app shell: the one place errors become `{code, message}` responses and JSON gets its
 * charset. Capabilities are mounted on it with `.use()` by the composition root.
 */
export function createAppShell(options: { toApiError: ErrorMapper }) {
  // `standardHostname: false`: Elysia would otherwise take the path from a fixed offset, assuming a Host
  // of at least four characters; with `Host: x` a request for `/anything/api/...` was routed to `/api/...`.
  return new Elysia({ name: "foodapi-shell", handler: { standardHostname: false } })
    .headers({ ...SECURITY_HEADERS })
    .onRequest(({ request }) => {
      // A declared length over the limit is refused before the body is read.
      if (declaresTooLargeBody(request)) {
        return errorResponse(apiError("PAYLOAD_TOO_LARGE"));
      }
    })
    // One body parser for the whole API (body.ts).
    .onParse({ as: "global" }, ({ request }) => readJsonBody(request))
    .onAfterHandle({ as: "global" }, ({ response, set }) => {
      if (!(response instanceof Response) && typeof response === "object" && response !== null) {
        set.headers["content-type"] = JSON_CONTENT_TYPE;
      }
    })
    .onError({ as: "global" }, ({ code, error, set, request }) => {
      if (error instanceof ApiError) {
        requestFacts(request).errorCode = error.code;
        return errorResponse(error, set.headers);
      }
      // Elysia wraps what the body parser throws; a 413 or INVALID_JSON from it arrives as the cause.
      if (code === "PARSE" && error.cause instanceof ApiError) return errorResponse(error.cause);
      switch (code) {
        case "NOT_FOUND":
          return errorResponse(apiError("NOT_FOUND"));
        case "PARSE":
          return errorResponse(apiError("INVALID_JSON"));
        case "VALIDATION":
          // A path parameter that is not valid percent-encoding reaches Elysia as null: it names nothing,
          // as the direct routes answer it, rather than a field to correct.
          if (error.type === "params") return errorResponse(apiError("NOT_FOUND"));
          if (error.type !== "response") return errorResponse(describeValidation(error));
          break;
      }
      return errorResponse(options.toApiError(error));
    });
}

/** Names the offending field: `email: Expected string`. */
function describeValidation(error: Readonly<ValidationError>): ApiError {
  const first = error.valueError;
  const path = first?.path?.replace(/^\//, "").replaceAll("/", ".") || error.type;
  return apiError("VALIDATION_ERROR", path, first?.message ?? "is invalid");
}
