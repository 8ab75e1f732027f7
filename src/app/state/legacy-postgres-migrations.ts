/**
 * The PostgreSQL state schema's hand-written history, from the releases before the tables were declared
 * once (src/<capability>/tables.ts) and their migrations generated (src/app/state/migrations/postgres/). Frozen: never
 * edited and never grown. A database at one of these versions is brought to its end here (versions 1 to
 * 3), then adopted into the generated history (platform/storage/postgres-migrations.ts); `foodapi_schema`
 * records each step.
 */
export const LEGACY_POSTGRES_MIGRATIONS: readonly string[] = [
  `CREATE TABLE users (
     id text PRIMARY KEY,
     email text NOT NULL UNIQUE,
     name text NOT NULL,
     email_verified boolean NOT NULL DEFAULT false,
     image text,
     password_hash text,
     created_at bigint NOT NULL,
     updated_at bigint NOT NULL
   );
   CREATE TABLE sessions (
     id text PRIMARY KEY,
     token_hash text NOT NULL UNIQUE,
     user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
     expires_at bigint NOT NULL,
     persistent boolean NOT NULL,
     created_at bigint NOT NULL,
     updated_at bigint NOT NULL
   );
   CREATE INDEX sessions_user_idx ON sessions (user_id);
   CREATE INDEX sessions_expiry_idx ON sessions (expires_at);
   -- seq is not part of a key: it orders keys issued in the same millisecond, as rowid does in SQLite.
   CREATE TABLE api_keys (
     id text PRIMARY KEY,
     user_id text NOT NULL REFERENCES users (id),
     name text NOT NULL,
     key_prefix text NOT NULL,
     key_hash text NOT NULL UNIQUE,
     tier text NOT NULL,
     created_at bigint NOT NULL,
     last_used_at bigint,
     revoked_at bigint,
     seq bigint GENERATED ALWAYS AS IDENTITY
   );
   CREATE INDEX api_keys_user_idx ON api_keys (user_id, created_at);
   CREATE INDEX api_keys_revoked_idx ON api_keys (revoked_at) WHERE revoked_at IS NOT NULL;
   CREATE TABLE rate_counters (
     bucket text NOT NULL,
     slot bigint NOT NULL,
     count integer NOT NULL,
     expires_at bigint NOT NULL,
     PRIMARY KEY (bucket, slot)
   );
   CREATE INDEX rate_counters_expiry_idx ON rate_counters (expires_at);
   CREATE TABLE secrets (name text PRIMARY KEY, value text NOT NULL);
   CREATE TABLE used_challenges (id text PRIMARY KEY, expires_at bigint NOT NULL);
   CREATE INDEX used_challenges_expiry_idx ON used_challenges (expires_at);
   CREATE TABLE trial_usage (jti text PRIMARY KEY, used integer NOT NULL, expires_at bigint NOT NULL);
   CREATE INDEX trial_usage_expiry_idx ON trial_usage (expires_at);
   CREATE TABLE storage_probe (id integer PRIMARY KEY CHECK (id = 1), written_at bigint NOT NULL);`,
  // Account self-service (design §12, §13): where each session was started, and requests per key per
  // hour (src/usage/), going with their key.
  `ALTER TABLE sessions ADD COLUMN ip_address text;
   ALTER TABLE sessions ADD COLUMN user_agent text;
   CREATE TABLE key_usage (
     key_id text NOT NULL REFERENCES api_keys (id) ON DELETE CASCADE,
     hour bigint NOT NULL,
     allowed integer NOT NULL,
     refused integer NOT NULL,
     PRIMARY KEY (key_id, hour)
   );
   CREATE INDEX key_usage_hour_idx ON key_usage (hour);`,
  // `foodapi users disable` (as in SQLite's legacy-sqlite-migrations.ts).
  `ALTER TABLE users ADD COLUMN disabled_at bigint;`,
];
