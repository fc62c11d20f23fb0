CREATE TABLE "pad_custody" (
	"pad_id" integer PRIMARY KEY NOT NULL,
	"issuance_status_id" smallint NOT NULL,
	"holder_user_id" integer,
	"holder_branch_id" integer,
	"locked_by_invoice_id" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
INSERT INTO "pad_custody" ("pad_id", "issuance_status_id", "holder_user_id", "holder_branch_id", "locked_by_invoice_id", "updated_at")
	SELECT "id", "issuance_status_id", "holder_user_id", "holder_branch_id", "locked_by_invoice_id", "updated_at" FROM "pads";--> statement-breakpoint
ALTER TABLE "pad_custody" ADD CONSTRAINT "pad_custody_pad_id_pads_id_fk" FOREIGN KEY ("pad_id") REFERENCES "public"."pads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pad_custody" ADD CONSTRAINT "pad_custody_issuance_status_id_issuance_statuses_id_fk" FOREIGN KEY ("issuance_status_id") REFERENCES "public"."issuance_statuses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pad_custody" ADD CONSTRAINT "pad_custody_holder_user_id_users_id_fk" FOREIGN KEY ("holder_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pad_custody" ADD CONSTRAINT "pad_custody_holder_branch_id_branches_id_fk" FOREIGN KEY ("holder_branch_id") REFERENCES "public"."branches"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "pad_custody_holder_user_idx" ON "pad_custody" USING btree ("holder_user_id");--> statement-breakpoint
CREATE INDEX "pad_custody_holder_branch_idx" ON "pad_custody" USING btree ("holder_branch_id");--> statement-breakpoint
CREATE INDEX "pad_custody_locked_by_invoice_idx" ON "pad_custody" USING btree ("locked_by_invoice_id") WHERE "pad_custody"."locked_by_invoice_id" is not null;--> statement-breakpoint
CREATE INDEX "pad_custody_available_idx" ON "pad_custody" USING btree ("pad_id") WHERE "pad_custody"."issuance_status_id" = 1 and "pad_custody"."locked_by_invoice_id" is null;--> statement-breakpoint
DROP INDEX "pads_open_booklet_user_idx";--> statement-breakpoint
DROP INDEX "pads_open_booklet_branch_idx";--> statement-breakpoint
DROP INDEX "pads_status_idx";--> statement-breakpoint
DROP INDEX "pads_holder_user_idx";--> statement-breakpoint
DROP INDEX "pads_holder_branch_idx";--> statement-breakpoint
DROP INDEX "pads_locked_by_invoice_idx";--> statement-breakpoint
ALTER TABLE "pads" DROP COLUMN "issuance_status_id";--> statement-breakpoint
ALTER TABLE "pads" DROP COLUMN "holder_user_id";--> statement-breakpoint
ALTER TABLE "pads" DROP COLUMN "holder_branch_id";--> statement-breakpoint
ALTER TABLE "pads" DROP COLUMN "locked_by_invoice_id";--> statement-breakpoint
CREATE INDEX "pads_open_booklet_idx" ON "pads" USING btree ("route_id","number") WHERE "pads"."pad_status_id" = 2;
