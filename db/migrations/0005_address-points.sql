CREATE TABLE "address_points" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"lon" double precision NOT NULL,
	"lat" double precision NOT NULL,
	"number" text NOT NULL,
	"street" text NOT NULL,
	"unit" text,
	"city" text,
	"district" text,
	"region" text,
	"postcode" text,
	"country_code" text,
	"source" text NOT NULL,
	"created" bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX "address_points_source_idx" ON "address_points" USING btree ("source");