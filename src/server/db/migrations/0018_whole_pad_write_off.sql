CREATE FUNCTION "pads_whole_write_off_stays"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	RAISE EXCEPTION 'pad % is written off as a whole (Cancelled or Lost): its numbers do not change until it is reinstated', OLD."id";
END $$;--> statement-breakpoint
CREATE TRIGGER "pads_whole_write_off_stays" BEFORE UPDATE OF "series_status" ON "pads" FOR EACH ROW
	WHEN (OLD."pad_status_id" IN (4, 5) AND NEW."series_status" IS DISTINCT FROM OLD."series_status")
	EXECUTE FUNCTION "pads_whole_write_off_stays"();
