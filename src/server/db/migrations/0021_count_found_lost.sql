ALTER TABLE "count_items" ADD COLUMN "book_incident_id" integer REFERENCES "loss_incidents"("id");--> statement-breakpoint
ALTER TABLE "count_items" ADD COLUMN "book_note" text;--> statement-breakpoint
ALTER TABLE "count_resolutions" DROP CONSTRAINT "count_resolutions_action_ck";--> statement-breakpoint
ALTER TABLE "count_resolutions" ADD CONSTRAINT "count_resolutions_action_ck" CHECK ("count_resolutions"."action" in ('usage', 'incident', 'accept', 'found'));--> statement-breakpoint
ALTER TABLE "count_resolutions" DROP CONSTRAINT "count_resolutions_kind_ck";--> statement-breakpoint
ALTER TABLE "count_resolutions" ADD CONSTRAINT "count_resolutions_kind_ck" CHECK ("count_resolutions"."kind" in ('missing', 'found_elsewhere', 'unrecorded_use', 'unused_recorded', 'found_lost'));
--> statement-breakpoint
CREATE TABLE "count_asks" (
	"id" serial PRIMARY KEY NOT NULL,
	"count_id" integer NOT NULL REFERENCES "count_sessions"("id"),
	"item_id" integer NOT NULL REFERENCES "count_items"("id"),
	"action" text NOT NULL,
	"user_id" integer NOT NULL REFERENCES "users"("id"),
	"asked_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "count_asks_action_ck" CHECK ("count_asks"."action" in ('usage', 'incident', 'accept', 'found'))
);--> statement-breakpoint
CREATE UNIQUE INDEX "count_asks_item_action_uq" ON "count_asks" USING btree ("item_id","action");--> statement-breakpoint
CREATE INDEX "count_asks_user_idx" ON "count_asks" USING btree ("user_id");
