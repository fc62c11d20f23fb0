CREATE INDEX "pad_events_voided_idx" ON "pad_events" USING btree ("from_number","to_number") WHERE "pad_events"."kind" = 'voided';
