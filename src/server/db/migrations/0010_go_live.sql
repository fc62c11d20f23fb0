CREATE TABLE "imports" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"dry_run" boolean NOT NULL,
	"applied" boolean NOT NULL,
	"file_name" text NOT NULL,
	"totals" text NOT NULL,
	"errors" text NOT NULL,
	"created_by" integer REFERENCES "users"("id"),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "imports_kind_ck" CHECK ("kind" in ('pads', 'users'))
);--> statement-breakpoint
CREATE INDEX "imports_created_idx" ON "imports" USING btree ("created_at");--> statement-breakpoint
CREATE TABLE "registered_series" (
	"id" serial PRIMARY KEY NOT NULL,
	"route_id" integer NOT NULL REFERENCES "routes"("id"),
	"branch_id" integer NOT NULL REFERENCES "branches"("id"),
	"form_type" text NOT NULL,
	"atp_number" text NOT NULL,
	"atp_date" date NOT NULL,
	"printer" text NOT NULL,
	"delivery_date" date,
	"series_from" bigint NOT NULL,
	"series_to" bigint NOT NULL,
	"remarks" text,
	"created_by" integer REFERENCES "users"("id"),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "registered_series_range_ck" CHECK ("series_to" >= "series_from"),
	CONSTRAINT "registered_series_form_type_ck" CHECK ("form_type" in ('invoice', 'converted_receipt', 'supplementary'))
);--> statement-breakpoint
CREATE INDEX "registered_series_route_idx" ON "registered_series" USING btree ("route_id");--> statement-breakpoint
CREATE INDEX "registered_series_branch_idx" ON "registered_series" USING btree ("branch_id");--> statement-breakpoint
ALTER TABLE "registered_series" ADD CONSTRAINT "registered_series_route_range_excl" EXCLUDE USING gist ("route_id" WITH =, int8range("series_from", "series_to", '[]') WITH &&);--> statement-breakpoint
ALTER TABLE "pads" ADD COLUMN "registered_series_id" integer REFERENCES "registered_series"("id");--> statement-breakpoint
CREATE INDEX "pads_registered_series_idx" ON "pads" USING btree ("registered_series_id") WHERE "registered_series_id" is not null;--> statement-breakpoint
ALTER TABLE "pad_events" ADD COLUMN "import_id" integer REFERENCES "imports"("id");
