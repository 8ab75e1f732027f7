CREATE TABLE "api_keys" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"name" text NOT NULL,
	"key_prefix" text NOT NULL,
	"key_hash" text NOT NULL,
	"tier" text NOT NULL,
	"created_at" bigint NOT NULL,
	"last_used_at" bigint,
	"revoked_at" bigint,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "api_keys_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	CONSTRAINT "api_keys_key_hash_unique" UNIQUE("key_hash")
);
--> statement-breakpoint
CREATE TABLE "key_usage" (
	"key_id" text NOT NULL,
	"hour" bigint NOT NULL,
	"allowed" integer NOT NULL,
	"refused" integer NOT NULL,
	CONSTRAINT "key_usage_key_id_hour_pk" PRIMARY KEY("key_id","hour")
);
--> statement-breakpoint
CREATE TABLE "rate_counters" (
	"bucket" text NOT NULL,
	"slot" bigint NOT NULL,
	"count" integer NOT NULL,
	"expires_at" bigint NOT NULL,
	CONSTRAINT "rate_counters_bucket_slot_pk" PRIMARY KEY("bucket","slot")
);
--> statement-breakpoint
CREATE TABLE "secrets" (
	"name" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"token_hash" text NOT NULL,
	"user_id" text NOT NULL,
	"expires_at" bigint NOT NULL,
	"persistent" boolean NOT NULL,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL,
	"ip_address" text,
	"user_agent" text,
	CONSTRAINT "sessions_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "storage_probe" (
	"id" integer PRIMARY KEY NOT NULL,
	"written_at" bigint NOT NULL,
	CONSTRAINT "storage_probe_id_check" CHECK ("storage_probe"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "trial_usage" (
	"jti" text PRIMARY KEY NOT NULL,
	"used" integer NOT NULL,
	"expires_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "used_challenges" (
	"id" text PRIMARY KEY NOT NULL,
	"expires_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" text PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"name" text NOT NULL,
	"email_verified" boolean DEFAULT false NOT NULL,
	"image" text,
	"password_hash" text,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL,
	"disabled_at" bigint,
	CONSTRAINT "users_email_unique" UNIQUE("email")
);
--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "key_usage" ADD CONSTRAINT "key_usage_key_id_api_keys_id_fk" FOREIGN KEY ("key_id") REFERENCES "public"."api_keys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "api_keys_user_idx" ON "api_keys" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "api_keys_revoked_idx" ON "api_keys" USING btree ("revoked_at") WHERE "api_keys"."revoked_at" is not null;--> statement-breakpoint
CREATE INDEX "key_usage_hour_idx" ON "key_usage" USING btree ("hour");--> statement-breakpoint
CREATE INDEX "rate_counters_expiry_idx" ON "rate_counters" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "sessions_user_idx" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "sessions_expiry_idx" ON "sessions" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "trial_usage_expiry_idx" ON "trial_usage" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "used_challenges_expiry_idx" ON "used_challenges" USING btree ("expires_at");