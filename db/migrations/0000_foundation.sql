CREATE TABLE "portals" (
	"id" text PRIMARY KEY NOT NULL,
	"singleton" boolean DEFAULT true NOT NULL,
	"name" text NOT NULL,
	"created" bigint NOT NULL,
	"modified" bigint NOT NULL,
	CONSTRAINT "portals_singleton_unique" UNIQUE("singleton")
);
--> statement-breakpoint
CREATE TABLE "self_checks" (
	"id" text PRIMARY KEY NOT NULL,
	"object_key" text NOT NULL,
	"worker_identity" text NOT NULL,
	"created" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tokens" (
	"hash" text PRIMARY KEY NOT NULL,
	"username" text NOT NULL,
	"expires" bigint NOT NULL,
	"client" text DEFAULT 'requestip' NOT NULL,
	"referer" text,
	"created" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"username" text PRIMARY KEY NOT NULL,
	"first_name" text DEFAULT '' NOT NULL,
	"last_name" text DEFAULT '' NOT NULL,
	"full_name" text DEFAULT '' NOT NULL,
	"email" text DEFAULT '' NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"role" text NOT NULL,
	"password_hash" text NOT NULL,
	"password_changed_at" bigint NOT NULL,
	"disabled" boolean DEFAULT false NOT NULL,
	"created" bigint NOT NULL,
	"modified" bigint NOT NULL,
	"last_login" bigint DEFAULT -1 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "tokens" ADD CONSTRAINT "tokens_username_users_username_fk" FOREIGN KEY ("username") REFERENCES "public"."users"("username") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
CREATE INDEX "tokens_username_idx" ON "tokens" USING btree ("username");--> statement-breakpoint
CREATE INDEX "tokens_expires_idx" ON "tokens" USING btree ("expires");--> statement-breakpoint
CREATE UNIQUE INDEX "users_username_lower_idx" ON "users" USING btree (lower("username"));