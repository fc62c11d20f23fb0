CREATE TABLE "operator_identity" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"registered_name" text NOT NULL,
	"trade_name" text,
	"tin" text NOT NULL,
	"branch_code" text NOT NULL,
	"address" text NOT NULL,
	"signatories" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"logo" "bytea",
	"logo_updated_at" timestamp with time zone,
	"updated_by" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "operator_identity_one_row" CHECK ("operator_identity"."id" = 1),
	CONSTRAINT "operator_identity_tin" CHECK ("operator_identity"."tin" ~ '^[0-9]{3}-[0-9]{3}-[0-9]{3}$'),
	CONSTRAINT "operator_identity_branch_code" CHECK ("operator_identity"."branch_code" ~ '^[0-9]{3,5}$'),
	CONSTRAINT "operator_identity_logo_size" CHECK (octet_length("operator_identity"."logo") <= 262144)
);
--> statement-breakpoint
ALTER TABLE "operator_identity" ADD CONSTRAINT "operator_identity_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
CREATE TABLE "document_identities" (
	"kind" text NOT NULL,
	"document_id" integer NOT NULL,
	"snapshot" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "document_identities_pk" PRIMARY KEY("kind","document_id")
);
