CREATE TABLE "publish_load_attempts" (
	"job_id" text NOT NULL,
	"layer_id" integer NOT NULL,
	"attempt" integer NOT NULL,
	CONSTRAINT "publish_load_attempts_job_id_layer_id_pk" PRIMARY KEY("job_id","layer_id")
);
--> statement-breakpoint
ALTER TABLE "publish_load_attempts" ADD CONSTRAINT "publish_load_attempts_job_id_publish_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."publish_jobs"("id") ON DELETE cascade ON UPDATE no action;