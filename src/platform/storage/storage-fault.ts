/**
 * The one rule for "the storage cannot take or serve data right now", as opposed to a bug: which errors
 * mean it, and how they read in a log or a start-up message. Requests answer such a fault with 503
 * (src/platform/http/error-mapping.ts); start-up stops with one line naming the data directory or the state URL.
 */

/** What went wrong, without the query or its parameters (which may hold hashes or tokens). */
export interface StorageFault {
  /** `SQLITE_FULL`, `SQLITE_IOERR_WRITE`, `ENOSPC`, `ERR_POSTGRES_CONNECTION_REFUSED`, `57P01`, ... */
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
 * Bun's SQL client's own codes for a PostgreSQL server it cannot reach or lost: refused (nothing
 * listens), failed (closed before the handshake, as a starting server does), timed out connecting, and
 * closed (a connection dropped mid-query, or the pool shut).
 */
const POSTGRES_CLIENT_CODES = new Set([
  "ERR_POSTGRES_CONNECTION_CLOSED",
  "ERR_POSTGRES_CONNECTION_FAILED",
  "ERR_POSTGRES_CONNECTION_REFUSED",
  "ERR_POSTGRES_CONNECTION_TIMEOUT",
  "ERR_POSTGRES_IDLE_TIMEOUT",
  "ERR_POSTGRES_LIFETIME_TIMEOUT",
]);

/**
 * SQLSTATE classes and codes the PostgreSQL server answers with when it, not the statement, is the
 * trouble: connection exceptions (08), insufficient resources such as a full disk or too many
 * connections (53), the operator stopping or restarting it and the statement timeout (57: 57P01 admin
 * shutdown, 57P02 crash, 57P03 still starting, 57014 cancelled by statement_timeout), system and I/O errors
 * (58), a lock not granted in time (55P03), a read-only server such as a standby after a failover
 * (25006), and a login refused (28) or a database gone (3D000), which the operator must fix meanwhile.
 */
const POSTGRES_SQLSTATE_CLASSES = new Set(["08", "28", "53", "57", "58"]);
const POSTGRES_SQLSTATES = new Set(["55P03", "25006", "3D000"]);

/**
 * A store call that got no answer in time (a server that stopped answering without closing the
 * connection): thrown by the store's deadline (app/state/postgres-state.ts), a storage fault like the others.
 */
export class StorageTimeout extends Error {
  override name = "StorageTimeout";
  readonly code = "ETIMEDOUT";
  constructor(what: string, ms: number) {
    super(`${what} did not answer within ${ms} ms`);
  }
}

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
    if (e.name === "PostgresError") return postgresFault(e as Error & { code?: string; errno?: string });
    if (e instanceof StorageTimeout) return { code: e.code, message: e.message };
    const errnoError = e as NodeJS.ErrnoException;
    if (typeof errnoError.code === "string" && typeof errnoError.syscall === "string") {
      return ERRNO_STORAGE_CODES.has(errnoError.code) ? fileSystemFault(errnoError) : undefined;
    }
  }
  return undefined;
}

/** Recognised by name, as SQLite's errors are above: the rule needs no database client of its own. */
function postgresFault(error: Error & { code?: string; errno?: string }): StorageFault | undefined {
  const { code, errno } = error;
  if (code !== undefined && POSTGRES_CLIENT_CODES.has(code)) return { code, message: error.message };
  if (errno !== undefined && (POSTGRES_SQLSTATES.has(errno) || POSTGRES_SQLSTATE_CLASSES.has(errno.slice(0, 2)))) {
    return { code: errno, message: error.message };
  }
  return undefined;
}

/**
 * Bun's Redis client's errors about the connection (closed, refused, timed out, authentication), this
 * service's own (platform/storage/redis.ts: no answer within the bound, unreachable), and the server's replies that say
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

/**
 * Start-up cannot use the state store the URL names (unreachable after the retries, login refused, a
 * schema newer than this foodapi): one line naming the setting, exit 1.
 */
export class StateStoreUnusable extends Error {
  override name = "StateStoreUnusable";
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
