CREATE OR REPLACE FUNCTION "pad_series_suffixes"("series_from" bigint, "series_to" bigint) RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
	SELECT array_to_tsvector(array(SELECT substr(s, i) FROM (SELECT series_from::text || '-' || series_to::text) AS x(s), generate_series(1, length(s)) AS g(i)))
$$;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "pads_series_suffix_gin" ON "pads" USING gin ("pad_series_suffixes"("series_from", "series_to"));--> statement-breakpoint
ALTER INDEX "pads_series_suffix_gin" ALTER COLUMN 1 SET STATISTICS 0;--> statement-breakpoint
DROP INDEX IF EXISTS "pads_series_trgm";
