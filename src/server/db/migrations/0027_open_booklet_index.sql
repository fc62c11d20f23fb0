CREATE INDEX "pads_open_booklet_user_idx" ON "pads" USING btree ("holder_user_id","route_id","number") WHERE "pad_status_id" = 2;--> statement-breakpoint
CREATE INDEX "pads_open_booklet_branch_idx" ON "pads" USING btree ("holder_branch_id","route_id","number") WHERE "pad_status_id" = 2 and "holder_user_id" is null;
