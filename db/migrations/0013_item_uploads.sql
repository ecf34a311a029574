CREATE TABLE "item_uploads" (
	"item_id" text PRIMARY KEY NOT NULL,
	"filename" text NOT NULL,
	"status" text NOT NULL,
	"bytes" bigint DEFAULT 0 NOT NULL,
	"created" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "item_uploads" ADD CONSTRAINT "item_uploads_item_id_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."items"("id") ON DELETE cascade ON UPDATE no action;