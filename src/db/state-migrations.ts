/**
 * The state database's schema history, compiled into the binary. Each entry runs once, in order, inside a
 * transaction; `PRAGMA user_version` records how many have run. Append only: never edit a shipped entry.
 * The drizzle tables (src/<capability>/schema.ts) describe the result; test/state-db.test.ts checks that
 * they agree column for column.
 */
export const STATE_MIGRATIONS: readonly string[] = [
  `CREATE TABLE users (
     id TEXT PRIMARY KEY,
     email TEXT NOT NULL UNIQUE,
     name TEXT NOT NULL,
     email_verified INTEGER NOT NULL DEFAULT 0,
     image TEXT,
     password_hash TEXT,
     created_at INTEGER NOT NULL,
     updated_at INTEGER NOT NULL
   );
   CREATE TABLE api_keys (
     id TEXT PRIMARY KEY,
     user_id TEXT NOT NULL REFERENCES users(id),
     name TEXT NOT NULL,
     key_prefix TEXT NOT NULL,
     key_hash TEXT NOT NULL UNIQUE,
     tier TEXT NOT NULL,
     created_at INTEGER NOT NULL,
     last_used_at INTEGER,
     revoked_at INTEGER
   );
   CREATE INDEX api_keys_user_idx ON api_keys (user_id, created_at);`,
  `CREATE TABLE sessions (
     id TEXT PRIMARY KEY,
     token_hash TEXT NOT NULL UNIQUE,
     user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
     expires_at INTEGER NOT NULL,
     persistent INTEGER NOT NULL,
     created_at INTEGER NOT NULL,
     updated_at INTEGER NOT NULL
   );
   CREATE INDEX sessions_user_idx ON sessions (user_id);
   CREATE TABLE rate_hits (bucket TEXT NOT NULL, at INTEGER NOT NULL);
   CREATE INDEX rate_hits_bucket_at_idx ON rate_hits (bucket, at);`,
  `CREATE TABLE secrets (name TEXT PRIMARY KEY, value TEXT NOT NULL);
   CREATE TABLE used_challenges (id TEXT PRIMARY KEY, expires_at INTEGER NOT NULL);
   CREATE TABLE trial_usage (jti TEXT PRIMARY KEY, used INTEGER NOT NULL, expires_at INTEGER NOT NULL);`,
  // The per-request log of rate_hits made every check cost O(requests in the window): slot counters
  // make it O(1).
  `DROP TABLE rate_hits;
   CREATE TABLE rate_counters (
     bucket TEXT NOT NULL,
     slot INTEGER NOT NULL,
     count INTEGER NOT NULL,
     PRIMARY KEY (bucket, slot)
   ) WITHOUT ROWID;`,
  // One row that /healthz rewrites now and then: a real write, so a full disk or a read-only file system
  // shows as unhealthy even while no request happens to write (src/db/storage-health.ts).
  `CREATE TABLE storage_probe (id INTEGER PRIMARY KEY CHECK (id = 1), written_at INTEGER NOT NULL);`,
];
