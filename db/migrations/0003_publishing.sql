CREATE TABLE "hosted_layers" (
	"service_item_id" text NOT NULL,
	"layer_id" integer NOT NULL,
	"table_name" text NOT NULL,
	"definition" jsonb NOT NULL,
	"columns" jsonb NOT NULL,
	"feature_count" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "hosted_layers_service_item_id_layer_id_pk" PRIMARY KEY("service_item_id","layer_id")
);
--> statement-breakpoint
CREATE TABLE "hosted_services" (
	"service_item_id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"owner" text NOT NULL,
	"status" text NOT NULL,
	"definition" jsonb NOT NULL,
	"created" bigint NOT NULL,
	"modified" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "publish_error_records" (
	"job_id" text NOT NULL,
	"layer_id" integer NOT NULL,
	"row_number" integer NOT NULL,
	"reason" text NOT NULL,
	"record" jsonb NOT NULL,
	CONSTRAINT "publish_error_records_job_id_layer_id_row_number_pk" PRIMARY KEY("job_id","layer_id","row_number")
);
--> statement-breakpoint
CREATE TABLE "publish_jobs" (
	"id" text PRIMARY KEY NOT NULL,
	"service_item_id" text NOT NULL,
	"source_item_id" text,
	"owner" text NOT NULL,
	"file_type" text NOT NULL,
	"job_type" text DEFAULT 'publish' NOT NULL,
	"workflow_id" text NOT NULL,
	"status" text NOT NULL,
	"status_message" text DEFAULT '' NOT NULL,
	"request" jsonb NOT NULL,
	"plan" jsonb,
	"progress" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created" bigint NOT NULL,
	"modified" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "hosted_layers" ADD CONSTRAINT "hosted_layers_service_item_id_hosted_services_service_item_id_fk" FOREIGN KEY ("service_item_id") REFERENCES "public"."hosted_services"("service_item_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "publish_error_records" ADD CONSTRAINT "publish_error_records_job_id_publish_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."publish_jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "hosted_services_name_lower_idx" ON "hosted_services" USING btree (lower("name"));--> statement-breakpoint
CREATE INDEX "publish_jobs_service_item_idx" ON "publish_jobs" USING btree ("service_item_id");