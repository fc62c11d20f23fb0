CREATE FUNCTION "loss_incidents_one_way"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'UPDATE' AND OLD."status" = 'reported' AND NEW."status" IN ('confirmed', 'rejected') AND OLD."decided_by" IS NULL AND NEW."decided_by" IS NOT NULL
		AND (NEW."id", NEW."number", NEW."year", NEW."seq", NEW."place", NEW."occurred_at", NEW."circumstances", NEW."reported_by", NEW."reported_at")
			IS NOT DISTINCT FROM (OLD."id", OLD."number", OLD."year", OLD."seq", OLD."place", OLD."occurred_at", OLD."circumstances", OLD."reported_by", OLD."reported_at") THEN
		RETURN NEW;
	END IF;
	RAISE EXCEPTION 'loss_incidents is append-only: an incident is only ever decided, once';
END $$;--> statement-breakpoint
CREATE TRIGGER "loss_incidents_one_way" BEFORE UPDATE OR DELETE ON "loss_incidents" FOR EACH ROW EXECUTE FUNCTION "loss_incidents_one_way"();--> statement-breakpoint
CREATE TRIGGER "loss_incidents_no_truncate" BEFORE TRUNCATE ON "loss_incidents" FOR EACH STATEMENT EXECUTE FUNCTION "loss_incidents_one_way"();--> statement-breakpoint
CREATE FUNCTION "loss_incident_found_one_way"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'UPDATE' AND OLD."confirmed_by" IS NULL AND NEW."confirmed_by" IS NOT NULL AND NEW."confirmed_at" IS NOT NULL
		AND (NEW."id", NEW."incident_id", NEW."pad_id", NEW."from_number", NEW."to_number", NEW."reason", NEW."recorded_by", NEW."recorded_at")
			IS NOT DISTINCT FROM (OLD."id", OLD."incident_id", OLD."pad_id", OLD."from_number", OLD."to_number", OLD."reason", OLD."recorded_by", OLD."recorded_at") THEN
		RETURN NEW;
	END IF;
	RAISE EXCEPTION 'loss_incident_found is append-only: a found record is only ever confirmed, once';
END $$;--> statement-breakpoint
CREATE TRIGGER "loss_incident_found_one_way" BEFORE UPDATE OR DELETE ON "loss_incident_found" FOR EACH ROW EXECUTE FUNCTION "loss_incident_found_one_way"();--> statement-breakpoint
CREATE TRIGGER "loss_incident_found_no_truncate" BEFORE TRUNCATE ON "loss_incident_found" FOR EACH STATEMENT EXECUTE FUNCTION "loss_incident_found_one_way"();--> statement-breakpoint
CREATE FUNCTION "loss_incident_parts_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	RAISE EXCEPTION '% is append-only: an incident''s pads and papers are never changed', TG_TABLE_NAME;
END $$;--> statement-breakpoint
CREATE TRIGGER "loss_incident_pads_append_only" BEFORE UPDATE OR DELETE ON "loss_incident_pads" FOR EACH ROW EXECUTE FUNCTION "loss_incident_parts_append_only"();--> statement-breakpoint
CREATE TRIGGER "loss_incident_pads_no_truncate" BEFORE TRUNCATE ON "loss_incident_pads" FOR EACH STATEMENT EXECUTE FUNCTION "loss_incident_parts_append_only"();--> statement-breakpoint
CREATE TRIGGER "loss_incident_attachments_append_only" BEFORE UPDATE OR DELETE ON "loss_incident_attachments" FOR EACH ROW EXECUTE FUNCTION "loss_incident_parts_append_only"();--> statement-breakpoint
CREATE TRIGGER "loss_incident_attachments_no_truncate" BEFORE TRUNCATE ON "loss_incident_attachments" FOR EACH STATEMENT EXECUTE FUNCTION "loss_incident_parts_append_only"();
