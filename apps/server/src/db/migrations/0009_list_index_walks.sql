DROP INDEX IF EXISTS "invoices_customer_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "invoices_store_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "transactions_customer_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "transactions_store_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "transactions_status_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "mail_log_created_idx";--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "mail_log_template_created_idx" ON "mail_log" USING btree ("template","created_at","id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "mail_log_to_trgm_idx" ON "mail_log" USING gin ("to" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "invoices_customer_idx" ON "invoices" USING btree ("customer_id","issued_on","id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "invoices_store_idx" ON "invoices" USING btree ("store_id","issued_on","id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "transactions_customer_idx" ON "transactions" USING btree ("customer_id","attempted_at","id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "transactions_store_idx" ON "transactions" USING btree ("store_id","attempted_at","id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "transactions_status_idx" ON "transactions" USING btree ("status","attempted_at","id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "mail_log_created_idx" ON "mail_log" USING btree ("created_at","id");--> statement-breakpoint
-- The store of a row belongs to its customer: without these the planner multiplies the two filters of an account tab (customer_id and store_id) as if independent, expects a few rows, and sorts them all instead of walking the store index (decision 109).
CREATE STATISTICS IF NOT EXISTS "invoices_customer_store_stats" (dependencies) ON "customer_id", "store_id" FROM "invoices";--> statement-breakpoint
CREATE STATISTICS IF NOT EXISTS "transactions_customer_store_stats" (dependencies) ON "customer_id", "store_id" FROM "transactions";
