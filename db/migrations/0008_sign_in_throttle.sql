CREATE TABLE "sign_in_throttle" (
	"key" text PRIMARY KEY NOT NULL,
	"failures" integer NOT NULL,
	"last_failure" bigint NOT NULL,
	"locked_until" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "tokens" ADD COLUMN "ip" text;--> statement-breakpoint
ALTER TABLE "tokens" ADD COLUMN "parent" text;--> statement-breakpoint
CREATE INDEX "sign_in_throttle_last_failure_idx" ON "sign_in_throttle" USING btree ("last_failure");--> statement-breakpoint
ALTER TABLE "tokens" ADD CONSTRAINT "tokens_parent_tokens_hash_fk" FOREIGN KEY ("parent") REFERENCES "public"."tokens"("hash") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "tokens_parent_idx" ON "tokens" USING btree ("parent");