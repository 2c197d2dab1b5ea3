DROP INDEX "customers_legal_name_trgm_idx";--> statement-breakpoint
DROP INDEX "customers_federal_tax_id_trgm_idx";--> statement-breakpoint
DROP INDEX "customers_email_trgm_idx";--> statement-breakpoint
DROP INDEX "stores_br_acct_trgm_idx";--> statement-breakpoint
DROP INDEX "stores_sales_rep_trgm_idx";--> statement-breakpoint
DROP INDEX "stores_store_name_trgm_idx";--> statement-breakpoint
DROP INDEX "stores_dba_trgm_idx";--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "search_text" text GENERATED ALWAYS AS (lower(legal_name || chr(31) || email || chr(31) || coalesce(federal_tax_id, ''))) STORED;--> statement-breakpoint
ALTER TABLE "stores" ADD COLUMN "search_text" text GENERATED ALWAYS AS (lower(coalesce(br_acct, '') || chr(31) || coalesce(sales_rep, '') || chr(31) || store_name || chr(31) || doing_business_as)) STORED;--> statement-breakpoint
CREATE INDEX "customers_search_text_trgm_idx" ON "customers" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "stores_search_text_trgm_idx" ON "stores" USING gin ("search_text" gin_trgm_ops);