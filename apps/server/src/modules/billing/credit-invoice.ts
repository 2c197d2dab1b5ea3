import { BILLING_ITEM_IDS } from '@pos/domain';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { billingItems, creditInvoiceLines, creditInvoices } from '../../db/schema';
import { writeAudit, type AuditActor } from '../../http/audit';

export interface CreditInvoiceInput {
  type: 'R' | 'B';
  customerId: number;
  storeId: number | null;
  currency: string;
  issuedOn: string;
  reason: string;
  createdByEmail: string | null;
  /** The invoice a type R nets. */
  reversesInvoiceId?: number | null;
  /** The return a type R documents instead (its terminals credited, the restocking fee kept; decision 158). */
  returnId?: number | null;
  /** The order and the credit memo of a type B (promotion rewards). */
  orderId?: number | null;
  creditMemoId?: number | null;
  /** Negative: what it credits. */
  totalCents: number;
  taxCents: number;
  /** The credit lines (negative amounts, a discount reversed positive); they add up to totalCents. */
  lines: readonly {
    billingItemId: number;
    description: string;
    quantity: number;
    unitCents: number;
    amountCents: number;
  }[];
}

/** The fixed billing items a credit invoice may book lines under (added when a database lacks them). */
const FIXED_ITEMS = [
  { id: BILLING_ITEM_IDS.TAX, name: 'Tax' },
  { id: BILLING_ITEM_IDS.DISCOUNT, name: 'Discount' },
  { id: BILLING_ITEM_IDS.OTHER_CHARGES, name: 'Other charges' },
  { id: BILLING_ITEM_IDS.RESTOCKING_FEE, name: 'Restocking fee' },
];

/**
 * Write a credit invoice (issue 29 item 7, decision 152) in the caller's transaction: numbered from the year's counter
 * like every invoice (INV-YYYY-NNNNNNN, decision 113), its lines, an audit entry. A document: it posts no money.
 */
export async function insertCreditInvoice(
  tx: Db,
  input: CreditInvoiceInput,
  now: Date,
  actor: AuditActor,
  requestId: string | null,
): Promise<typeof creditInvoices.$inferSelect> {
  const sum = input.lines.reduce((s, l) => s + l.amountCents, 0);
  if (input.totalCents > 0 || sum !== input.totalCents)
    throw new Error(`a credit invoice's lines (${sum}) must add up to its total (${input.totalCents}) and credit`);
  const [numbered] = (
    (await tx.execute(sql`
      insert into invoice_number_counters (year, last_number) values (extract(year from ${input.issuedOn}::date)::integer, 1)
      on conflict (year) do update set last_number = invoice_number_counters.last_number + 1
      returning 'INV-' || year || '-' || lpad(last_number::text, 7, '0') as invoice_number`)) as unknown as {
      rows: { invoice_number: string }[];
    }
  ).rows;
  const [credit] = await tx
    .insert(creditInvoices)
    .values({
      invoiceNumber: numbered!.invoice_number,
      type: input.type,
      customerId: input.customerId,
      storeId: input.storeId,
      reversesInvoiceId: input.reversesInvoiceId ?? null,
      returnId: input.returnId ?? null,
      orderId: input.orderId ?? null,
      creditMemoId: input.creditMemoId ?? null,
      issuedOn: input.issuedOn,
      totalCents: input.totalCents,
      taxCents: input.taxCents,
      currency: input.currency,
      reason: input.reason,
      createdByEmail: input.createdByEmail,
      createdAt: now,
    })
    .returning();
  if (input.lines.length > 0) {
    await tx
      .insert(billingItems)
      .values(FIXED_ITEMS.map((i) => ({ ...i, createdAt: now, updatedAt: now })))
      .onConflictDoNothing({ target: billingItems.id });
    await tx.insert(creditInvoiceLines).values(input.lines.map((l) => ({ ...l, creditInvoiceId: credit!.id })));
  }
  await writeAudit(tx, {
    ...actor,
    at: now,
    action: 'create',
    entity: 'credit_invoice',
    entityId: credit!.id,
    after: {
      customer_id: input.customerId,
      credit_invoice_id: credit!.id,
      invoice_number: credit!.invoiceNumber,
      type: input.type,
      reverses_invoice_id: credit!.reversesInvoiceId,
      return_id: credit!.returnId,
      order_id: credit!.orderId,
      credit_memo_id: credit!.creditMemoId,
      total_cents: credit!.totalCents,
      currency: credit!.currency,
    },
    requestId,
    customerId: input.customerId,
  });
  return credit!;
}
