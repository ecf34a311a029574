CREATE TABLE "item_relationships" (
	"origin_item_id" text NOT NULL,
	"destination_item_id" text NOT NULL,
	"relationship_type" text NOT NULL,
	"created_by" text NOT NULL,
	"created" bigint NOT NULL,
	CONSTRAINT "item_relationships_origin_item_id_destination_item_id_relationship_type_pk" PRIMARY KEY("origin_item_id","destination_item_id","relationship_type")
);
--> statement-breakpoint
CREATE TABLE "items" (
	"id" text PRIMARY KEY NOT NULL,
	"owner" text NOT NULL,
	"folder_id" text,
	"title" text NOT NULL,
	"type" text NOT NULL,
	"type_keywords" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"name" text,
	"description" text DEFAULT '' NOT NULL,
	"snippet" text DEFAULT '' NOT NULL,
	"tags" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"categories" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"access_information" text DEFAULT '' NOT NULL,
	"license_info" text DEFAULT '' NOT NULL,
	"culture" text DEFAULT 'en-us' NOT NULL,
	"access" text DEFAULT 'private' NOT NULL,
	"url" text,
	"data_key" text,
	"data_size" bigint DEFAULT 0 NOT NULL,
	"data_content_type" text,
	"extent" jsonb,
	"spatial_reference" text,
	"properties" jsonb,
	"protected" boolean DEFAULT false NOT NULL,
	"created" bigint NOT NULL,
	"modified" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "item_relationships" ADD CONSTRAINT "item_relationships_origin_item_id_items_id_fk" FOREIGN KEY ("origin_item_id") REFERENCES "public"."items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "item_relationships" ADD CONSTRAINT "item_relationships_destination_item_id_items_id_fk" FOREIGN KEY ("destination_item_id") REFERENCES "public"."items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "items" ADD CONSTRAINT "items_owner_users_username_fk" FOREIGN KEY ("owner") REFERENCES "public"."users"("username") ON DELETE no action ON UPDATE cascade;--> statement-breakpoint
CREATE INDEX "item_relationships_destination_idx" ON "item_relationships" USING btree ("destination_item_id");--> statement-breakpoint
CREATE INDEX "items_owner_idx" ON "items" USING btree ("owner");--> statement-breakpoint
CREATE INDEX "items_type_idx" ON "items" USING btree ("type");