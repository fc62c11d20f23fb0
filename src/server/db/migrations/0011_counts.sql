CREATE TABLE "count_sessions" (
	"id" serial PRIMARY KEY NOT NULL,
	"holder_user_id" integer,
	"holder_branch_id" integer,
	"counter_id" integer NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"signed_off_by" integer,
	"signed_off_at" timestamp with time zone,
	"signature" text,
	"closed_at" timestamp with time zone,
	CONSTRAINT "count_sessions_holder_ck" CHECK (("count_sessions"."holder_user_id" is null) <> ("count_sessions"."holder_branch_id" is null)),
	CONSTRAINT "count_sessions_status_ck" CHECK ("count_sessions"."status" in ('open', 'closed')),
	CONSTRAINT "count_sessions_closed_ck" CHECK (("count_sessions"."status" = 'closed') = ("count_sessions"."closed_at" is not null)),
	CONSTRAINT "count_sessions_not_self_ck" CHECK ("count_sessions"."holder_user_id" is distinct from "count_sessions"."counter_id")
);
--> statement-breakpoint
CREATE TABLE "count_items" (
	"id" serial PRIMARY KEY NOT NULL,
	"count_id" integer NOT NULL,
	"pad_id" integer NOT NULL,
	"expected" boolean NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"book_next_number" bigint,
	"book_holder_user_id" integer,
	"book_holder_branch_id" integer,
	"first_unused" bigint,
	"recorded_by" integer,
	"recorded_at" timestamp with time zone,
	CONSTRAINT "count_items_state_ck" CHECK ("count_items"."state" in ('pending', 'found', 'missing'))
);
--> statement-breakpoint
CREATE TABLE "count_resolutions" (
	"id" serial PRIMARY KEY NOT NULL,
	"count_id" integer NOT NULL,
	"item_id" integer NOT NULL,
	"kind" text NOT NULL,
	"action" text NOT NULL,
	"reason" text NOT NULL,
	"incident_id" integer,
	"resolved_by" integer NOT NULL,
	"resolved_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "count_resolutions_action_ck" CHECK ("count_resolutions"."action" in ('usage', 'incident', 'accept')),
	CONSTRAINT "count_resolutions_kind_ck" CHECK ("count_resolutions"."kind" in ('missing', 'found_elsewhere', 'unrecorded_use', 'unused_recorded'))
);
--> statement-breakpoint
ALTER TABLE "count_sessions" ADD CONSTRAINT "count_sessions_holder_user_id_users_id_fk" FOREIGN KEY ("holder_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "count_sessions" ADD CONSTRAINT "count_sessions_holder_branch_id_branches_id_fk" FOREIGN KEY ("holder_branch_id") REFERENCES "public"."branches"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "count_sessions" ADD CONSTRAINT "count_sessions_counter_id_users_id_fk" FOREIGN KEY ("counter_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "count_sessions" ADD CONSTRAINT "count_sessions_signed_off_by_users_id_fk" FOREIGN KEY ("signed_off_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "count_items" ADD CONSTRAINT "count_items_count_id_count_sessions_id_fk" FOREIGN KEY ("count_id") REFERENCES "public"."count_sessions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "count_items" ADD CONSTRAINT "count_items_pad_id_pads_id_fk" FOREIGN KEY ("pad_id") REFERENCES "public"."pads"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "count_items" ADD CONSTRAINT "count_items_book_holder_user_id_users_id_fk" FOREIGN KEY ("book_holder_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "count_items" ADD CONSTRAINT "count_items_book_holder_branch_id_branches_id_fk" FOREIGN KEY ("book_holder_branch_id") REFERENCES "public"."branches"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "count_items" ADD CONSTRAINT "count_items_recorded_by_users_id_fk" FOREIGN KEY ("recorded_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "count_resolutions" ADD CONSTRAINT "count_resolutions_count_id_count_sessions_id_fk" FOREIGN KEY ("count_id") REFERENCES "public"."count_sessions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "count_resolutions" ADD CONSTRAINT "count_resolutions_item_id_count_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."count_items"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "count_resolutions" ADD CONSTRAINT "count_resolutions_incident_id_loss_incidents_id_fk" FOREIGN KEY ("incident_id") REFERENCES "public"."loss_incidents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "count_resolutions" ADD CONSTRAINT "count_resolutions_resolved_by_users_id_fk" FOREIGN KEY ("resolved_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "count_sessions_holder_user_idx" ON "count_sessions" USING btree ("holder_user_id","closed_at");--> statement-breakpoint
CREATE INDEX "count_sessions_holder_branch_idx" ON "count_sessions" USING btree ("holder_branch_id","closed_at");--> statement-breakpoint
CREATE UNIQUE INDEX "count_items_count_pad_uq" ON "count_items" USING btree ("count_id","pad_id");--> statement-breakpoint
CREATE UNIQUE INDEX "count_resolutions_item_uq" ON "count_resolutions" USING btree ("item_id");--> statement-breakpoint
CREATE INDEX "count_resolutions_count_idx" ON "count_resolutions" USING btree ("count_id");--> statement-breakpoint
CREATE FUNCTION "count_sessions_closed_stays"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'UPDATE' AND OLD."status" = 'open'
		AND (NEW."id", NEW."holder_user_id", NEW."holder_branch_id", NEW."counter_id", NEW."started_at")
			IS NOT DISTINCT FROM (OLD."id", OLD."holder_user_id", OLD."holder_branch_id", OLD."counter_id", OLD."started_at") THEN
		RETURN NEW;
	END IF;
	RAISE EXCEPTION 'count_sessions is append-only: a count is only ever signed off and closed, and never changes after';
END $$;--> statement-breakpoint
CREATE TRIGGER "count_sessions_closed_stays" BEFORE UPDATE OR DELETE ON "count_sessions" FOR EACH ROW EXECUTE FUNCTION "count_sessions_closed_stays"();--> statement-breakpoint
CREATE TRIGGER "count_sessions_no_truncate" BEFORE TRUNCATE ON "count_sessions" FOR EACH STATEMENT EXECUTE FUNCTION "count_sessions_closed_stays"();--> statement-breakpoint
CREATE FUNCTION "count_parts_while_open"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'INSERT' THEN
		IF EXISTS (SELECT 1 FROM "count_sessions" WHERE "id" = NEW."count_id" AND "status" = 'open') THEN
			RETURN NEW;
		END IF;
	ELSIF TG_OP = 'UPDATE' AND TG_TABLE_NAME = 'count_items' THEN
		IF (NEW."id", NEW."count_id", NEW."pad_id", NEW."expected") IS NOT DISTINCT FROM (OLD."id", OLD."count_id", OLD."pad_id", OLD."expected")
			AND EXISTS (SELECT 1 FROM "count_sessions" WHERE "id" = OLD."count_id" AND "status" = 'open') THEN
			RETURN NEW;
		END IF;
	END IF;
	RAISE EXCEPTION '% is append-only: a count''s pads and resolutions change only while it is open, and a resolution never', TG_TABLE_NAME;
END $$;--> statement-breakpoint
CREATE TRIGGER "count_items_while_open" BEFORE INSERT OR UPDATE OR DELETE ON "count_items" FOR EACH ROW EXECUTE FUNCTION "count_parts_while_open"();--> statement-breakpoint
CREATE TRIGGER "count_items_no_truncate" BEFORE TRUNCATE ON "count_items" FOR EACH STATEMENT EXECUTE FUNCTION "count_parts_while_open"();--> statement-breakpoint
CREATE TRIGGER "count_resolutions_while_open" BEFORE INSERT OR UPDATE OR DELETE ON "count_resolutions" FOR EACH ROW EXECUTE FUNCTION "count_parts_while_open"();--> statement-breakpoint
CREATE TRIGGER "count_resolutions_no_truncate" BEFORE TRUNCATE ON "count_resolutions" FOR EACH STATEMENT EXECUTE FUNCTION "count_parts_while_open"();
