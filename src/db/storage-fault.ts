/**
 * The one rule for "the storage cannot take or serve data right now", as opposed to a bug: which errors
 * mean it, and how they read in a log or a start-up message. Requests answer such a fault with 503
 * (src/http/error-mapping.ts); start-up stops with one line naming the data directory.
 */

/** What went wrong, without the query or its parameters (which may hold hashes or tokens). */
export interface StorageFault {
  /** `SQLITE_FULL`, `SQLITE_IOERR_WRITE`, `ENOSPC`, ... */
  readonly code: string;
  /** SQLite's or the OS's own short description: "database or disk is full". */
  readonly message: string;
  /** For file-system errors, the file concerned. */
  readonly path?: string;
}

/**
 * SQLite result codes (the primary code, the low byte of the extended one) that are about the storage, not
 * about the statement. BUSY arrives only after the 5 s busy timeout, so it is another process holding the
 * lock far too long: transient, like FULL and IOERR. CORRUPT and NOTADB will not pass by themselves, but
 * they are not a bug in a route either: the operator must act, and `/healthz` says so meanwhile.
 */
const SQLITE_STORAGE_CODES = new Map<number, string>([
  [5, "SQLITE_BUSY"],
  [8, "SQLITE_READONLY"],
  [10, "SQLITE_IOERR"],
  [11, "SQLITE_CORRUPT"],
  [13, "SQLITE_FULL"],
  [14, "SQLITE_CANTOPEN"],
  [15, "SQLITE_PROTOCOL"],
  [26, "SQLITE_NOTADB"],
]);

/** The same kinds of failure met by the file system calls around the database (data directory, files). */
const ERRNO_STORAGE_CODES = new Set(["ENOSPC", "EDQUOT", "EIO", "EROFS"]);

/**
 * The storage fault behind `error`, if it is one. Follows `cause`: drizzle wraps SQLite's error in a
 * DrizzleQueryError whose message carries the query and its parameters.
 */
export function storageFault(error: unknown): StorageFault | undefined {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if (e.name === "RedisError" || e.name === "RedisUnavailable") return redisFault(e);
    if (e.name === "SQLiteError") {
      const errno = (e as Error & { errno?: number }).errno ?? -1;
      if (!SQLITE_STORAGE_CODES.has(errno & 0xff)) return undefined;
      return { code: (e as Error & { code?: string }).code ?? SQLITE_STORAGE_CODES.get(errno & 0xff)!, message: e.message };
    }
    const errnoError = e as NodeJS.ErrnoException;
    if (typeof errnoError.code === "string" && typeof errnoError.syscall === "string") {
      return ERRNO_STORAGE_CODES.has(errnoError.code) ? fileSystemFault(errnoError) : undefined;
    }
  }
  return undefined;
}

/**
 * Bun's Redis client's errors about the connection (closed, refused, timed out, authentication), this
 * service's own (db/redis.ts: no answer within the bound, unreachable), and the server's replies that say
 * it cannot serve now rather than that the command is wrong: LOADING after a restart, BUSY with a slow
 * script, OOM at maxmemory, READONLY on a replica after a failover, and the like. Any other server error
 * (WRONGTYPE, a script error) is a bug.
 */
const REDIS_CONNECTION_CODES = new Set([
  "ERR_REDIS_CONNECTION_CLOSED",
  "ERR_REDIS_CONNECTION_TIMEOUT",
  "ERR_REDIS_IDLE_TIMEOUT",
  "ERR_REDIS_AUTHENTICATION_FAILED",
  "ERR_REDIS_TLS_UPGRADE_FAILED",
  "REDIS_TIMEOUT",
  "REDIS_UNREACHABLE",
  "REDIS_CLOSED",
]);
const REDIS_UNAVAILABLE_REPLIES = new Set(["LOADING", "BUSY", "OOM", "READONLY", "MASTERDOWN", "NOREPLICAS", "TRYAGAIN", "CLUSTERDOWN", "MISCONF", "NOAUTH", "WRONGPASS"]);

function redisFault(error: Error): StorageFault | undefined {
  const code = (error as Error & { code?: string }).code ?? "";
  if (REDIS_CONNECTION_CODES.has(code)) return { code, message: error.message };
  const reply = /^([A-Z]+) /.exec(error.message)?.[1];
  if (code === "ERR_REDIS_SERVER_ERROR" && reply && REDIS_UNAVAILABLE_REPLIES.has(reply)) return { code: `REDIS_${reply}`, message: error.message };
  return undefined;
}

/** Start-up cannot use the data directory: `foodapi` says why in one line and exits 1 (src/main.ts). */
export class DataDirUnusable extends Error {
  override name = "DataDirUnusable";
}

/**
 * `error` met while opening or first writing the data directory, as the one line an operator reads, or the
 * error itself when it is not about the directory (a bug keeps its stack).
 */
export function dataDirUnusable(dataDir: string, error: unknown): Error {
  if (error instanceof DataDirUnusable) return error;
  const errnoError = error as NodeJS.ErrnoException;
  const fault =
    storageFault(error) ?? (error instanceof Error && typeof errnoError.code === "string" && typeof errnoError.syscall === "string" ? fileSystemFault(errnoError) : undefined);
  if (!fault) return error instanceof Error ? error : new Error(String(error));
  const where = fault.path && fault.path !== dataDir ? ` (${fault.path})` : "";
  return new DataDirUnusable(
    `cannot use data directory ${dataDir}: ${describe(fault)}${where}; it must be a directory that the user running foodapi can write, with free space (set --data-dir or FOODAPI_DATA_DIR)`,
  );
}

/** Errno codes as a person would say them; SQLite's codes by its own message. */
const ERRNO_WORDS: Record<string, string> = {
  EACCES: "permission denied",
  EPERM: "permission denied",
  EROFS: "read-only file system",
  // mkdir of a path where a file is: EEXIST; a file as one of its parents: ENOTDIR.
  EEXIST: "not a directory",
  ENOTDIR: "not a directory",
  ENOENT: "no such file or directory",
  ENOSPC: "no space left on device",
  EDQUOT: "disk quota exceeded",
  EIO: "input/output error",
  ELOOP: "too many symbolic links",
  ENAMETOOLONG: "name too long",
};

function describe(fault: StorageFault): string {
  return ERRNO_WORDS[fault.code] ?? `${fault.message} (${fault.code})`;
}

function fileSystemFault(error: NodeJS.ErrnoException): StorageFault {
  // Bun's message is "EACCES: permission denied, open '/x/state.sqlite'": keep the words, not the call.
  const words = /^[A-Z]+: ([^,]+)/.exec(error.message)?.[1] ?? error.message;
  return { code: error.code!, message: words, path: error.path };
}
