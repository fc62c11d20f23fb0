DO $$
DECLARE
	clashes text;
BEGIN
	SELECT string_agg(format('%s "%s" (ids %s)', kind, name, ids), '; ' ORDER BY kind, name) INTO clashes
	FROM (
		SELECT 'company' AS kind, min(name) AS name, string_agg(id::text, ', ' ORDER BY id) AS ids FROM companies GROUP BY lower(name) HAVING count(*) > 1
		UNION ALL
		SELECT 'branch', min(name), string_agg(id::text, ', ' ORDER BY id) FROM branches GROUP BY lower(name) HAVING count(*) > 1
		UNION ALL
		SELECT 'location', min(name), string_agg(id::text, ', ' ORDER BY id) FROM locations GROUP BY lower(name) HAVING count(*) > 1
		UNION ALL
		SELECT 'route of company ' || company_id, min(name), string_agg(id::text, ', ' ORDER BY id) FROM routes GROUP BY company_id, lower(name) HAVING count(*) > 1
	) duplicates;
	IF clashes IS NOT NULL THEN
		RAISE EXCEPTION 'Migration 0001_unique_reference_names cannot make names unique: rename or merge these duplicates first: %', clashes;
	END IF;
END $$;--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "companies_name_lower_uq" ON "companies" USING btree (lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "branches_name_lower_uq" ON "branches" USING btree (lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "locations_name_lower_uq" ON "locations" USING btree (lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "routes_company_name_lower_uq" ON "routes" USING btree ("company_id",lower("name"));
