CREATE TABLE IF NOT EXISTS "ledger_checks" (
	"id" serial PRIMARY KEY NOT NULL,
	"mode" text NOT NULL,
	"source" text NOT NULL,
	"ran_by" text NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone NOT NULL,
	"ok" boolean NOT NULL,
	"pads" integer NOT NULL,
	"events" integer NOT NULL,
	"certificates" integer NOT NULL,
	"problems" integer NOT NULL,
	"problem_lines" text[] NOT NULL,
	CONSTRAINT "ledger_checks_mode_ck" CHECK ("mode" in ('full', 'incremental')),
	CONSTRAINT "ledger_checks_source_ck" CHECK ("source" in ('schedule', 'command'))
);
