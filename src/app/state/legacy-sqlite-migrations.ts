/**
 * The SQLite state schema's hand-written history, from the releases before the tables were declared once
 * (src/<capability>/tables.ts) and their migrations generated (src/app/state/migrations/sqlite/). Frozen: never edited and
 * never grown. A data directory at one of these versions is brought to its end here (versions 1 to 8),
 * then adopted into the generated history (platform/storage/sqlite-migrations.ts); a backup at one of them
 * is checked against these steps (state-backup.ts). Each entry ran in a transaction; `PRAGMA user_version`
 * counts them.
 */
export const LEGACY_SQLITE_MIGRATIONS: readonly string[] = [
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
  // shows as unhealthy even while no request happens to write (src/platform/storage/storage-health.ts).
  `CREATE TABLE storage_probe (id INTEGER PRIMARY KEY CHECK (id = 1), written_at INTEGER NOT NULL);`,
  // Housekeeping sweeps by expiry, so every table that holds history gets an expiry index; rate counters
  // learn when they stop counting (rows from before this step: a day from now, longer than any default
  // window). Revocations are logged so that each process drops just the revoked key from its cache.
  `ALTER TABLE rate_counters ADD COLUMN expires_at INTEGER NOT NULL DEFAULT 0;
   UPDATE rate_counters SET expires_at = (CAST(strftime('%s', 'now') AS INTEGER) + 86400) * 1000;
   CREATE INDEX rate_counters_expiry_idx ON rate_counters (expires_at);
   CREATE INDEX sessions_expiry_idx ON sessions (expires_at);
   CREATE INDEX trial_usage_expiry_idx ON trial_usage (expires_at);
   CREATE INDEX used_challenges_expiry_idx ON used_challenges (expires_at);
   CREATE INDEX api_keys_revoked_idx ON api_keys (revoked_at) WHERE revoked_at IS NOT NULL;
   CREATE TABLE key_revocations (
     seq INTEGER PRIMARY KEY AUTOINCREMENT,
     key_hash TEXT NOT NULL,
     revoked_at INTEGER NOT NULL
   );`,
  // Account self-service (design §12, §13): where each session was started, for the account's session
  // list; and requests per key per hour, batched by each process (src/usage/). A key's usage goes with
  // the key (revoked keys are swept after a week, an account's keys when it is deleted).
  `ALTER TABLE sessions ADD COLUMN ip_address TEXT;
   ALTER TABLE sessions ADD COLUMN user_agent TEXT;
   CREATE TABLE key_usage (
     key_id TEXT NOT NULL REFERENCES api_keys(id) ON DELETE CASCADE,
     hour INTEGER NOT NULL,
     allowed INTEGER NOT NULL,
     refused INTEGER NOT NULL,
     PRIMARY KEY (key_id, hour)
   ) WITHOUT ROWID;
   CREATE INDEX key_usage_hour_idx ON key_usage (hour);`,
  // `foodapi users disable`: the account and its keys stay, but its keys are refused and it cannot sign in
  // until `users enable` clears this.
  `ALTER TABLE users ADD COLUMN disabled_at INTEGER;`,
];
