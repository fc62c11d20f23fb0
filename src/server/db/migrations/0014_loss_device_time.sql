ALTER TABLE "loss_incidents" ADD COLUMN "device_at" timestamp with time zone;
