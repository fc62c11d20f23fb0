CREATE TABLE "idempotency_keys" (
	"user_id" integer NOT NULL REFERENCES "users"("id"),
	"key" text NOT NULL,
	"operation" text NOT NULL,
	"status" smallint NOT NULL,
	"answer" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "idempotency_keys_pk" PRIMARY KEY("user_id","key"),
	CONSTRAINT "idempotency_keys_key_ck" CHECK (length("key") between 8 and 100)
);--> statement-breakpoint
CREATE TABLE "pending_hand_overs" (
	"invoice_id" integer PRIMARY KEY NOT NULL REFERENCES "invoices"("id"),
	"from_user_id" integer NOT NULL REFERENCES "users"("id"),
	"to_user_id" integer NOT NULL REFERENCES "users"("id"),
	"requested_by" integer NOT NULL REFERENCES "users"("id"),
	"device_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "pending_hand_overs_other_ck" CHECK ("from_user_id" <> "to_user_id")
);--> statement-breakpoint
CREATE INDEX "pending_hand_overs_to_idx" ON "pending_hand_overs" USING btree ("to_user_id");--> statement-breakpoint
ALTER TABLE "activities" ADD COLUMN "confirmed_by" integer REFERENCES "users"("id");--> statement-breakpoint
ALTER TABLE "activities" ADD COLUMN "device_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "pad_events" ADD COLUMN "device_at" timestamp with time zone;
