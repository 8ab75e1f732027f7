import { Elysia, ValidationError } from "elysia";
import { ApiError, errorResponse, JSON_CONTENT_TYPE, notFound, validationError } from "./errors";

/**
 * The Elysia app shell: the one place errors become `{code, message}` responses and JSON gets its
 * charset. Capabilities are mounted on it with `.use()` by the composition root.
 */
export function createAppShell(options: { logError: (error: unknown) => void }) {
  return new Elysia({ name: "foodapi-shell" })
    .onAfterHandle({ as: "global" }, ({ response, set }) => {
      if (!(response instanceof Response) && typeof response === "object" && response !== null) {
        set.headers["content-type"] = JSON_CONTENT_TYPE;
      }
    })
    .onError({ as: "global" }, ({ code, error }) => {
      if (error instanceof ApiError) return errorResponse(error);
      switch (code) {
        case "NOT_FOUND":
          return errorResponse(notFound());
        case "PARSE":
          return errorResponse(new ApiError(400, "INVALID_JSON", "The request body is not valid JSON."));
        case "VALIDATION":
          if (error.type !== "response") return errorResponse(describeValidation(error));
          break;
      }
      options.logError(error);
      return errorResponse(new ApiError(500, "INTERNAL_ERROR", "Something went wrong on our side."));
    });
}

/** Names the offending field: `email: Expected string`. */
function describeValidation(error: Readonly<ValidationError>): ApiError {
  const first = error.valueError;
  const path = first?.path?.replace(/^\//, "").replaceAll("/", ".") || error.type;
  return validationError(path, first?.message ?? "is invalid");
}
