DROP INDEX IF EXISTS "pad_events_recorded_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "pad_events_holder_user_idx";--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "pad_events_holder_user_idx" ON "pad_events" USING btree ("holder_user_id", "recorded_at") WHERE "holder_user_id" IS NOT NULL;--> statement-breakpoint
DROP INDEX IF EXISTS "pad_events_invoice_idx";--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "pad_events_invoice_idx" ON "pad_events" USING btree ("invoice_id") WHERE "invoice_id" IS NOT NULL;
