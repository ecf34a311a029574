CREATE TABLE "append_staging" (
	"job_id" text NOT NULL,
	"seq" integer NOT NULL,
	"attributes" jsonb NOT NULL,
	"geometry" jsonb,
	CONSTRAINT "append_staging_job_id_seq_pk" PRIMARY KEY("job_id","seq")
);
--> statement-breakpoint
CREATE TABLE "service_jobs" (
	"job_id" text PRIMARY KEY NOT NULL,
	"operation" text NOT NULL,
	"service_item_id" text NOT NULL,
	"submitter" text NOT NULL,
	"status" text NOT NULL,
	"submission_time" bigint NOT NULL,
	"last_updated_time" bigint NOT NULL,
	"result" jsonb,
	"error" jsonb,
	"refresh_areas" jsonb
);
