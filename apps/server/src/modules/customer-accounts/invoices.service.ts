import {
  BILLING_ITEM_IDS,
  INVOICE_STATUS_LABELS,
  INVOICE_TYPE_LABELS,
  canReverseInvoice,
  type CreditInvoice,
  type CreditInvoiceList,
  type CreditMemo,
  type CurrencyCode,
  type Invoice,
  type InvoiceBalance,
  type InvoiceDetail,
  type InvoiceLine,
  type InvoiceList,
  type InvoiceListQuery,
  type InvoiceReverseRequest,
  type InvoiceReverseResult,
  type InvoiceStatus,
  type InvoiceType,
} from '@pos/domain';
import { and, asc, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { ServiceCtx } from '../../context';
import { cappedCount } from '../../db/capped-count';
import type { Db } from '../../db/client';
import { creditInvoiceLines, creditInvoices, creditMemos, invoiceLines, invoices, transactions } from '../../db/schema';
import {
  isCustomerVisible,
  isRecordVisible,
  requireCustomer,
  requireStoreOf,
  viewerOf,
  visibleRecordsWhere,
} from '../../access';
import { AppError, versionConflict } from '../../http/errors';
import { audit, isoOrNull, orderBy } from './account-context';
import { runIdempotent } from '../../http/idempotency';
import { selectTransactions, toTransaction } from './transactions.service';
import { balancesOf, invoiceBalanceFields, invoiceBalances, syncInvoice, toInvoiceBalance } from '../ledger';
import { voidCharge } from '../payments';
import { insertCreditInvoice } from '../billing';

type InvoiceRow = typeof invoices.$inferSelect;

/** A stored invoice line (or credit invoice line) as the API shows it. */
function toInvoiceLine(l: {
  id: number;
  billingItemId: number;
  description: string;
  quantity: number;
  unitCents: number;
  amountCents: number;
}): InvoiceLine {
  return {
    id: l.id,
    billing_item_id: l.billingItemId,
    description: l.description,
    quantity: l.quantity,
    unit_cents: l.unitCents,
    amount_cents: l.amountCents,
  };
}

/** An invoice as the API shows it; paid and balance are the ledger's (decision 112), never `total - paid`. */
export function toInvoice(r: InvoiceRow, balance: InvoiceBalance): Invoice {
  const status = r.status as InvoiceStatus;
  return {
    id: r.id,
    invoice_number: r.invoiceNumber,
    customer_id: r.customerId,
    store_id: r.storeId,
    plan_id: r.planId,
    status,
    status_label: INVOICE_STATUS_LABELS[status],
    type: r.type,
    type_label: INVOICE_TYPE_LABELS[r.type as InvoiceType] ?? r.type,
    period_start: r.periodStart,
    period_end: r.periodEnd,
    issued_on: r.issuedOn,
    due_on: r.dueOn,
    total_cents: r.totalCents,
    tax_cents: r.taxCents,
    paid_cents: balance.paid_cents,
    balance_cents: balance.open_cents,
    currency: r.currency as CurrencyCode,
    reversed_at: isoOrNull(r.reversedAt),
    can_reverse: canReverseInvoice(status),
    version: r.version,
  };
}

export function toCreditMemo(m: typeof creditMemos.$inferSelect): CreditMemo {
  return {
    id: m.id,
    customer_id: m.customerId,
    store_id: m.storeId,
    invoice_id: m.invoiceId,
    type: m.type,
    status: m.status,
    amount_cents: m.amountCents,
    currency: m.currency as CurrencyCode,
    reason: m.reason,
    created_by_email: m.createdByEmail,
    created_at: m.createdAt.toISOString(),
    approved_by_email: m.approvedByEmail,
    decided_at: isoOrNull(m.decidedAt),
  };
}

/**
 * GET …/customerinvoices?storeid&status&type (newest first by default: a backward walk of `invoices_customer_idx
 * (customer_id, issued_on, id)`). The total is exact up to SEARCH_TOTAL_CAP (`total_capped` beyond; decision 109).
 */
export async function listInvoices(ctx: ServiceCtx, customerId: number, q: InvoiceListQuery): Promise<InvoiceList> {
  const db = ctx.app.database.db;
  await requireCustomer(db, viewerOf(ctx), customerId);
  if (q.storeid !== undefined) await requireStoreOf(db, viewerOf(ctx), customerId, q.storeid, 'storeid');
  const where = and(invoiceListWhere(customerId, q), visibleRecordsWhere(viewerOf(ctx), invoices.storeId));
  const [rows, total] = await Promise.all([invoicePage(db, where, q), cappedCount(db, invoices, where)]);
  return { items: rows.map((r) => toInvoice(r.inv, toInvoiceBalance(r.bal))), ...total };
}

export function invoiceListWhere(customerId: number, q: InvoiceListQuery) {
  return and(
    eq(invoices.customerId, customerId),
    q.storeid === undefined ? undefined : eq(invoices.storeId, q.storeid),
    q.status === undefined ? undefined : eq(invoices.status, q.status),
    q.type === undefined ? undefined : eq(invoices.type, q.type),
  );
}

/**
 * One page of a customer's invoices in the sort order (the tie-breaker `id` follows the direction), each with its
 * ledger (decision 112): the page is walked first, the view read for its rows only.
 */
export function invoicePage(db: Db, where: SQL | undefined, q: InvoiceListQuery) {
  return db
    .select({ inv: invoices, bal: invoiceBalanceFields })
    .from(invoices)
    .innerJoin(invoiceBalances, eq(invoiceBalances.invoiceId, invoices.id))
    .where(where)
    .orderBy(
      ...orderBy(
        q.sort,
        {
          issued_on: invoices.issuedOn,
          due_on: invoices.dueOn,
          total_cents: invoices.totalCents,
          status: invoices.status,
          invoice_number: invoices.invoiceNumber,
        },
        '-issued_on',
        invoices.id,
        { tieFollowsSort: true },
      ),
    )
    .limit(q.limit)
    .offset(q.offset);
}

/** GET …/customerinvoices/{invoiceId}: the invoice with its lines, charges and credit memos. */
export async function getInvoice(ctx: ServiceCtx, customerId: number, invoiceId: number): Promise<InvoiceDetail> {
  const db = ctx.app.database.db;
  await requireCustomer(db, viewerOf(ctx), customerId);
  const [found] = await db
    .select({ inv: invoices, bal: invoiceBalanceFields })
    .from(invoices)
    .innerJoin(invoiceBalances, eq(invoiceBalances.invoiceId, invoices.id))
    .where(and(eq(invoices.id, invoiceId), eq(invoices.customerId, customerId)));
  if (!found || !(await isRecordVisible(db, viewerOf(ctx), found.inv)))
    throw new AppError('not_found', `Invoice ${invoiceId} of customer ${customerId} was not found.`);
  const row = found.inv;
  const lines = await db
    .select()
    .from(invoiceLines)
    .where(eq(invoiceLines.invoiceId, invoiceId))
    .orderBy(asc(invoiceLines.id));
  const txs = await selectTransactions(db)
    .where(eq(transactions.invoiceId, invoiceId))
    .orderBy(asc(transactions.attemptedAt), asc(transactions.id));
  const memos = await db
    .select()
    .from(creditMemos)
    .where(eq(creditMemos.invoiceId, invoiceId))
    .orderBy(asc(creditMemos.id));
  return {
    ...toInvoice(row, toInvoiceBalance(found.bal)),
    lines: lines.map(toInvoiceLine),
    transactions: txs.map(toTransaction),
    credit_memos: memos.map(toCreditMemo),
    credit_invoice: (await creditInvoicesOf(db, [row.id])).get(row.id) ?? null,
  };
}

/** Credit invoices (decision 152) matching `where`, newest first, with their lines. */
async function loadCreditInvoices(db: Db, where: SQL | undefined): Promise<CreditInvoice[]> {
  const rows = await db
    .select({ credit: creditInvoices, reverses: invoices.invoiceNumber })
    .from(creditInvoices)
    .leftJoin(invoices, eq(invoices.id, creditInvoices.reversesInvoiceId))
    .where(where)
    .orderBy(desc(creditInvoices.issuedOn), desc(creditInvoices.id));
  const lines = rows.length
    ? await db
        .select()
        .from(creditInvoiceLines)
        .where(
          inArray(
            creditInvoiceLines.creditInvoiceId,
            rows.map((r) => r.credit.id),
          ),
        )
        .orderBy(asc(creditInvoiceLines.id))
    : [];
  return rows.map(({ credit: c, reverses }) => ({
    id: c.id,
    invoice_number: c.invoiceNumber,
    type: c.type as 'R' | 'B',
    type_label:
      c.type === 'B' ? 'Credit (promotion rewards)' : c.returnId !== null ? 'Credit (return)' : 'Credit (reversal)',
    customer_id: c.customerId,
    store_id: c.storeId,
    reverses_invoice_id: c.reversesInvoiceId,
    reverses_invoice_number: reverses,
    return_id: c.returnId,
    order_id: c.orderId,
    credit_memo_id: c.creditMemoId,
    issued_on: c.issuedOn,
    total_cents: c.totalCents,
    tax_cents: c.taxCents,
    currency: c.currency as CurrencyCode,
    reason: c.reason,
    created_by_email: c.createdByEmail,
    created_at: c.createdAt.toISOString(),
    lines: lines.filter((l) => l.creditInvoiceId === c.id).map(toInvoiceLine),
  }));
}

/** The type R credit invoices netting these invoices (decision 152), by the invoice they reverse. */
export async function creditInvoicesOf(db: Db, invoiceIds: number[]): Promise<Map<number, CreditInvoice>> {
  if (invoiceIds.length === 0) return new Map();
  const found = await loadCreditInvoices(db, inArray(creditInvoices.reversesInvoiceId, invoiceIds));
  return new Map(found.map((c) => [c.reverses_invoice_id!, c]));
}

/** GET …/creditinvoices?storeid: the customer's credit invoices (R reversals, B promotion rewards), newest first. */
export async function listCreditInvoices(
  ctx: ServiceCtx,
  customerId: number,
  q: { storeid?: number | undefined },
): Promise<CreditInvoiceList> {
  const db = ctx.app.database.db;
  const viewer = viewerOf(ctx);
  await requireCustomer(db, viewer, customerId);
  if (q.storeid !== undefined) await requireStoreOf(db, viewer, customerId, q.storeid, 'storeid');
  const items = await loadCreditInvoices(
    db,
    and(
      eq(creditInvoices.customerId, customerId),
      q.storeid !== undefined ? eq(creditInvoices.storeId, q.storeid) : undefined,
    ),
  );
  return { items };
}

/**
 * Write the type R credit invoice that nets a reversed invoice (issue 29 item 7, decision 152), in the reversal's
 * transaction: numbered from the year's counter like every invoice, issued today, its lines the original's negated
 * (a discount line becomes a positive one), so the two invoices add up to zero. Once per invoice (unique index).
 */
async function writeCreditInvoice(
  tx: Db,
  ctx: ServiceCtx,
  original: InvoiceRow,
  reason: string,
  now: Date,
): Promise<CreditInvoice> {
  const lines = await tx
    .select()
    .from(invoiceLines)
    .where(eq(invoiceLines.invoiceId, original.id))
    .orderBy(asc(invoiceLines.id));
  const credited = lines.map((l) => ({
    billingItemId: l.billingItemId,
    description: l.description,
    quantity: l.quantity,
    unitCents: -l.unitCents,
    amountCents: -l.amountCents,
  }));
  // The lines add up to the credit's total: an invoice whose tax is not one of its lines (the billing run's) gets its
  // tax as a line, and one without lines (older data) a line of what is left.
  let rest = -original.totalCents - credited.reduce((sum, l) => sum + l.amountCents, 0);
  if (rest !== 0 && original.taxCents > 0 && !lines.some((l) => l.billingItemId === BILLING_ITEM_IDS.TAX)) {
    const tax = -original.taxCents;
    credited.push({
      billingItemId: BILLING_ITEM_IDS.TAX,
      description: 'Tax',
      quantity: 1,
      unitCents: tax,
      amountCents: tax,
    });
    rest -= tax;
  }
  if (rest !== 0)
    credited.push({
      billingItemId: BILLING_ITEM_IDS.OTHER_CHARGES,
      description: `Invoice ${original.invoiceNumber}`,
      quantity: 1,
      unitCents: rest,
      amountCents: rest,
    });
  await insertCreditInvoice(
    tx,
    {
      type: 'R',
      customerId: original.customerId,
      storeId: original.storeId,
      currency: original.currency,
      issuedOn: now.toISOString().slice(0, 10),
      reason: `Reversal of invoice ${original.invoiceNumber}: ${reason}`,
      createdByEmail: ctx.session.email,
      reversesInvoiceId: original.id,
      totalCents: -original.totalCents,
      taxCents: -original.taxCents,
      lines: credited,
    },
    now,
    ctx.actor,
    ctx.requestId,
  );
  return (await creditInvoicesOf(tx, [original.id])).get(original.id)!;
}

/**
 * POST …/customerinvoices/{invoiceId}/reverse {reason, version} (decision 058). Only pending (N) or paid (P)
 * invoices; the invoice becomes R with reversed_at. Money already received is not refunded here: a refund credit
 * memo (type R) pending AR approval is created for the paid amount. Pending charges of the invoice are voided.
 */
export async function reverseInvoice(
  ctx: ServiceCtx,
  customerId: number,
  invoiceId: number,
  body: InvoiceReverseRequest,
  idempotencyKey: string | undefined,
): Promise<InvoiceReverseResult> {
  return runIdempotent(
    ctx,
    {
      route: 'POST /customers/:id/customerinvoices/:invoiceId/reverse',
      key: idempotencyKey,
      request: { params: { id: customerId, invoiceId }, body },
    },
    {
      // The gateway is called outside any transaction (decision 116): the pending charges of a reversible invoice
      // are voided first (their void keys name the transaction and its version: a repeat voids once), then the
      // transaction below checks everything again and records the reversal.
      outside: async (): Promise<number[]> => {
        const db = ctx.app.database.db;
        const [inv] = await db
          .select()
          .from(invoices)
          .where(and(eq(invoices.id, invoiceId), eq(invoices.customerId, customerId)));
        if (!inv || inv.version !== body.version || !canReverseInvoice(inv.status as InvoiceStatus)) return [];
        // Nothing is voided on an invoice the caller may not see: the effect below answers 404 (decision 140).
        if (
          !(await isCustomerVisible(db, viewerOf(ctx), customerId)) ||
          !(await isRecordVisible(db, viewerOf(ctx), inv))
        )
          return [];
        const open = await db
          .select()
          .from(transactions)
          .where(and(eq(transactions.invoiceId, invoiceId), eq(transactions.status, 'P')));
        // The money path (decision 144): each void recorded P, sent, answered; one whose answer is lost is finished
        // by the payments sweep, and the transaction below voids the charge in our books meanwhile.
        const voided: number[] = [];
        for (const p of open) {
          const v = await voidCharge(ctx.app, {
            charge: p,
            key: `void:${p.id}:v${p.version}`,
            purpose: 'reverse',
            context: { invoice_id: invoiceId },
            actor: ctx.actor,
            requestId: ctx.requestId,
          });
          if (v.status === 'S') voided.push(p.id);
        }
        return voided;
      },
      effect: async (tx, now, voidedFirst) => {
        await requireCustomer(tx, viewerOf(ctx), customerId);
        const [row] = await tx
          .select()
          .from(invoices)
          .where(and(eq(invoices.id, invoiceId), eq(invoices.customerId, customerId)))
          .for('update');
        if (!row || !(await isRecordVisible(tx, viewerOf(ctx), row)))
          throw new AppError('not_found', `Invoice ${invoiceId} of customer ${customerId} was not found.`);
        const shown = async (r: InvoiceRow) => toInvoice(r, (await balancesOf(tx, [r.id])).get(r.id)!);
        if (row.version !== body.version)
          throw versionConflict(`Invoice ${row.invoiceNumber}`, await shown(row), body.version);
        const status = row.status as InvoiceStatus;
        if (!canReverseInvoice(status)) {
          throw new AppError(
            'conflict',
            `Invoice ${row.invoiceNumber} is ${INVOICE_STATUS_LABELS[status].toLowerCase()}; only pending or paid invoices can be reversed.`,
            undefined,
            { current: await shown(row) },
          );
        }
        const base = { invoice_id: invoiceId, invoice_number: row.invoiceNumber, store_id: row.storeId };
        const pending = await tx
          .select()
          .from(transactions)
          .where(and(eq(transactions.invoiceId, invoiceId), eq(transactions.status, 'P')))
          .orderBy(asc(transactions.id))
          .for('update');
        for (const p of pending) {
          await tx
            .update(transactions)
            .set({ status: 'V', updatedAt: now, version: sql`${transactions.version} + 1` })
            .where(eq(transactions.id, p.id));
          await audit(tx, ctx, now, {
            customerId,
            action: 'void',
            entity: 'transaction',
            entityId: p.id,
            before: {
              transaction_id: p.id,
              invoice_id: invoiceId,
              status: 'P',
              amount_cents: p.amountCents,
              currency: p.currency,
            },
            after: {
              transaction_id: p.id,
              invoice_id: invoiceId,
              status: 'V',
              amount_cents: p.amountCents,
              currency: p.currency,
              reason: `Invoice ${row.invoiceNumber} reversed`,
            },
          });
        }
        // The reversal is a fact (reversed_at); the figures follow from the ledger like every other posting (issue 28):
        // a reversed invoice owes nothing and its status is R (decision 137), written by syncInvoice only.
        await tx.update(invoices).set({ reversedAt: now }).where(eq(invoices.id, invoiceId));
        await syncInvoice(tx, invoiceId, now);
        await audit(tx, ctx, now, {
          customerId,
          action: 'reverse',
          entity: 'invoice',
          entityId: invoiceId,
          before: { ...base, status, reversed_at: null, paid_cents: row.paidCents, total_cents: row.totalCents },
          after: {
            ...base,
            status: 'R',
            reversed_at: now.toISOString(),
            paid_cents: row.paidCents,
            total_cents: row.totalCents,
            reason: body.reason,
          },
        });
        let memo: CreditMemo | null = null;
        if (row.paidCents > 0) {
          const [m] = await tx
            .insert(creditMemos)
            .values({
              customerId,
              storeId: row.storeId,
              invoiceId,
              type: 'R',
              status: 'P',
              amountCents: row.paidCents,
              currency: row.currency,
              reason: `Reversal of invoice ${row.invoiceNumber}: ${body.reason}`,
              createdByEmail: ctx.session.email,
              createdAt: now,
              updatedAt: now,
            })
            .returning();
          memo = toCreditMemo(m!);
          await audit(tx, ctx, now, {
            customerId,
            action: 'create',
            entity: 'credit_memo',
            entityId: memo.id,
            after: {
              credit_memo_id: memo.id,
              invoice_id: invoiceId,
              store_id: row.storeId,
              type: 'R',
              status: 'P',
              amount_cents: memo.amount_cents,
              currency: memo.currency,
              reason: memo.reason,
            },
          });
        }
        const credit = await writeCreditInvoice(tx, ctx, row, body.reason, now);
        const [after] = await tx.select().from(invoices).where(eq(invoices.id, invoiceId));
        return {
          invoice: await shown(after!),
          credit_memo: memo,
          credit_invoice: credit,
          voided_transaction_ids: [...voidedFirst, ...pending.map((p) => p.id)].sort((a, b) => a - b),
        };
      },
    },
  );
}
