import { BILLING_ITEM_IDS, feeLineDescription, type SaleInvoiceLine } from '@pos/domain';
import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { numberedSql } from '../../db/client';
import { billingItems, invoiceLines, invoices } from '../../db/schema';
import { writeAudit, type AuditActor } from '../../http/audit';

const rowsOf = <T>(res: unknown) => (res as { rows: T[] }).rows;

export interface SingleLineInvoice {
  customerId: number;
  storeId: number | null;
  currency: string;
  billingItemId: number;
  description: string;
  amountCents: number;
  /** Why it was raised, for the audit entry ('reactivation_fee', 'cash_check_fee', …). */
  reason: string;
  /** Extra audit facts (e.g. the receipt it came with). */
  auditAfter?: Record<string, unknown>;
  /** A cancellation fee's order (decision 158): at most one such invoice per order (invoices_canceled_order_uq). */
  canceledOrderId?: number | null;
}

/**
 * A one-line invoice of its own (a fee: type S, issued and due today, no tax), numbered from the year's counter
 * (invoice_number_counters) in the caller's transaction, like the billing run's numbers (decision 113). One place
 * for fee invoices: the reactivation fee (license.service), the cash/check fee of a receipt (decision 119) and the
 * cancellation fee of a canceled order (cancellation-fee.ts, decision 158).
 */
export async function createSingleLineInvoice(
  tx: Db,
  input: SingleLineInvoice,
  now: Date,
  actor: AuditActor,
  requestId: string,
): Promise<{ id: number; invoiceNumber: string }> {
  const today = now.toISOString().slice(0, 10);
  const [inv] = rowsOf<{ id: number; invoice_number: string }>(
    await tx.execute(
      numberedSql(
        `with counter as (
           insert into invoice_number_counters (year, last_number) values (extract(year from $1::date)::integer, 1)
           on conflict (year) do update set last_number = invoice_number_counters.last_number + 1
           returning last_number
         )
         insert into invoices (invoice_number, customer_id, store_id, status, type, issued_on, due_on, total_cents,
                               tax_cents, paid_cents, open_cents, currency, canceled_order_id, created_at, updated_at)
         select 'INV-' || extract(year from $1::date)::integer || '-' || lpad(c.last_number::text, 7, '0'),
                $2, $3, 'N', 'S', $1::date, $1::date, $4, 0, 0, $4, $5, $7::integer, $6, $6
         from counter c
         returning id, invoice_number`,
        [today, input.customerId, input.storeId, input.amountCents, input.currency, now, input.canceledOrderId ?? null],
      ),
    ),
  );
  await tx.execute(
    numberedSql(
      `insert into invoice_lines (invoice_id, billing_item_id, description, quantity, unit_cents, amount_cents)
       values ($1, $2, $3, 1, $4, $4)`,
      [inv!.id, input.billingItemId, input.description, input.amountCents],
    ),
  );
  await writeAudit(tx, {
    ...actor,
    at: now,
    action: 'create',
    entity: 'invoice',
    entityId: inv!.id,
    after: {
      invoice_number: inv!.invoice_number,
      reason: input.reason,
      total_cents: input.amountCents,
      ...input.auditAfter,
    },
    requestId,
    customerId: input.customerId,
  });
  return { id: inv!.id, invoiceNumber: inv!.invoice_number };
}

export interface SaleInvoice {
  customerId: number;
  storeId: number;
  /** The hardware-sale plan it bills (the customer's plan row made by onboarding). */
  planId: number | null;
  orderId: number;
  currency: string;
  /** Issued and due on this day (the billing time zone's today). */
  issuedOn: string;
  /** The order's sale lines (domain orderSaleInvoiceLines): products, bundles, discounts, the tax line last. */
  lines: readonly SaleInvoiceLine[];
  taxCents: number;
}

/** The fixed billing items of the spec a sale invoice may book lines under (added when a database lacks them). */
const FIXED_ITEMS: readonly { id: number; name: string }[] = [
  { id: BILLING_ITEM_IDS.TAX, name: 'Tax' },
  { id: BILLING_ITEM_IDS.DISCOUNT, name: 'Discount' },
  { id: BILLING_ITEM_IDS.OTHER_CHARGES, name: 'Other charges' },
];

