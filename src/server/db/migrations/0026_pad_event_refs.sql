-- Issue 39 point 4: the nine foreign keys of pad_events checked each event row on its own (about six lookups a row,
-- 12,000 for the 2,000 events of a 1,000-pad acceptance, two thirds of its insert). The same rule, checked once per
-- statement: an insert locks the rows it names FOR KEY SHARE (as a foreign key does) and refuses a key that is not
-- there; deleting a user, branch, invoice, route or import, or changing its id, is refused while an event names it.
-- Errors keep the foreign keys' SQLSTATE (23503) and constraint names.
CREATE FUNCTION "pad_events_refs_missing"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  bad record;
BEGIN
  PERFORM 1 FROM "users" t WHERE t."id" IN (
    SELECT "holder_user_id" FROM new_events UNION SELECT "counterparty_user_id" FROM new_events
    UNION SELECT "actor_user_id" FROM new_events UNION SELECT "approver_user_id" FROM new_events) FOR KEY SHARE OF t;
  PERFORM 1 FROM "branches" t WHERE t."id" IN (
    SELECT "holder_branch_id" FROM new_events UNION SELECT "counterparty_branch_id" FROM new_events) FOR KEY SHARE OF t;
  PERFORM 1 FROM "invoices" t WHERE t."id" IN (SELECT "invoice_id" FROM new_events) FOR KEY SHARE OF t;
  PERFORM 1 FROM "routes" t WHERE t."id" IN (SELECT "route_id" FROM new_events) FOR KEY SHARE OF t;
  PERFORM 1 FROM "imports" t WHERE t."id" IN (SELECT "import_id" FROM new_events) FOR KEY SHARE OF t;
  SELECT c.col, c.tab, c.v INTO bad FROM (
    SELECT 'holder_user_id' AS col, 'users' AS tab, "holder_user_id" AS v FROM new_events
    UNION SELECT 'counterparty_user_id', 'users', "counterparty_user_id" FROM new_events
    UNION SELECT 'actor_user_id', 'users', "actor_user_id" FROM new_events
    UNION SELECT 'approver_user_id', 'users', "approver_user_id" FROM new_events
  ) c WHERE c.v IS NOT NULL AND NOT EXISTS (SELECT 1 FROM "users" t WHERE t."id" = c.v) LIMIT 1;
  IF NOT FOUND THEN
    SELECT c.col, c.tab, c.v INTO bad FROM (
      SELECT 'holder_branch_id' AS col, 'branches' AS tab, "holder_branch_id" AS v FROM new_events
      UNION SELECT 'counterparty_branch_id', 'branches', "counterparty_branch_id" FROM new_events
    ) c WHERE c.v IS NOT NULL AND NOT EXISTS (SELECT 1 FROM "branches" t WHERE t."id" = c.v) LIMIT 1;
  END IF;
  IF NOT FOUND THEN
    SELECT 'invoice_id' AS col, 'invoices' AS tab, n."invoice_id" AS v INTO bad FROM new_events n
    WHERE n."invoice_id" IS NOT NULL AND NOT EXISTS (SELECT 1 FROM "invoices" t WHERE t."id" = n."invoice_id") LIMIT 1;
  END IF;
  IF NOT FOUND THEN
    SELECT 'route_id' AS col, 'routes' AS tab, n."route_id" AS v INTO bad FROM new_events n
    WHERE NOT EXISTS (SELECT 1 FROM "routes" t WHERE t."id" = n."route_id") LIMIT 1;
  END IF;
  IF NOT FOUND THEN
    SELECT 'import_id' AS col, 'imports' AS tab, n."import_id" AS v INTO bad FROM new_events n
    WHERE n."import_id" IS NOT NULL AND NOT EXISTS (SELECT 1 FROM "imports" t WHERE t."id" = n."import_id") LIMIT 1;
  END IF;
  IF FOUND THEN
    RAISE EXCEPTION 'insert or update on table "pad_events" violates foreign key constraint "%"', 'pad_events_' || bad.col || '_fkey'
      USING ERRCODE = 'foreign_key_violation', TABLE = 'pad_events', CONSTRAINT = 'pad_events_' || bad.col || '_fkey',
        DETAIL = format('Key (%s)=(%s) is not present in table "%s".', bad.col, bad.v, bad.tab);
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "pad_events_refs" AFTER INSERT ON "pad_events" REFERENCING NEW TABLE AS new_events
  FOR EACH STATEMENT EXECUTE FUNCTION "pad_events_refs_missing"();--> statement-breakpoint
