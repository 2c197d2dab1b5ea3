CREATE INDEX "stores_country_state_idx" ON "stores" USING btree ("country","state");--> statement-breakpoint
CREATE INDEX "stores_sales_rep_idx" ON "stores" USING btree (lower("sales_rep"));--> statement-breakpoint
CREATE INDEX "invoices_store_open_idx" ON "invoices" USING btree ("store_id") WHERE "invoices"."status" = 'N';