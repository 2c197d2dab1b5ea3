DROP INDEX "orders_status_idx";--> statement-breakpoint
CREATE INDEX "customers_legal_name_sort_idx" ON "customers" USING btree (lower("legal_name"),"id");--> statement-breakpoint
CREATE INDEX "orders_updated_at_idx" ON "orders" USING btree ("updated_at","id");--> statement-breakpoint
CREATE INDEX "orders_status_idx" ON "orders" USING btree ("status","updated_at","id");