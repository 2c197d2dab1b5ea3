-- Decision 158 (issue 31 item 7): the fees of §9 on documents. Hand-written (no snapshot).
-- A return's credit invoice (type R naming its return, not a reversed invoice): the terminals credited and the
-- restocking fee kept, each its own line; one per return. A document only: the return's credit memo moves the money.
ALTER TABLE "credit_invoices" ADD COLUMN "return_id" integer REFERENCES "returns"("id");--> statement-breakpoint
ALTER TABLE "credit_invoices" DROP CONSTRAINT "credit_invoices_reverses_check";--> statement-breakpoint
ALTER TABLE "credit_invoices" ADD CONSTRAINT "credit_invoices_reverses_check" CHECK ("type" <> 'R' or "reverses_invoice_id" is not null or "return_id" is not null);--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "credit_invoices_return_uq" ON "credit_invoices" USING btree ("return_id") WHERE "return_id" is not null;--> statement-breakpoint
-- A cancellation fee invoice names the order whose cancellation it bills: once per order, whatever moves follow.
ALTER TABLE "invoices" ADD COLUMN "canceled_order_id" integer REFERENCES "orders"("id");--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "invoices_canceled_order_uq" ON "invoices" USING btree ("canceled_order_id") WHERE "canceled_order_id" is not null;
