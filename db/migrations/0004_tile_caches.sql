CREATE TABLE "tile_cache_bundles" (
	"service_item_id" text NOT NULL,
	"generation" integer NOT NULL,
	"level" integer NOT NULL,
	"row0" integer NOT NULL,
	"col0" integer NOT NULL,
	"tile_count" integer NOT NULL,
	"bytes" bigint NOT NULL,
	CONSTRAINT "tile_cache_bundles_service_item_id_generation_level_row0_col0_pk" PRIMARY KEY("service_item_id","generation","level","row0","col0")
);
--> statement-breakpoint
CREATE TABLE "tile_caches" (
	"service_item_id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"owner" text NOT NULL,
	"service_type" text NOT NULL,
	"source_service_item_id" text,
	"status" text NOT NULL,
	"definition" jsonb NOT NULL,
	"service" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"generation" integer DEFAULT 1 NOT NULL,
	"tile_count" bigint DEFAULT 0 NOT NULL,
	"created" bigint NOT NULL,
	"modified" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "tile_cache_bundles" ADD CONSTRAINT "tile_cache_bundles_service_item_id_tile_caches_service_item_id_fk" FOREIGN KEY ("service_item_id") REFERENCES "public"."tile_caches"("service_item_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "tile_caches_type_name_lower_idx" ON "tile_caches" USING btree ("service_type",lower("name"));--> statement-breakpoint
CREATE INDEX "tile_caches_source_idx" ON "tile_caches" USING btree ("source_service_item_id");