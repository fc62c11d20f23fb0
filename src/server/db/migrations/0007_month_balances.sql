CREATE TABLE IF NOT EXISTS "raaf_month_closes" (
	"month" text PRIMARY KEY NOT NULL,
	"closed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"balances" integer NOT NULL
);--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "raaf_month_balances" (
	"month" text NOT NULL,
	"holder_type" text NOT NULL,
	"holder_id" integer NOT NULL,
	"pad_id" integer NOT NULL,
	"route_id" integer NOT NULL REFERENCES "routes"("id"),
	"ranges" text NOT NULL,
	CONSTRAINT "raaf_month_balances_pk" PRIMARY KEY ("month", "holder_type", "holder_id", "pad_id"),
	CONSTRAINT "raaf_month_balances_holder_type_ck" CHECK ("holder_type" in ('user', 'branch'))
);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "raaf_month_balances_pad_idx" ON "raaf_month_balances" USING btree ("pad_id", "month");--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "ledger_verified_heads" (
	"pad_id" integer PRIMARY KEY NOT NULL,
	"seq" integer NOT NULL,
	"hash" text NOT NULL,
	"verified_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "ledger_verify_runs" (
	"id" serial PRIMARY KEY NOT NULL,
	"mode" text NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone NOT NULL,
	"pads" integer NOT NULL,
	"events" integer NOT NULL,
	"problems" integer NOT NULL,
	CONSTRAINT "ledger_verify_runs_mode_ck" CHECK ("mode" in ('full', 'incremental'))
);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "pad_events_business_date_idx" ON "pad_events" USING btree ("business_date");
