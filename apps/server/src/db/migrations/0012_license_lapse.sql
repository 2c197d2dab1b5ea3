ALTER TABLE "stores" ADD COLUMN "license_lapsed_on" date;--> statement-breakpoint
ALTER TABLE "billing_runs" ADD COLUMN "licenses_lapsed" integer DEFAULT 0 NOT NULL;