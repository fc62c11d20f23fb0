ALTER TABLE "loss_incidents" ADD COLUMN "no_affidavit_reason" text;--> statement-breakpoint
ALTER TABLE "invoice_pads" ADD COLUMN "left_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "invoice_pads" ADD COLUMN "lost_incident_id" integer;--> statement-breakpoint
ALTER TABLE "invoice_pads" ADD CONSTRAINT "invoice_pads_lost_incident_id_loss_incidents_id_fk" FOREIGN KEY ("lost_incident_id") REFERENCES "public"."loss_incidents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_pads" ADD CONSTRAINT "invoice_pads_left_ck" CHECK (("invoice_pads"."left_at" is null) = ("invoice_pads"."lost_incident_id" is null));
