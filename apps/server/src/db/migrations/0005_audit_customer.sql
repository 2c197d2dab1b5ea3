ALTER TABLE "audit_log" ADD COLUMN "customer_id" integer;--> statement-breakpoint
CREATE INDEX "audit_log_customer_idx" ON "audit_log" USING btree ("customer_id","at");