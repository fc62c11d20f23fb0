CREATE INDEX IF NOT EXISTS "pads_locked_by_invoice_idx" ON "pads" USING btree ("locked_by_invoice_id") WHERE "locked_by_invoice_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "pads_route_id_idx" ON "pads" USING btree ("route_id","id");--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "pad_id_blocks" (
	"route_id" integer NOT NULL,
	"block" integer NOT NULL,
	"pads" integer NOT NULL,
	CONSTRAINT "pad_id_blocks_pk" PRIMARY KEY("route_id","block")
);--> statement-breakpoint
CREATE OR REPLACE FUNCTION "pad_id_blocks_add"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO pad_id_blocks (route_id, block, pads)
	SELECT route_id, id >> 10, count(*)::int FROM new_pads GROUP BY 1, 2 ORDER BY 1, 2
	ON CONFLICT (route_id, block) DO UPDATE SET pads = pad_id_blocks.pads + excluded.pads;
	RETURN NULL;
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "pad_id_blocks_remove"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	UPDATE pad_id_blocks b SET pads = b.pads - d.n
	FROM (SELECT route_id, id >> 10 AS block, count(*)::int AS n FROM old_pads GROUP BY 1, 2 ORDER BY 1, 2) d
	WHERE b.route_id = d.route_id AND b.block = d.block;
	RETURN NULL;
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "pad_id_blocks_move"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	UPDATE pad_id_blocks SET pads = pads - 1 WHERE route_id = OLD.route_id AND block = OLD.id >> 10;
	INSERT INTO pad_id_blocks (route_id, block, pads) VALUES (NEW.route_id, NEW.id >> 10, 1)
	ON CONFLICT (route_id, block) DO UPDATE SET pads = pad_id_blocks.pads + 1;
	RETURN NULL;
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "pad_id_blocks_clear"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	DELETE FROM pad_id_blocks;
	RETURN NULL;
END $$;--> statement-breakpoint
DROP TRIGGER IF EXISTS "pads_id_blocks_insert" ON "pads";--> statement-breakpoint
CREATE TRIGGER "pads_id_blocks_insert" AFTER INSERT ON "pads" REFERENCING NEW TABLE AS new_pads FOR EACH STATEMENT EXECUTE FUNCTION "pad_id_blocks_add"();--> statement-breakpoint
DROP TRIGGER IF EXISTS "pads_id_blocks_delete" ON "pads";--> statement-breakpoint
CREATE TRIGGER "pads_id_blocks_delete" AFTER DELETE ON "pads" REFERENCING OLD TABLE AS old_pads FOR EACH STATEMENT EXECUTE FUNCTION "pad_id_blocks_remove"();--> statement-breakpoint
DROP TRIGGER IF EXISTS "pads_id_blocks_move" ON "pads";--> statement-breakpoint
CREATE TRIGGER "pads_id_blocks_move" AFTER UPDATE OF "route_id", "id" ON "pads" FOR EACH ROW WHEN (OLD.route_id IS DISTINCT FROM NEW.route_id OR OLD.id <> NEW.id) EXECUTE FUNCTION "pad_id_blocks_move"();--> statement-breakpoint
DROP TRIGGER IF EXISTS "pads_id_blocks_truncate" ON "pads";--> statement-breakpoint
CREATE TRIGGER "pads_id_blocks_truncate" AFTER TRUNCATE ON "pads" FOR EACH STATEMENT EXECUTE FUNCTION "pad_id_blocks_clear"();--> statement-breakpoint
DELETE FROM "pad_id_blocks";--> statement-breakpoint
INSERT INTO "pad_id_blocks" ("route_id", "block", "pads") SELECT "route_id", "id" >> 10, count(*)::int FROM "pads" GROUP BY 1, 2;--> statement-breakpoint
ANALYZE "pads";
