import { FOUR_EYES_WINDOW_DAYS, formatMoney, fourEyesRefusal, type CurrencyCode } from '@pos/domain';
import { asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { customers, invoices } from '../../db/schema';
import { AppError } from '../../http/errors';

/*
 * The money limits (issue 28, decision 143): what may still be refunded on an invoice, credited on it, refunded from a
 * customer's credit on account, and whether a requester's credits add up past the four-eyes threshold. Read on the
 * caller's transaction after `lockForMoney`, so two requests on the same invoice or customer are checked one after
 * the other; checked when a request is made AND again when the money or credit actually moves (approval). Pending
 * requests count against every limit, so two requests cannot together take more than is there.
 */

/** Lock what a movement touches: the customer first, then its invoices in id order (no two requests wait in a circle). */
export async function lockForMoney(
  tx: Db,
  input: { customerId: number; invoiceIds?: readonly number[] },
): Promise<void> {
  await tx.select({ id: customers.id }).from(customers).where(eq(customers.id, input.customerId)).for('no key update');
  const ids = [...new Set(input.invoiceIds ?? [])].sort((a, b) => a - b);
  if (ids.length > 0)
    await tx
      .select({ id: invoices.id })
      .from(invoices)
      .where(inArray(invoices.id, ids))
      .orderBy(asc(invoices.id))
      .for('update');
}

async function rowOf<T>(db: Db, query: ReturnType<typeof sql>): Promise<T> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows[0]!;
}

const n = (v: unknown) => Number(v ?? 0);

export interface InvoiceLimits {
  readonly invoiceId: number;
  readonly invoiceNumber: string;
  readonly currency: CurrencyCode;
  readonly totalCents: number;
  readonly openCents: number;
  /** Settled charges and receipts applied. */
  readonly receivedCents: number;
  /** Refunds, chargebacks and reversals of charges (settled or under way), and approved refund memos. */
  readonly refundedCents: number;
  /** Refund memos waiting for approval. */
  readonly pendingRefundCents: number;
  /** received − refunded − pending refunds: never below 0 unless a limit was broken. */
  readonly refundableCents: number;
  /** Credits, adjustments and write-offs waiting for approval. */
  readonly pendingCreditCents: number;
  /** open − pending credits. */
  readonly creditableCents: number;
}

/** The invoice's limits (a memo or write-off being decided is left out of the pending sums). */
export async function invoiceLimits(
  db: Db,
  invoiceId: number,
  except: { memoId?: number; writeOffId?: number } = {},
): Promise<InvoiceLimits> {
  const memo = except.memoId ?? 0;
  const writeOff = except.writeOffId ?? 0;
  const r = await rowOf<Record<string, unknown>>(
    db,
    sql`select i.id, i.invoice_number, i.currency, i.total_cents, b.open_cents,
      coalesce((select sum(amount_cents) from transactions where invoice_id = i.id and kind = 'charge' and status = 'S'), 0)
        + coalesce((select sum(amount_cents) from receipt_allocations where invoice_id = i.id), 0) as received,
      coalesce((select sum(amount_cents) from transactions where invoice_id = i.id
                and kind in ('refund', 'chargeback', 'reversal') and status in ('S', 'B', 'P')), 0)
        + coalesce((select sum(amount_cents) from credit_memos where invoice_id = i.id and type = 'R' and status = 'A'
                    and id <> ${memo}), 0) as refunded,
      coalesce((select sum(amount_cents) from credit_memos where invoice_id = i.id and type = 'R' and status = 'P'
                and id <> ${memo}), 0) as pending_refunds,
      coalesce((select sum(amount_cents) from credit_memos where invoice_id = i.id and type in ('C', 'A') and status = 'P'
                and id <> ${memo}), 0)
        + coalesce((select sum(amount_cents) from write_offs where invoice_id = i.id and status = 'P' and id <> ${writeOff}), 0)
        as pending_credits
    from invoices i join invoice_balances b on b.invoice_id = i.id
    where i.id = ${invoiceId}`,
  );
  const received = n(r.received);
  const refunded = n(r.refunded);
  const pendingRefund = n(r.pending_refunds);
  const open = n(r.open_cents);
  const pendingCredit = n(r.pending_credits);
  return {
    invoiceId,
    invoiceNumber: String(r.invoice_number),
    currency: r.currency as CurrencyCode,
    totalCents: n(r.total_cents),
    openCents: open,
    receivedCents: received,
    refundedCents: refunded,
    pendingRefundCents: pendingRefund,
    refundableCents: received - refunded - pendingRefund,
    pendingCreditCents: pendingCredit,
    creditableCents: open - pendingCredit,
  };
}

export interface OnAccountLimits {
  /** Money on account: receipts not applied, and what invoices were overpaid, less the refunds already made from it. */
  readonly creditCents: number;
  /** Refunds from the account waiting for approval. */
  readonly pendingRefundCents: number;
  readonly leftCents: number;
}

