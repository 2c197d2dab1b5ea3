-- Issue 29 (decision 148): a completed hardware sale becomes its S invoice, and the order's card hold pays it.
-- The sale invoice names its order (at most one S invoice per order: completing twice never bills twice), and a
-- hold's capture names the invoice it pays (the capture's answer posts a charge on it, not an unapplied receipt).
ALTER TABLE "invoices" ADD COLUMN "order_id" integer;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_order_sale_uq" ON "invoices" USING btree ("order_id") WHERE "invoices"."order_id" is not null and "invoices"."type" = 'S';--> statement-breakpoint
ALTER TABLE "authorization_settlements" ADD COLUMN "invoice_id" integer;--> statement-breakpoint
ALTER TABLE "authorization_settlements" ADD CONSTRAINT "authorization_settlements_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "authorization_settlements_invoice_idx" ON "authorization_settlements" USING btree ("invoice_id") WHERE "authorization_settlements"."invoice_id" is not null;
