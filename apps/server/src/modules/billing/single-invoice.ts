import type { Db } from '../../db/client';
import { numberedSql } from '../../db/client';
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
}

/**
 * A one-line invoice of its own (a fee: type S, issued and due today, no tax), numbered from the year's counter
 * (invoice_number_counters) in the caller's transaction, like the billing run's numbers (decision 113). One place
 * for fee invoices: the reactivation fee (license.service) and the cash/check fee of a receipt (decision 119).
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
                               tax_cents, paid_cents, open_cents, currency, created_at, updated_at)
         select 'INV-' || extract(year from $1::date)::integer || '-' || lpad(c.last_number::text, 7, '0'),
                $2, $3, 'N', 'S', $1::date, $1::date, $4, 0, 0, $4, $5, $6, $6
         from counter c
         returning id, invoice_number`,
        [today, input.customerId, input.storeId, input.amountCents, input.currency, now],
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