-- The first pad_events column naming one of the ids of the table, or null; one pass over the events for a user.
CREATE FUNCTION "pad_events_naming"(tab text, ids integer[]) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  col text;
BEGIN
  IF tab = 'users' THEN
    SELECT CASE WHEN e."holder_user_id" = ANY(ids) THEN 'holder_user_id' WHEN e."counterparty_user_id" = ANY(ids) THEN 'counterparty_user_id'
      WHEN e."actor_user_id" = ANY(ids) THEN 'actor_user_id' ELSE 'approver_user_id' END INTO col
    FROM "pad_events" e WHERE e."holder_user_id" = ANY(ids) OR e."counterparty_user_id" = ANY(ids) OR e."actor_user_id" = ANY(ids)
      OR e."approver_user_id" = ANY(ids) LIMIT 1;
  ELSIF tab = 'branches' THEN
    SELECT CASE WHEN e."holder_branch_id" = ANY(ids) THEN 'holder_branch_id' ELSE 'counterparty_branch_id' END INTO col
    FROM "pad_events" e WHERE e."holder_branch_id" = ANY(ids) OR e."counterparty_branch_id" = ANY(ids) LIMIT 1;
  ELSIF tab = 'invoices' THEN
    SELECT 'invoice_id' INTO col FROM "pad_events" e WHERE e."invoice_id" = ANY(ids) LIMIT 1;
  ELSIF tab = 'routes' THEN
    SELECT 'route_id' INTO col FROM "pad_events" e WHERE e."route_id" = ANY(ids) LIMIT 1;
  ELSIF tab = 'imports' THEN
    SELECT 'import_id' INTO col FROM "pad_events" e WHERE e."import_id" = ANY(ids) LIMIT 1;
  END IF;
  RETURN col;
END $$;--> statement-breakpoint
CREATE FUNCTION "pad_events_keep_named"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids integer[];
  col text;
BEGIN
  IF TG_LEVEL = 'ROW' THEN
    ids := ARRAY[OLD."id"];
  ELSE
    SELECT array_agg("id") INTO ids FROM gone;
  END IF;
  col := CASE WHEN ids IS NULL THEN NULL ELSE "pad_events_naming"(TG_TABLE_NAME, ids) END;
  IF col IS NOT NULL THEN
    RAISE EXCEPTION 'update or delete on table "%" violates foreign key constraint "%" on table "pad_events"', TG_TABLE_NAME, 'pad_events_' || col || '_fkey'
      USING ERRCODE = 'foreign_key_violation', TABLE = 'pad_events', CONSTRAINT = 'pad_events_' || col || '_fkey',
        DETAIL = format('Key is still referenced from table "pad_events".');
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "pad_events_keep_users" AFTER DELETE ON "users" REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION "pad_events_keep_named"();--> statement-breakpoint
CREATE TRIGGER "pad_events_keep_user_ids" AFTER UPDATE OF "id" ON "users" FOR EACH ROW WHEN (OLD."id" IS DISTINCT FROM NEW."id") EXECUTE FUNCTION "pad_events_keep_named"();--> statement-breakpoint
CREATE TRIGGER "pad_events_keep_branches" AFTER DELETE ON "branches" REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION "pad_events_keep_named"();--> statement-breakpoint
CREATE TRIGGER "pad_events_keep_branch_ids" AFTER UPDATE OF "id" ON "branches" FOR EACH ROW WHEN (OLD."id" IS DISTINCT FROM NEW."id") EXECUTE FUNCTION "pad_events_keep_named"();--> statement-breakpoint
CREATE TRIGGER "pad_events_keep_invoices" AFTER DELETE ON "invoices" REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION "pad_events_keep_named"();--> statement-breakpoint
CREATE TRIGGER "pad_events_keep_invoice_ids" AFTER UPDATE OF "id" ON "invoices" FOR EACH ROW WHEN (OLD."id" IS DISTINCT FROM NEW."id") EXECUTE FUNCTION "pad_events_keep_named"();--> statement-breakpoint
CREATE TRIGGER "pad_events_keep_routes" AFTER DELETE ON "routes" REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION "pad_events_keep_named"();--> statement-breakpoint
CREATE TRIGGER "pad_events_keep_route_ids" AFTER UPDATE OF "id" ON "routes" FOR EACH ROW WHEN (OLD."id" IS DISTINCT FROM NEW."id") EXECUTE FUNCTION "pad_events_keep_named"();--> statement-breakpoint
CREATE TRIGGER "pad_events_keep_imports" AFTER DELETE ON "imports" REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION "pad_events_keep_named"();--> statement-breakpoint
CREATE TRIGGER "pad_events_keep_import_ids" AFTER UPDATE OF "id" ON "imports" FOR EACH ROW WHEN (OLD."id" IS DISTINCT FROM NEW."id") EXECUTE FUNCTION "pad_events_keep_named"();--> statement-breakpoint
ALTER TABLE "pad_events" DROP CONSTRAINT "pad_events_route_id_fkey";--> statement-breakpoint
ALTER TABLE "pad_events" DROP CONSTRAINT "pad_events_holder_user_id_fkey";--> statement-breakpoint
ALTER TABLE "pad_events" DROP CONSTRAINT "pad_events_holder_branch_id_fkey";--> statement-breakpoint
ALTER TABLE "pad_events" DROP CONSTRAINT "pad_events_counterparty_user_id_fkey";--> statement-breakpoint
ALTER TABLE "pad_events" DROP CONSTRAINT "pad_events_counterparty_branch_id_fkey";--> statement-breakpoint
ALTER TABLE "pad_events" DROP CONSTRAINT "pad_events_invoice_id_fkey";--> statement-breakpoint
ALTER TABLE "pad_events" DROP CONSTRAINT "pad_events_actor_user_id_fkey";--> statement-breakpoint
ALTER TABLE "pad_events" DROP CONSTRAINT "pad_events_approver_user_id_fkey";--> statement-breakpoint
ALTER TABLE "pad_events" DROP CONSTRAINT "pad_events_import_id_fkey";
