ALTER TABLE "idempotency_keys" ADD COLUMN "fingerprint" text;
