import type { CurrencyCode, ReconciliationEntryKind } from '@pos/domain';
import type { Database } from '../../db/client';

/** A line of our books for a day: what we posted as moving money at the gateway (decision 146). */
export interface BookLine {
  kind: ReconciliationEntryKind;
  /** The gateway's reference we stored: a charge's or a refund's own; for a void or a chargeback, the charge's. */
  gatewayReference: string;
  transactionId: number;
  customerId: number;
  invoiceId: number | null;
  amountCents: number;
  at: Date;
}

interface Row {
  kind: ReconciliationEntryKind;
  gateway_reference: string;
  id: number;
  customer_id: number;
  invoice_id: number | null;
  amount_cents: string | number;
  at: Date | string;
}

/**
 * THE ONE PLACE that says what our books posted on a UTC day in a currency against the gateway (cash in transit at
 * the gateway). Today our books are the `transactions` table:
 * - charge: a charge the gateway settled (S; and B / C — charged back or refunded later, settled all the same), on
 *   its settled_at;
 * - refund: a refund it paid (S), on its settled_at (attempted_at when unset);
 * - void: a charge voided before it settled (V), on the day it was voided (updated_at);
 * - chargeback: a settled charge that came back (B) on the day it came back (updated_at), and the chargeback rows
 *   (kind chargeback, S or B) on their own day.
 * Only rows the gateway knows by a reference count (checks and cash never reach it). When the double-entry journal
 * (issue 28 item 1) is the source, this becomes "the journal's lines on account 1010 that day", and nothing else in
 * the module changes.
 */
export async function booksPostedOn(
  database: Database,
  input: { day: string; currency: CurrencyCode },
): Promise<BookLine[]> {
  const from = new Date(`${input.day}T00:00:00Z`);
  const to = new Date(from.getTime() + 86_400_000);
  const rows = await database.query<Row>(
    `select kind, gateway_reference, id, customer_id, invoice_id, amount_cents, at from (
       select 'charge' as kind, gateway_reference, id, customer_id, invoice_id, amount_cents, settled_at as at
         from transactions
        where currency = $3 and kind = 'charge' and status in ('S', 'B', 'C') and settled_at >= $1 and settled_at < $2
       union all
       select 'refund', gateway_reference, id, customer_id, invoice_id, amount_cents, coalesce(settled_at, attempted_at)
         from transactions
        where currency = $3 and kind = 'refund' and status = 'S' and coalesce(settled_at, attempted_at) >= $1
          and coalesce(settled_at, attempted_at) < $2
       union all
       select 'void', gateway_reference, id, customer_id, invoice_id, amount_cents, updated_at
         from transactions
        where currency = $3 and kind = 'charge' and status = 'V' and updated_at >= $1 and updated_at < $2
       union all
       select 'chargeback', gateway_reference, id, customer_id, invoice_id, amount_cents, updated_at
         from transactions
        where currency = $3 and kind = 'charge' and status = 'B' and updated_at >= $1 and updated_at < $2
       union all
       select 'chargeback', gateway_reference, id, customer_id, invoice_id, amount_cents, coalesce(settled_at, attempted_at)
         from transactions
        where currency = $3 and kind = 'chargeback' and status in ('S', 'B') and coalesce(settled_at, attempted_at) >= $1
          and coalesce(settled_at, attempted_at) < $2
     ) lines
     where gateway_reference is not null
     order by at, id`,
    [from, to, input.currency],
  );
  return rows.map((r) => ({
    kind: r.kind,
    gatewayReference: r.gateway_reference,
    transactionId: Number(r.id),
    customerId: Number(r.customer_id),
    invoiceId: r.invoice_id === null ? null : Number(r.invoice_id),
    amountCents: Number(r.amount_cents),
    at: new Date(r.at),
  }));
}
