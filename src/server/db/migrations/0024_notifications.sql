CREATE TABLE "notifications" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"recipient_user_id" integer NOT NULL REFERENCES "users"("id"),
	"level" smallint DEFAULT 0 NOT NULL,
	"subject_type" text NOT NULL,
	"subject_id" text NOT NULL,
	"period" text NOT NULL,
	"dedupe_key" text NOT NULL,
	"title" text NOT NULL,
	"body" text NOT NULL,
	"link" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"read_at" timestamp with time zone,
	"resolved_at" timestamp with time zone,
	"mailed_at" timestamp with time zone,
	CONSTRAINT "notifications_level_ck" CHECK ("notifications"."level" between 0 and 9)
);--> statement-breakpoint
CREATE UNIQUE INDEX "notifications_dedupe_key_uq" ON "notifications" USING btree ("dedupe_key");--> statement-breakpoint
CREATE INDEX "notifications_recipient_idx" ON "notifications" USING btree ("recipient_user_id","created_at");--> statement-breakpoint
CREATE INDEX "notifications_open_kind_idx" ON "notifications" USING btree ("kind") WHERE "resolved_at" is null;--> statement-breakpoint
CREATE TABLE "notification_settings" (
	"user_id" integer NOT NULL REFERENCES "users"("id"),
	"kind" text NOT NULL,
	"email" boolean NOT NULL,
	CONSTRAINT "notification_settings_pk" PRIMARY KEY("user_id","kind")
);--> statement-breakpoint
CREATE TABLE "alert_settings" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"thresholds" jsonb NOT NULL,
	"updated_by" integer REFERENCES "users"("id"),
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "alert_settings_one_row_ck" CHECK ("alert_settings"."id" = 1)
);--> statement-breakpoint
CREATE TABLE "reorder_points" (
	"branch_id" integer NOT NULL REFERENCES "branches"("id"),
	"route_id" integer NOT NULL REFERENCES "routes"("id"),
	"minimum" integer NOT NULL,
	"lead_days" integer NOT NULL,
	"snoozed_until" date,
	CONSTRAINT "reorder_points_pk" PRIMARY KEY("branch_id","route_id"),
	CONSTRAINT "reorder_points_minimum_ck" CHECK ("reorder_points"."minimum" >= 0),
	CONSTRAINT "reorder_points_lead_days_ck" CHECK ("reorder_points"."lead_days" >= 0)
);
