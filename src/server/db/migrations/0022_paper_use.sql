CREATE TABLE "establishments" (
	"branch_id" integer PRIMARY KEY NOT NULL REFERENCES "branches"("id"),
	"bir_branch_code" text NOT NULL,
	"covered" boolean DEFAULT false NOT NULL,
	"e_invoicing_since" date,
	"permit_reference" text,
	"invoicing_system" text,
	"updated_by" integer REFERENCES "users"("id"),
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "establishments_branch_code_ck" CHECK ("establishments"."bir_branch_code" ~ '^[0-9]{3,5}$'),
	CONSTRAINT "establishments_covered_since_ck" CHECK (NOT "establishments"."covered" OR "establishments"."e_invoicing_since" IS NOT NULL)
);--> statement-breakpoint
ALTER TABLE "registered_series" ADD COLUMN "role" text DEFAULT 'regular' NOT NULL;--> statement-breakpoint
ALTER TABLE "registered_series" ADD CONSTRAINT "registered_series_role_ck" CHECK ("registered_series"."role" in ('regular', 'contingency', 'converted', 'supplementary', 'retired'));--> statement-breakpoint
CREATE TABLE "registered_series_roles" (
	"id" serial PRIMARY KEY NOT NULL,
	"registered_series_id" integer NOT NULL REFERENCES "registered_series"("id"),
	"role" text NOT NULL,
	"previous_role" text NOT NULL,
	"reason" text NOT NULL,
	"changed_by" integer NOT NULL REFERENCES "users"("id"),
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "registered_series_roles_role_ck" CHECK ("registered_series_roles"."role" in ('regular', 'contingency', 'converted', 'supplementary', 'retired'))
);--> statement-breakpoint
CREATE INDEX "registered_series_roles_series_idx" ON "registered_series_roles" USING btree ("registered_series_id","changed_at");--> statement-breakpoint
CREATE TABLE "outages" (
	"id" serial PRIMARY KEY NOT NULL,
	"branch_id" integer NOT NULL REFERENCES "branches"("id"),
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone,
	"cause" text NOT NULL,
	"details" text,
	"notice_reference" text,
	"declared_by" integer NOT NULL REFERENCES "users"("id"),
	"closed_by" integer REFERENCES "users"("id"),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "outages_cause_ck" CHECK ("outages"."cause" in ('power', 'network', 'invoicing_system', 'tax_bureau_system', 'other')),
	CONSTRAINT "outages_window_ck" CHECK ("outages"."ends_at" IS NULL OR "outages"."ends_at" > "outages"."starts_at")
);--> statement-breakpoint
ALTER TABLE "outages" ADD CONSTRAINT "outages_branch_window_excl" EXCLUDE USING gist ("branch_id" WITH =, tstzrange("starts_at", "ends_at", '[)') WITH &&);--> statement-breakpoint
CREATE TABLE "outage_evidence" (
	"id" serial PRIMARY KEY NOT NULL,
	"outage_id" integer NOT NULL REFERENCES "outages"("id"),
	"file_name" text NOT NULL,
	"content_type" text NOT NULL,
	"bytes" bytea NOT NULL,
	"uploaded_by" integer NOT NULL REFERENCES "users"("id"),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "outage_evidence_size_ck" CHECK (octet_length("outage_evidence"."bytes") <= 5242880)
);--> statement-breakpoint
CREATE INDEX "outage_evidence_outage_idx" ON "outage_evidence" USING btree ("outage_id");--> statement-breakpoint
CREATE TABLE "paper_uses" (
	"id" serial PRIMARY KEY NOT NULL,
	"branch_id" integer NOT NULL REFERENCES "branches"("id"),
	"pad_id" integer NOT NULL REFERENCES "pads"("id"),
	"route_id" integer NOT NULL REFERENCES "routes"("id"),
	"registered_series_id" integer REFERENCES "registered_series"("id"),
	"series_role" text NOT NULL,
	"number_from" bigint NOT NULL,
	"number_to" bigint NOT NULL,
	"holder_user_id" integer REFERENCES "users"("id"),
	"used_at" timestamp with time zone NOT NULL,
	"business_date" date NOT NULL,
	"recorded_by" integer NOT NULL REFERENCES "users"("id"),
	"outage_id" integer REFERENCES "outages"("id"),
	"state" text NOT NULL,
	"reason_code" text,
	"reason_text" text,
	"decided_by" integer REFERENCES "users"("id"),
	"decided_at" timestamp with time zone,
	"undone_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "paper_uses_range_ck" CHECK ("paper_uses"."number_to" >= "paper_uses"."number_from"),
	CONSTRAINT "paper_uses_state_ck" CHECK ("paper_uses"."state" in ('linked', 'open', 'justified', 'rejected')),
	CONSTRAINT "paper_uses_linked_ck" CHECK (("paper_uses"."state" = 'linked') = ("paper_uses"."outage_id" IS NOT NULL)),
	CONSTRAINT "paper_uses_decided_ck" CHECK ("paper_uses"."state" NOT IN ('justified', 'rejected') OR ("paper_uses"."decided_by" IS NOT NULL AND "paper_uses"."decided_at" IS NOT NULL AND "paper_uses"."reason_code" IS NOT NULL))
);--> statement-breakpoint
CREATE INDEX "paper_uses_branch_used_idx" ON "paper_uses" USING btree ("branch_id","used_at");--> statement-breakpoint
CREATE INDEX "paper_uses_outage_idx" ON "paper_uses" USING btree ("outage_id");--> statement-breakpoint
CREATE INDEX "paper_uses_pad_idx" ON "paper_uses" USING btree ("pad_id","number_from");--> statement-breakpoint
CREATE INDEX "paper_uses_open_idx" ON "paper_uses" USING btree ("holder_user_id","business_date") WHERE "paper_uses"."state" = 'open' AND "paper_uses"."undone_at" IS NULL;--> statement-breakpoint
CREATE TABLE "replacement_einvoices" (
	"id" serial PRIMARY KEY NOT NULL,
	"outage_id" integer NOT NULL REFERENCES "outages"("id"),
	"pad_id" integer NOT NULL REFERENCES "pads"("id"),
	"paper_number" bigint NOT NULL,
	"einvoice_number" text NOT NULL,
	"transmitted_on" date NOT NULL,
	"entered_by" integer NOT NULL REFERENCES "users"("id"),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE UNIQUE INDEX "replacement_einvoices_paper_uq" ON "replacement_einvoices" USING btree ("pad_id","paper_number");--> statement-breakpoint
CREATE INDEX "replacement_einvoices_outage_idx" ON "replacement_einvoices" USING btree ("outage_id");
