-- Issue 39: a holder's RAAF reads the month's events of that holder only, by (holder, business date); no query reads recorded_at by holder.
DROP INDEX IF EXISTS "pad_events_holder_branch_idx";--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "pad_events_holder_branch_day_idx" ON "pad_events" USING btree ("holder_branch_id", "business_date");--> statement-breakpoint
DROP INDEX IF EXISTS "pad_events_holder_user_idx";--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "pad_events_holder_user_day_idx" ON "pad_events" USING btree ("holder_user_id", "business_date") WHERE "holder_user_id" IS NOT NULL;
