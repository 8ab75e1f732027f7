import { type StorageFault, storageFault } from "../storage/storage-fault";
import { apiError } from "./error-catalog";
import { ApiError } from "./errors";

/** What any error thrown while answering a request becomes for the client. */
export type ErrorMapper = (error: unknown) => ApiError;

/**
 * The one mapping from a thrown error to the response, used by the Elysia shell's onError and by the
 * direct routes' catch alike, so a route never decides it: an `ApiError` as it is; a storage fault (disk
 * full, I/O error, read-only, locked past the timeout: src/platform/storage/storage-fault.ts) a 503 with Retry-After,
 * reported to the storage health; anything else a bug: logged, and a 500 that says nothing of it.
 */
export function createErrorMapper(deps: { logError: (error: unknown) => void; onStorageFault: (fault: StorageFault) => void }): ErrorMapper {
  return (error) => {
    if (error instanceof ApiError) return error;
    const fault = storageFault(error);
    if (fault) {
      deps.onStorageFault(fault);
      return apiError("SERVICE_UNAVAILABLE");
    }
    deps.logError(error);
    return apiError("INTERNAL_ERROR");
  };
}

/**
 * What a log line may say of an unexpected error: its name and message, and its cause's, but never the
 * parameters of a failed query (drizzle puts them in the message; they can hold e-mail addresses, hashes).
 */
export function loggableError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const message = error.message.replace(/\nparams: [\s\S]*$/, "");
  const cause = error.cause instanceof Error ? `; cause: ${error.cause.name}: ${error.cause.message}` : "";
  return `${error.name}: ${message}${cause}`;
}