/**
 * The sale invoice of a completed POS order paid upfront (issue 29 item 2, decision 148): type S, issued and due today,
 * numbered from the year's counter like every other invoice (decision 113), its lines as given (tax its own line), in
 * the caller's transaction (the move to Complete). Once per order: an order that has its S invoice gets it back.
 * A line whose billing item the catalogue does not know is booked under Other charges, with its own description; a
 * fee item's line (shipping 20, marketplace 113–115, …) is described by the catalogue's name of its item (158).
 */
export async function createSaleInvoice(
  tx: Db,
  input: SaleInvoice,
  now: Date,
  actor: AuditActor,
  requestId: string,
): Promise<{ id: number; invoiceNumber: string; totalCents: number; created: boolean }> {
  const [existing] = await tx
    .select({ id: invoices.id, invoiceNumber: invoices.invoiceNumber, totalCents: invoices.totalCents })
    .from(invoices)
    .where(and(eq(invoices.orderId, input.orderId), eq(invoices.type, 'S')));
  if (existing) return { ...existing, created: false };
  const totalCents = input.lines.reduce((sum, l) => sum + l.amountCents, 0);
  if (totalCents < 0 || input.taxCents < 0) throw new Error(`order ${input.orderId}: a sale invoice is never negative`);
  await tx
    .insert(billingItems)
    .values(FIXED_ITEMS.map((i) => ({ ...i, createdAt: now, updatedAt: now })))
    .onConflictDoNothing({ target: billingItems.id });
  const wanted = [...new Set(input.lines.map((l) => l.billingItemId))];
  const names = new Map(
    wanted.length
      ? (
          await tx
            .select({ id: billingItems.id, name: billingItems.name })
            .from(billingItems)
            .where(inArray(billingItems.id, wanted))
        ).map((r) => [r.id, r.name] as const)
      : [],
  );
  const [inv] = rowsOf<{ id: number; invoice_number: string }>(
    await tx.execute(
      numberedSql(
        `with counter as (
           insert into invoice_number_counters (year, last_number) values (extract(year from $1::date)::integer, 1)
           on conflict (year) do update set last_number = invoice_number_counters.last_number + 1
           returning last_number
         )
         insert into invoices (invoice_number, customer_id, store_id, plan_id, order_id, status, type, issued_on, due_on,
                               total_cents, tax_cents, paid_cents, open_cents, currency, created_at, updated_at)
         select 'INV-' || extract(year from $1::date)::integer || '-' || lpad(c.last_number::text, 7, '0'),
                $2, $3, $4, $5, case when $6::bigint = 0 then 'P' else 'N' end, 'S', $1::date, $1::date,
                $6, $7, 0, $6, $8, $9, $9
         from counter c
         returning id, invoice_number`,
        [
          input.issuedOn,
          input.customerId,
          input.storeId,
          input.planId,
          input.orderId,
          totalCents,
          input.taxCents,
          input.currency,
          now,
        ],
      ),
    ),
  );
  if (input.lines.length > 0)
    await tx.insert(invoiceLines).values(
      input.lines.map((l) => ({
        invoiceId: inv!.id,
        billingItemId: names.has(l.billingItemId) ? l.billingItemId : BILLING_ITEM_IDS.OTHER_CHARGES,
        // A fee's line (shipping, a marketplace listing, …) reads as the catalogue names it (decision 158).
        description: feeLineDescription(l.billingItemId, names.get(l.billingItemId), l.description),
        quantity: l.quantity,
        unitCents: l.unitCents,
        amountCents: l.amountCents,
      })),
    );
  await writeAudit(tx, {
    ...actor,
    at: now,
    action: 'create',
    entity: 'invoice',
    entityId: inv!.id,
    after: {
      invoice_number: inv!.invoice_number,
      reason: 'order_sale',
      order_id: input.orderId,
      type: 'S',
      total_cents: totalCents,
      tax_cents: input.taxCents,
      lines: input.lines.length,
    },
    requestId,
    customerId: input.customerId,
  });
  return { id: inv!.id, invoiceNumber: inv!.invoice_number, totalCents, created: true };
}