/** A customer's credit on account in one currency (for a refund that names no invoice). */
export async function onAccountLimits(
  db: Db,
  customerId: number,
  currency: string,
  except: { memoId?: number } = {},
): Promise<OnAccountLimits> {
  const memo = except.memoId ?? 0;
  const r = await rowOf<Record<string, unknown>>(
    db,
    sql`select
      coalesce((select sum(unapplied_cents) from receipts where customer_id = ${customerId} and currency = ${currency}), 0)
        + coalesce((select sum(b.overpaid_cents) from invoices i join invoice_balances b on b.invoice_id = i.id
                    where i.customer_id = ${customerId} and i.currency = ${currency}), 0)
        - coalesce((select sum(amount_cents) from credit_memos where customer_id = ${customerId} and currency = ${currency}
                    and type = 'R' and invoice_id is null and status = 'A' and id <> ${memo}), 0) as credit,
      coalesce((select sum(amount_cents) from credit_memos where customer_id = ${customerId} and currency = ${currency}
                and type = 'R' and invoice_id is null and status = 'P' and id <> ${memo}), 0) as pending`,
  );
  const credit = n(r.credit);
  const pending = n(r.pending);
  return { creditCents: credit, pendingRefundCents: pending, leftCents: credit - pending };
}

const money = (cents: number, currency: string) => formatMoney(Math.max(0, cents), currency as CurrencyCode);

/** 409 unless a refund of `amountCents` fits what is left to refund on the invoice. */
export function assertRefundable(l: InvoiceLimits, amountCents: number): void {
  if (amountCents <= l.refundableCents) return;
  throw new AppError(
    'conflict',
    l.refundableCents > 0
      ? `Only ${money(l.refundableCents, l.currency)} is left to refund on invoice ${l.invoiceNumber} (received ${money(l.receivedCents, l.currency)}, refunded or waiting to be refunded ${money(l.refundedCents + l.pendingRefundCents, l.currency)}).`
      : `Nothing is left to refund on invoice ${l.invoiceNumber}: what was received (${money(l.receivedCents, l.currency)}) is refunded or waiting to be refunded.`,
    { amount_cents: `At most ${money(l.refundableCents, l.currency)}.` },
  );
}

/** 409 unless a credit (or write-off) of `amountCents` fits what is open on the invoice, less the credits waiting. */
export function assertCreditable(l: InvoiceLimits, amountCents: number): void {
  if (amountCents <= l.creditableCents) return;
  throw new AppError(
    'conflict',
    l.creditableCents > 0
      ? `Only ${money(l.creditableCents, l.currency)} is left to credit on invoice ${l.invoiceNumber} (open ${money(l.openCents, l.currency)}, credits waiting for approval ${money(l.pendingCreditCents, l.currency)}).`
      : `Nothing is left to credit on invoice ${l.invoiceNumber}: ${l.openCents > 0 ? `its open ${money(l.openCents, l.currency)} is already asked for by credits waiting for approval` : 'nothing is open'}.`,
    { amount_cents: `At most ${money(l.creditableCents, l.currency)}.` },
  );
}

/** 409 unless a refund of `amountCents` from the customer's account fits its credit on account. */
export function assertOnAccount(l: OnAccountLimits, amountCents: number, currency: string): void {
  if (amountCents <= l.leftCents) return;
  throw new AppError(
    'conflict',
    l.leftCents > 0
      ? `Only ${money(l.leftCents, currency)} of this customer's credit on account is left to refund (credit ${money(l.creditCents, currency)}, refunds waiting for approval ${money(l.pendingRefundCents, currency)}).`
      : `This customer has no credit on account to refund${l.pendingRefundCents > 0 ? ' that is not already asked for' : ''}: a refund without an invoice pays back only money received and not applied.`,
    { amount_cents: `At most ${money(l.leftCents, currency)}.` },
  );
}

/**
 * 409 when the four-eyes rule refuses `deciderEmail` (decision 143): the requester's pending and approved credits,
 * refunds and write-offs on the invoice, and on the customer in the window, this one included.
 */
export async function assertFourEyes(
  db: Db,
  input: {
    requesterEmail: string;
    deciderEmail: string;
    customerId: number;
    invoiceId: number | null;
    amountCents: number;
    now: Date;
    except: { memoId?: number; writeOffId?: number };
  },
): Promise<void> {
  const memo = input.except.memoId ?? 0;
  const writeOff = input.except.writeOffId ?? 0;
  const since = new Date(input.now.getTime() - FOUR_EYES_WINDOW_DAYS * 86_400_000);
  const requester = input.requesterEmail.trim().toLowerCase();
  const r = await rowOf<Record<string, unknown>>(
    db,
    sql`select
      coalesce((select sum(abs(amount_cents)) from credit_memos where invoice_id = ${input.invoiceId} and status in ('P', 'A')
                and lower(created_by_email) = ${requester} and id <> ${memo}), 0)
        + coalesce((select sum(amount_cents) from write_offs where invoice_id = ${input.invoiceId} and status in ('P', 'A')
                    and lower(created_by_email) = ${requester} and id <> ${writeOff}), 0) as on_invoice,
      coalesce((select sum(abs(amount_cents)) from credit_memos where customer_id = ${input.customerId} and status in ('P', 'A')
                and lower(created_by_email) = ${requester} and created_at >= ${since} and id <> ${memo}), 0)
        + coalesce((select sum(amount_cents) from write_offs where customer_id = ${input.customerId} and status in ('P', 'A')
                    and lower(created_by_email) = ${requester} and created_at >= ${since} and id <> ${writeOff}), 0)
        as on_customer`,
  );
  const size = Math.abs(input.amountCents);
  const refusal = fourEyesRefusal({
    invoiceSumCents: input.invoiceId === null ? size : n(r.on_invoice) + size,
    customerSumCents: n(r.on_customer) + size,
    requesterEmail: input.requesterEmail,
    deciderEmail: input.deciderEmail,
  });
  if (refusal) throw new AppError('conflict', refusal);
}
