ALTER TABLE "agents" ADD COLUMN "contact_name" text;--> statement-breakpoint
ALTER TABLE "agents" ADD COLUMN "commission_percent" numeric(5, 2);--> statement-breakpoint
ALTER TABLE "agents" ADD CONSTRAINT "agents_commission_percent_check" CHECK ("agents"."commission_percent" between 0 and 100);