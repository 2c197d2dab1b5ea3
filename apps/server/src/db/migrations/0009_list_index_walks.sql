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
CREATE INDEX IF NOT EXISTS "mail_log_created_idx" ON "mail_log" USING btree ("created_at","id");