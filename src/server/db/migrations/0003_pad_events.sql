CREATE TABLE "pad_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"pad_id" integer NOT NULL,
	"seq" integer NOT NULL,
	"route_id" integer NOT NULL REFERENCES "routes"("id"),
	"kind" text NOT NULL,
	"from_number" bigint NOT NULL,
	"to_number" bigint NOT NULL,
	"qty" integer NOT NULL,
	"holder_user_id" integer REFERENCES "users"("id"),
	"holder_branch_id" integer REFERENCES "branches"("id"),
	"counterparty_user_id" integer REFERENCES "users"("id"),
	"counterparty_branch_id" integer REFERENCES "branches"("id"),
	"invoice_id" integer REFERENCES "invoices"("id"),
	"actor_user_id" integer REFERENCES "users"("id"),
	"reason" text,
	"recorded_at" timestamp with time zone NOT NULL,
	"business_date" date NOT NULL,
	"prev_hash" text NOT NULL,
	"hash" text NOT NULL,
	CONSTRAINT "pad_events_range_ck" CHECK ("to_number" >= "from_number" and "qty" = "to_number" - "from_number" + 1),
	CONSTRAINT "pad_events_kind_ck" CHECK ("kind" in ('received', 'opening', 'transfer_out', 'transfer_in', 'used', 'used_reverted', 'cancelled', 'lost'))
);--> statement-breakpoint
CREATE UNIQUE INDEX "pad_events_pad_seq_uq" ON "pad_events" USING btree ("pad_id", "seq");--> statement-breakpoint
CREATE INDEX "pad_events_holder_user_idx" ON "pad_events" USING btree ("holder_user_id", "recorded_at");--> statement-breakpoint
CREATE INDEX "pad_events_holder_branch_idx" ON "pad_events" USING btree ("holder_branch_id", "recorded_at");--> statement-breakpoint
CREATE INDEX "pad_events_recorded_idx" ON "pad_events" USING btree ("recorded_at");--> statement-breakpoint
CREATE INDEX "pad_events_invoice_idx" ON "pad_events" USING btree ("invoice_id");--> statement-breakpoint
CREATE TABLE "raaf_certificates" (
	"id" serial PRIMARY KEY NOT NULL,
	"number" text NOT NULL UNIQUE,
	"month" text NOT NULL,
	"holder_type" text NOT NULL,
	"holder_id" integer NOT NULL,
	"report_json" text NOT NULL,
	"pad_hashes" text NOT NULL,
	"pdf" bytea NOT NULL,
	"certified_by" integer NOT NULL REFERENCES "users"("id"),
	"certified_at" timestamp with time zone DEFAULT now() NOT NULL,
	"reviewed_by" integer REFERENCES "users"("id"),
	"reviewed_at" timestamp with time zone,
	CONSTRAINT "raaf_certificates_holder_type_ck" CHECK ("holder_type" in ('user', 'branch'))
);--> statement-breakpoint
CREATE UNIQUE INDEX "raaf_certificates_holder_month_uq" ON "raaf_certificates" USING btree ("month", "holder_type", "holder_id");--> statement-breakpoint
INSERT INTO "pad_events" ("pad_id", "seq", "route_id", "kind", "from_number", "to_number", "qty", "holder_user_id", "holder_branch_id", "reason", "recorded_at", "business_date", "prev_hash", "hash")
WITH "positions" AS (
	SELECT p."id", g.i, substr(p."series_status", g.i, 1) AS "ch"
	FROM "pads" p CROSS JOIN LATERAL generate_series(1, length(p."series_status")) AS g(i)
), "runs" AS (
	SELECT "id", "ch", min(i) AS "first", max(i) AS "last"
	FROM (SELECT "id", "ch", i, i - row_number() OVER (PARTITION BY "id", "ch" ORDER BY i) AS "grp" FROM "positions") s
	GROUP BY "id", "ch", "grp"
), "planned" AS (
	SELECT p."id" AS "pad_id", 0::bigint AS "ord", 'opening' AS "kind", p."series_from" AS "from_number", p."series_to" AS "to_number", 'Opening balance when the ledger started' AS "reason"
	FROM "pads" p
	UNION ALL
	SELECT r."id", r."first", 'used', p."series_from" + r."first" - 1, p."series_from" + r."last" - 1, NULL
	FROM "runs" r JOIN "pads" p ON p."id" = r."id" WHERE r."ch" = '2'
	UNION ALL
	SELECT r."id", 1000000000 + r."first", CASE WHEN p."pad_status_id" = 4 THEN 'cancelled' ELSE 'lost' END,
		p."series_from" + r."first" - 1, p."series_from" + r."last" - 1,
		coalesce(nullif(p."remarks", ''), CASE WHEN p."pad_status_id" = 4 THEN 'Cancelled' ELSE 'Lost' END)
	FROM "runs" r JOIN "pads" p ON p."id" = r."id" WHERE r."ch" = '1' AND p."pad_status_id" IN (4, 5)
)
SELECT e."pad_id", row_number() OVER (PARTITION BY e."pad_id" ORDER BY e."ord")::int, p."route_id", e."kind", e."from_number", e."to_number",
	(e."to_number" - e."from_number" + 1)::int, p."holder_user_id", p."holder_branch_id", e."reason",
	date_trunc('milliseconds', now()), (date_trunc('milliseconds', now()) AT TIME ZONE 'Asia/Manila')::date, '', ''
FROM "planned" e JOIN "pads" p ON p."id" = e."pad_id";--> statement-breakpoint
DO $$
DECLARE
	r record;
	prev text := '';
	last_pad integer := -1;
	h text;
BEGIN
	FOR r IN SELECT * FROM "pad_events" ORDER BY "pad_id", "seq" LOOP
		IF r."pad_id" <> last_pad THEN
			prev := repeat('0', 64);
			last_pad := r."pad_id";
		END IF;
		h := encode(sha256(convert_to(concat_ws('|', r."pad_id", r."seq", r."kind", r."route_id", r."from_number", r."to_number", r."qty",
			coalesce(r."holder_user_id"::text, ''), coalesce(r."holder_branch_id"::text, ''),
			coalesce(r."counterparty_user_id"::text, ''), coalesce(r."counterparty_branch_id"::text, ''),
			coalesce(r."invoice_id"::text, ''), coalesce(r."actor_user_id"::text, ''),
			encode(convert_to(coalesce(r."reason", ''), 'UTF8'), 'hex'),
			floor(extract(epoch FROM r."recorded_at") * 1000)::bigint, to_char(r."business_date", 'YYYY-MM-DD'), prev), 'UTF8')), 'hex');
		UPDATE "pad_events" SET "prev_hash" = prev, "hash" = h WHERE "id" = r."id";
		prev := h;
	END LOOP;
END $$;--> statement-breakpoint
CREATE FUNCTION "pad_events_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	RAISE EXCEPTION 'pad_events is append-only: record a new event instead';
END $$;--> statement-breakpoint
CREATE TRIGGER "pad_events_no_update_delete" BEFORE UPDATE OR DELETE ON "pad_events" FOR EACH ROW EXECUTE FUNCTION "pad_events_append_only"();--> statement-breakpoint
CREATE TRIGGER "pad_events_no_truncate" BEFORE TRUNCATE ON "pad_events" FOR EACH STATEMENT EXECUTE FUNCTION "pad_events_append_only"();
