ALTER TABLE "raaf_certificates" ADD COLUMN "content_hash" text;--> statement-breakpoint
UPDATE "raaf_certificates" SET "content_hash" = encode(sha256(convert_to(concat_ws('|', "number", "month", "holder_type", "holder_id",
	encode(sha256(convert_to("report_json", 'UTF8')), 'hex'), encode(sha256(convert_to("pad_hashes", 'UTF8')), 'hex'), encode(sha256("pdf"), 'hex'),
	"certified_by", floor(extract(epoch FROM "certified_at") * 1000)::bigint), 'UTF8')), 'hex');--> statement-breakpoint
ALTER TABLE "raaf_certificates" ALTER COLUMN "content_hash" SET NOT NULL;--> statement-breakpoint
CREATE FUNCTION "raaf_certificates_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'UPDATE' AND OLD."reviewed_at" IS NULL AND NEW."reviewed_at" IS NOT NULL AND NEW."reviewed_by" IS NOT NULL
		AND (NEW."id", NEW."number", NEW."month", NEW."holder_type", NEW."holder_id", NEW."report_json", NEW."pad_hashes", NEW."pdf", NEW."certified_by", NEW."certified_at", NEW."content_hash")
			IS NOT DISTINCT FROM (OLD."id", OLD."number", OLD."month", OLD."holder_type", OLD."holder_id", OLD."report_json", OLD."pad_hashes", OLD."pdf", OLD."certified_by", OLD."certified_at", OLD."content_hash") THEN
		RETURN NEW;
	END IF;
	RAISE EXCEPTION 'raaf_certificates is append-only: a certificate is only ever marked reviewed, once';
END $$;--> statement-breakpoint
CREATE TRIGGER "raaf_certificates_one_way" BEFORE UPDATE OR DELETE ON "raaf_certificates" FOR EACH ROW EXECUTE FUNCTION "raaf_certificates_append_only"();--> statement-breakpoint
CREATE TRIGGER "raaf_certificates_no_truncate" BEFORE TRUNCATE ON "raaf_certificates" FOR EACH STATEMENT EXECUTE FUNCTION "raaf_certificates_append_only"();--> statement-breakpoint
CREATE FUNCTION "sessions_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM pg_notify('padtrack_sessions', '');
	RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "access_tokens_sessions_changed" AFTER UPDATE OR DELETE ON "access_tokens" FOR EACH ROW EXECUTE FUNCTION "sessions_changed"();--> statement-breakpoint
CREATE TRIGGER "users_sessions_changed" AFTER UPDATE ON "users" FOR EACH ROW
	WHEN (OLD."role_id" IS DISTINCT FROM NEW."role_id" OR OLD."branch_id" IS DISTINCT FROM NEW."branch_id" OR OLD."user_status_id" IS DISTINCT FROM NEW."user_status_id"
		OR OLD."email" IS DISTINCT FROM NEW."email" OR OLD."first_name" IS DISTINCT FROM NEW."first_name" OR OLD."middle_name" IS DISTINCT FROM NEW."middle_name"
		OR OLD."last_name" IS DISTINCT FROM NEW."last_name" OR OLD."badge_version" IS DISTINCT FROM NEW."badge_version")
	EXECUTE FUNCTION "sessions_changed"();--> statement-breakpoint
CREATE TRIGGER "users_deleted_sessions_changed" AFTER DELETE ON "users" FOR EACH ROW EXECUTE FUNCTION "sessions_changed"();--> statement-breakpoint
CREATE TABLE "limit_hits" (
	"key" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE INDEX "limit_hits_key_at_idx" ON "limit_hits" USING btree ("key", "at");--> statement-breakpoint
CREATE TABLE "limit_windows" (
	"key" text PRIMARY KEY NOT NULL,
	"hits" integer NOT NULL,
	"reset_at" timestamp with time zone NOT NULL
);--> statement-breakpoint
CREATE TABLE "job_runs" (
	"name" text NOT NULL,
	"period" text NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"instance" text NOT NULL,
	CONSTRAINT "job_runs_pk" PRIMARY KEY ("name", "period")
);
