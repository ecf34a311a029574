CREATE TABLE "feature_attachments" (
	"id" serial PRIMARY KEY NOT NULL,
	"service_item_id" text NOT NULL,
	"layer_id" integer NOT NULL,
	"object_id" integer NOT NULL,
	"global_id" text NOT NULL,
	"name" text NOT NULL,
	"content_type" text NOT NULL,
	"size" bigint NOT NULL,
	"keywords" text DEFAULT '' NOT NULL,
	"object_key" text NOT NULL,
	"created" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "feature_attachments" ADD CONSTRAINT "feature_attachments_service_item_id_hosted_services_service_item_id_fk" FOREIGN KEY ("service_item_id") REFERENCES "public"."hosted_services"("service_item_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "feature_attachments_feature_idx" ON "feature_attachments" USING btree ("service_item_id","layer_id","object_id");