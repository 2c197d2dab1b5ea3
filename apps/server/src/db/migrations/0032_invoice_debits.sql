-- Issue 28: an invoice's debits (a debit adjustment, or money sent back beyond what came in) raise what it owes, so a
-- charge of its open balance pays more than its total. The stored figures keep the debits beside paid_cents, and the
-- check is "paid never above the total plus the debits" (the limit of issue 28 item 2) instead of "paid ≤ total".
ALTER TABLE "invoices" ADD COLUMN "debited_cents" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE "invoices" i SET "debited_cents" = b."debited_cents" FROM "invoice_balances" b
  WHERE b."invoice_id" = i."id" AND b."debited_cents" <> 0;--> statement-breakpoint
ALTER TABLE "invoices" DROP CONSTRAINT "invoices_amounts_check";--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_amounts_check" CHECK ("invoices"."total_cents" >= 0 and "invoices"."tax_cents" >= 0 and "invoices"."paid_cents" >= 0 and "invoices"."debited_cents" >= 0 and "invoices"."paid_cents" <= "invoices"."total_cents" + "invoices"."debited_cents");
