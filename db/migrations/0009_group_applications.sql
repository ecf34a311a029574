CREATE TABLE "group_applications" (
	"group_id" text NOT NULL,
	"username" text NOT NULL,
	"comments" text DEFAULT '' NOT NULL,
	"created" bigint NOT NULL,
	CONSTRAINT "group_applications_group_id_username_pk" PRIMARY KEY("group_id","username")
);
--> statement-breakpoint
ALTER TABLE "group_applications" ADD CONSTRAINT "group_applications_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "group_applications" ADD CONSTRAINT "group_applications_username_users_username_fk" FOREIGN KEY ("username") REFERENCES "public"."users"("username") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
CREATE INDEX "group_applications_user_idx" ON "group_applications" USING btree ("username");