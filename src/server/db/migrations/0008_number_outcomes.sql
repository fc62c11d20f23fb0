ALTER TABLE "pad_events" DROP CONSTRAINT "pad_events_kind_ck";--> statement-breakpoint
ALTER TABLE "pad_events" ADD CONSTRAINT "pad_events_kind_ck" CHECK ("kind" in ('received', 'opening', 'transfer_out', 'transfer_in', 'used', 'used_reverted', 'cancelled', 'lost', 'cancel_reverted', 'found', 'custody_out', 'custody_in', 'voided'));--> statement-breakpoint
ALTER TABLE "pad_events" DROP CONSTRAINT "pad_events_range_ck";--> statement-breakpoint
ALTER TABLE "pad_events" ADD CONSTRAINT "pad_events_range_ck" CHECK ("to_number" >= "from_number" and ("qty" = "to_number" - "from_number" + 1 or ("kind" in ('custody_out', 'custody_in') and "qty" = 0)));--> statement-breakpoint
ALTER TABLE "pad_events" ADD COLUMN "approver_user_id" integer REFERENCES "users"("id");--> statement-breakpoint
ALTER TABLE "pad_events" ADD COLUMN "incident_id" integer;--> statement-breakpoint
ALTER TABLE "pad_events" ADD COLUMN "copies_retained" boolean;--> statement-breakpoint
CREATE INDEX "pad_events_incident_idx" ON "pad_events" USING btree ("incident_id") WHERE "incident_id" is not null;--> statement-breakpoint
ALTER TABLE "pads" ADD CONSTRAINT "pads_series_chars_ck" CHECK ("series_status" ~ '^[1-4]*$');--> statement-breakpoint
CREATE TABLE "outcome_requests" (
	"id" serial PRIMARY KEY NOT NULL,
	"pad_id" integer NOT NULL REFERENCES "pads"("id") ON DELETE CASCADE,
	"from_number" bigint NOT NULL,
	"to_number" bigint NOT NULL,
	"outcome" text NOT NULL,
	"reason" text NOT NULL,
	"copies_retained" boolean,
	"status" text DEFAULT 'pending' NOT NULL,
	"requested_by" integer NOT NULL REFERENCES "users"("id"),
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_by" integer REFERENCES "users"("id"),
	"decided_at" timestamp with time zone,
	"rejection_reason" text,
	CONSTRAINT "outcome_requests_range_ck" CHECK ("to_number" >= "from_number"),
	CONSTRAINT "outcome_requests_outcome_ck" CHECK ("outcome" in ('cancelled', 'lost')),
	CONSTRAINT "outcome_requests_status_ck" CHECK ("status" in ('pending', 'approved', 'rejected'))
);--> statement-breakpoint
CREATE INDEX "outcome_requests_pending_idx" ON "outcome_requests" USING btree ("pad_id") WHERE "status" = 'pending';--> statement-breakpoint
CREATE TABLE "loss_incident_counters" (
	"year" integer PRIMARY KEY NOT NULL,
	"last_number" integer NOT NULL
);--> statement-breakpoint
CREATE TABLE "loss_incidents" (
	"id" serial PRIMARY KEY NOT NULL,
	"number" text NOT NULL UNIQUE,
	"year" integer NOT NULL,
	"seq" integer NOT NULL,
	"status" text DEFAULT 'reported' NOT NULL,
	"place" text NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL,
	"circumstances" text NOT NULL,
	"reported_by" integer NOT NULL REFERENCES "users"("id"),
	"reported_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_by" integer REFERENCES "users"("id"),
	"decided_at" timestamp with time zone,
	"rejection_reason" text,
	"notice_pdf" bytea,
	CONSTRAINT "loss_incidents_status_ck" CHECK ("status" in ('reported', 'confirmed', 'rejected'))
);--> statement-breakpoint
CREATE UNIQUE INDEX "loss_incidents_year_seq_uq" ON "loss_incidents" USING btree ("year", "seq");--> statement-breakpoint
CREATE TABLE "loss_incident_pads" (
	"id" serial PRIMARY KEY NOT NULL,
	"incident_id" integer NOT NULL REFERENCES "loss_incidents"("id"),
	"pad_id" integer NOT NULL REFERENCES "pads"("id"),
	"route_id" integer NOT NULL REFERENCES "routes"("id"),
	"from_number" bigint NOT NULL,
	"to_number" bigint NOT NULL,
	CONSTRAINT "loss_incident_pads_range_ck" CHECK ("to_number" >= "from_number")
);--> statement-breakpoint
CREATE INDEX "loss_incident_pads_incident_idx" ON "loss_incident_pads" USING btree ("incident_id");--> statement-breakpoint
CREATE INDEX "loss_incident_pads_pad_idx" ON "loss_incident_pads" USING btree ("pad_id");--> statement-breakpoint
CREATE TABLE "loss_incident_attachments" (
	"id" serial PRIMARY KEY NOT NULL,
	"incident_id" integer NOT NULL REFERENCES "loss_incidents"("id"),
	"kind" text NOT NULL,
	"file_name" text NOT NULL,
	"content_type" text NOT NULL,
	"size" integer NOT NULL,
	"document_date" date,
	"content" bytea NOT NULL,
	"uploaded_by" integer NOT NULL REFERENCES "users"("id"),
	"uploaded_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "loss_incident_attachments_kind_ck" CHECK ("kind" in ('affidavit', 'police_report', 'tax_office_receipt', 'other'))
);--> statement-breakpoint
CREATE INDEX "loss_incident_attachments_incident_idx" ON "loss_incident_attachments" USING btree ("incident_id");--> statement-breakpoint
CREATE TABLE "loss_incident_found" (
	"id" serial PRIMARY KEY NOT NULL,
	"incident_id" integer NOT NULL REFERENCES "loss_incidents"("id"),
	"pad_id" integer NOT NULL REFERENCES "pads"("id"),
	"from_number" bigint NOT NULL,
	"to_number" bigint NOT NULL,
	"reason" text NOT NULL,
	"recorded_by" integer NOT NULL REFERENCES "users"("id"),
	"recorded_at" timestamp with time zone DEFAULT now() NOT NULL,
	"confirmed_by" integer REFERENCES "users"("id"),
	"confirmed_at" timestamp with time zone,
	CONSTRAINT "loss_incident_found_range_ck" CHECK ("to_number" >= "from_number"),
	CONSTRAINT "loss_incident_found_two_users_ck" CHECK ("confirmed_by" is null or "confirmed_by" <> "recorded_by")
);--> statement-breakpoint
CREATE INDEX "loss_incident_found_incident_idx" ON "loss_incident_found" USING btree ("incident_id");
