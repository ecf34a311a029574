CREATE TABLE "folders" (
	"id" text PRIMARY KEY NOT NULL,
	"owner" text NOT NULL,
	"title" text NOT NULL,
	"created" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "collaboration_workspaces" (
	"id" text PRIMARY KEY NOT NULL,
	"collaboration_id" text NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"config" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"portal_group_id" text,
	"access_mode" text NOT NULL,
	"created" bigint NOT NULL,
	"modified" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "collaborations" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"host_portal_id" text NOT NULL,
	"owner" text NOT NULL,
	"config" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"contact_first_name" text DEFAULT '' NOT NULL,
	"contact_last_name" text DEFAULT '' NOT NULL,
	"contact_email" text DEFAULT '' NOT NULL,
	"created" bigint NOT NULL,
	"modified" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "group_members" (
	"group_id" text NOT NULL,
	"username" text NOT NULL,
	"member_type" text NOT NULL,
	"joined" bigint NOT NULL,
	CONSTRAINT "group_members_group_id_username_pk" PRIMARY KEY("group_id","username")
);
--> statement-breakpoint
CREATE TABLE "groups" (
	"id" text PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"owner" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"snippet" text DEFAULT '' NOT NULL,
	"tags" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"phone" text DEFAULT '' NOT NULL,
	"access" text DEFAULT 'private' NOT NULL,
	"is_invitation_only" boolean DEFAULT false NOT NULL,
	"is_view_only" boolean DEFAULT false NOT NULL,
	"sort_field" text DEFAULT 'title' NOT NULL,
	"sort_order" text DEFAULT 'asc' NOT NULL,
	"created" bigint NOT NULL,
	"modified" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "password_history" (
	"id" serial PRIMARY KEY NOT NULL,
	"username" text NOT NULL,
	"password_hash" text NOT NULL,
	"created" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "password_policies" (
	"singleton" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"min_length" integer NOT NULL,
	"min_upper" integer,
	"min_lower" integer,
	"min_letter" integer,
	"min_digit" integer,
	"min_other" integer,
	"expiration_in_days" integer,
	"history_size" integer,
	"created" bigint NOT NULL,
	"modified" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "folders" ADD CONSTRAINT "folders_owner_users_username_fk" FOREIGN KEY ("owner") REFERENCES "public"."users"("username") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "collaboration_workspaces" ADD CONSTRAINT "collaboration_workspaces_collaboration_id_collaborations_id_fk" FOREIGN KEY ("collaboration_id") REFERENCES "public"."collaborations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collaboration_workspaces" ADD CONSTRAINT "collaboration_workspaces_portal_group_id_groups_id_fk" FOREIGN KEY ("portal_group_id") REFERENCES "public"."groups"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collaborations" ADD CONSTRAINT "collaborations_owner_users_username_fk" FOREIGN KEY ("owner") REFERENCES "public"."users"("username") ON DELETE no action ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "group_members" ADD CONSTRAINT "group_members_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "group_members" ADD CONSTRAINT "group_members_username_users_username_fk" FOREIGN KEY ("username") REFERENCES "public"."users"("username") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "groups" ADD CONSTRAINT "groups_owner_users_username_fk" FOREIGN KEY ("owner") REFERENCES "public"."users"("username") ON DELETE no action ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "password_history" ADD CONSTRAINT "password_history_username_users_username_fk" FOREIGN KEY ("username") REFERENCES "public"."users"("username") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
CREATE UNIQUE INDEX "folders_owner_title_idx" ON "folders" USING btree ("owner",lower("title"));--> statement-breakpoint
CREATE INDEX "collaboration_workspaces_collaboration_idx" ON "collaboration_workspaces" USING btree ("collaboration_id");--> statement-breakpoint
CREATE INDEX "group_members_user_idx" ON "group_members" USING btree ("username");--> statement-breakpoint
CREATE UNIQUE INDEX "groups_title_lower_idx" ON "groups" USING btree (lower("title"));--> statement-breakpoint
CREATE INDEX "groups_owner_idx" ON "groups" USING btree ("owner");--> statement-breakpoint
CREATE INDEX "password_history_user_idx" ON "password_history" USING btree ("username");--> statement-breakpoint
ALTER TABLE "items" ADD CONSTRAINT "items_folder_id_folders_id_fk" FOREIGN KEY ("folder_id") REFERENCES "public"."folders"("id") ON DELETE no action ON UPDATE no action;