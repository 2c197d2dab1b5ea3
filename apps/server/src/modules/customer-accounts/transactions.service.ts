import {
  TRANSACTION_STATUS_LABELS,
  TRANSACTION_STATUSES,
  transactionActionsFor,
  type CurrencyCode,
  type Transaction,
  type TransactionActionRequest,
  type TransactionActionResult,
  type TransactionList,
  type TransactionListQuery,
  type TransactionStatus,
} from '@pos/domain';
import { and, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { ServiceCtx } from '../../context';
import { cappedCount } from '../../db/capped-count';
import type { Db } from '../../db/client';
import { customers, invoices, paymentInstruments, transactions } from '../../db/schema';
import { requireCustomer, requireStoreOf } from '../../http/customer-refs';
import { applyPaidInvoices, prepareLicenseJobs } from '../billing';
import { balancesOf } from '../ledger';
import { AppError, versionConflict } from '../../http/errors';
import { audit, isoOrNull, orderBy } from './account-context';
import { runIdempotent } from '../../http/idempotency';

export function selectTransactions(db: Db) {
  return db
    .select({
      t: transactions,
      customerName: customers.legalName,
      invoiceNumber: invoices.invoiceNumber,
      pi: {
        id: paymentInstruments.id,
        kind: paymentInstruments.kind,
        brand: paymentInstruments.cardBrand,
        last4: paymentInstruments.cardLast4,
        bankName: paymentInstruments.bankName,
        accountLast4: paymentInstruments.accountLast4,
      },
    })
    .from(transactions)
    .innerJoin(customers, eq(customers.id, transactions.customerId))
    .leftJoin(invoices, eq(invoices.id, transactions.invoiceId))
    .leftJoin(paymentInstruments, eq(paymentInstruments.id, transactions.paymentInstrumentId));
}
type TransactionRow = Awaited<ReturnType<ReturnType<typeof selectTransactions>['execute']>>[number];

/** 'visa ····4242', 'Royal Bank ····6789', 'Cash'. */
export function instrumentLabel(pi: {
  kind: string;
  brand: string | null;
  last4: string | null;
  bankName: string | null;
  accountLast4: string | null;
}): string {
  if (pi.kind === 'card') return `${pi.brand ?? 'card'} ····${pi.last4 ?? ''}`;
  if (pi.kind === 'bank') return `${pi.bankName ?? 'Bank account'} ····${pi.accountLast4 ?? ''}`;
  return 'Cash';
}

export function toTransaction(x: TransactionRow): Transaction {
  const t = x.t;
  const status = t.status as TransactionStatus;
  return {
    id: t.id,
    customer_id: t.customerId,
    customer_name: x.customerName,
    store_id: t.storeId,
    invoice_id: t.invoiceId,
    invoice_number: x.invoiceNumber,
    instrument:
      x.pi && x.pi.id !== null
        ? { id: x.pi.id, kind: x.pi.kind as 'card' | 'bank' | 'cash', label: instrumentLabel(x.pi) }
        : null,
    kind: t.kind,
    status,
    status_label: TRANSACTION_STATUS_LABELS[status],
    amount_cents: t.amountCents,
    currency: t.currency as CurrencyCode,
    gateway_reference: t.gatewayReference,
    failure_reason: t.failureReason,
    attempted_at: t.attemptedAt.toISOString(),
    settled_at: isoOrNull(t.settledAt),
    actions: transactionActionsFor(status),
    version: t.version,
  };
}

export async function transactionById(db: Db, id: number): Promise<Transaction> {
  const [row] = await selectTransactions(db).where(eq(transactions.id, id));
  return toTransaction(row!);
}

/**
 * GET …/transactions?storeid&status&invoiceid. With fetch=true the list spans every customer (the failed-payments
 * form of §7, `…/customers/1/{token}/transactions?fetch=true&status=F`): the id in the path is not used.
 * The total is exact up to SEARCH_TOTAL_CAP (`total_capped` beyond). The default sort (newest attempt first) walks
 * `transactions_status_idx (status, attempted_at, id)` or `transactions_customer_idx (customer_id, attempted_at, id)`
 * backwards and stops at the page (decision 109).
 */
export async function listTransactions(
  ctx: ServiceCtx,
  customerId: number,
  q: TransactionListQuery,
): Promise<TransactionList> {
  const db = ctx.app.database.db;
  if (!q.fetch) {
    await requireCustomer(db, customerId);
    if (q.storeid !== undefined) await requireStoreOf(db, customerId, q.storeid, 'storeid');
  }
  const where = transactionListWhere(q.fetch ? null : customerId, q);
  const page = async () => {
    const merge = q.fetch ? acrossStatusesSql(q) : null;
    if (!merge) return transactionPage(db, where, q);
    const ids = (await ctx.app.database.query<{ id: number }>(merge.text, merge.params)).map((r) => r.id);
    return ids.length ? transactionPage(db, inArray(transactions.id, ids), { ...q, offset: 0 }) : [];
  };
  const [rows, total] = await Promise.all([page(), cappedCount(db, transactions, where)]);
  return { items: rows.map(toTransaction), ...total };
}

/**
 * Every customer's transactions of any status, by attempt time (fetch=true without status, store or invoice): no
 * index leads with attempted_at, so the page's ids are merged from one walk of `transactions_status_idx` per status
 * (the seven letters of the check constraint), each stopping after `offset + limit` rows. Null when the list is
 * filtered or sorted otherwise.
 */
export function acrossStatusesSql(q: TransactionListQuery): { text: string; params: unknown[] } | null {
  const sort = q.sort ?? '-attempted_at';
  if (q.status !== undefined || q.storeid !== undefined || q.invoiceid !== undefined) return null;
  if (sort !== 'attempted_at' && sort !== '-attempted_at') return null;
  const dir = sort.startsWith('-') ? 'desc' : 'asc';
  const order = `order by attempted_at ${dir}, id ${dir}`;
  const parts = TRANSACTION_STATUSES.map(
    (_, i) => `(select id, attempted_at from transactions where status = $${i + 4} ${order} limit $1)`,
  );
  return {
    text: `select id from (${parts.join(' union all ')}) k ${order} limit $2 offset $3`,
    params: [q.offset + q.limit, q.limit, q.offset, ...TRANSACTION_STATUSES],
  };
}

/** The filters of the list: one customer's transactions, or (null) every customer's. */
export function transactionListWhere(customerId: number | null, q: TransactionListQuery): SQL | undefined {
  return and(
    q.status === undefined ? undefined : eq(transactions.status, q.status),
    q.storeid === undefined ? undefined : eq(transactions.storeId, q.storeid),
    q.invoiceid === undefined ? undefined : eq(transactions.invoiceId, q.invoiceid),
    customerId === null ? undefined : eq(transactions.customerId, customerId),
  );
}

/** One page of the list in its sort order (the tie-breaker `id` follows the direction: an index walk). */
export function transactionPage(db: Db, where: SQL | undefined, q: TransactionListQuery) {
  return selectTransactions(db)
    .where(where)
    .orderBy(
      ...orderBy(
        q.sort,
        {
          attempted_at: transactions.attemptedAt,
          amount_cents: transactions.amountCents,
          status: transactions.status,
          id: transactions.id,
        },
        '-attempted_at',
        transactions.id,
        { tieFollowsSort: true },
      ),
    )
    .limit(q.limit)
    .offset(q.offset);
}

/**
 * POST …/transactions/{txId} {action, version} (decision 058). retry: a failed (F) charge is charged again through
 * the gateway on the customer's default active payment method (else the original one); the original becomes R
 * (reprocessed) and the new charge is S or F; a success pays the invoice. void: a pending (P) charge is voided
 * at the gateway and becomes V. Anything else → 409. The gateway's idempotency key is the transaction id and the
 * version acted on, and the version moves on commit: a charge is never made twice.
 */
export async function actOnTransaction(
  ctx: ServiceCtx,
  customerId: number,
  txId: number,
  body: TransactionActionRequest,
  idempotencyKey: string | undefined,
): Promise<TransactionActionResult> {
  const gateway = ctx.app.gateway;
  // A paid service invoice may restore a lapsed license (a push-license job): its queue is made outside the transaction.
  await prepareLicenseJobs(ctx.app);
  return runIdempotent(
    ctx,
    {
      route: 'POST /customers/:id/transactions/:txId',
      key: idempotencyKey,
      request: { params: { id: customerId, txId }, body },
    },
    async (tx, now) => {
      await requireCustomer(tx, customerId);
      const [row] = await tx
        .select()
        .from(transactions)
        .where(and(eq(transactions.id, txId), eq(transactions.customerId, customerId)))
        .for('update');
      if (!row) throw new AppError('not_found', `Transaction ${txId} of customer ${customerId} was not found.`);
      const current = () => transactionById(tx, txId);
      if (row.version !== body.version) throw versionConflict(`Transaction ${txId}`, await current(), body.version);
      const status = row.status as TransactionStatus;
      if (!transactionActionsFor(status).includes(body.action)) {
        const why =
          body.action === 'retry'
            ? `Only a failed (F) transaction can be retried; transaction ${txId} is ${TRANSACTION_STATUS_LABELS[status]} (${status}).`
            : `Only a pending (P) transaction can be voided; transaction ${txId} is ${TRANSACTION_STATUS_LABELS[status]} (${status}).`;
        throw new AppError('conflict', why, undefined, { current: await current() });
      }
      const base = {
        transaction_id: txId,
        store_id: row.storeId,
        invoice_id: row.invoiceId,
        amount_cents: row.amountCents,
        currency: row.currency,
      };

      if (body.action === 'void') {
        await gateway.voidCharge({
          reference: row.gatewayReference ?? `tx_${txId}`,
          idempotencyKey: `void:${txId}:v${row.version}`,
        });
        await tx
          .update(transactions)
          .set({ status: 'V', updatedAt: now, version: sql`${transactions.version} + 1` })
          .where(eq(transactions.id, txId));
        await audit(tx, ctx, now, {
          customerId,
          action: 'void',
          entity: 'transaction',
          entityId: txId,
          before: { ...base, status },
          after: { ...base, status: 'V' },
        });
        return { transaction: await current(), new_transaction: null };
      }

      // retry
      const [inv] =
        row.invoiceId === null
          ? []
          : await tx.select().from(invoices).where(eq(invoices.id, row.invoiceId)).for('update');
      if (inv?.status === 'R')
        throw new AppError(
          'conflict',
          `Invoice ${inv.invoiceNumber} was reversed; its failed charge is not retried.`,
          undefined,
          { current: await current() },
        );
      if (inv?.status === 'P')
        throw new AppError(
          'conflict',
          `Invoice ${inv.invoiceNumber} is already paid; its failed charge is not retried.`,
          undefined,
          { current: await current() },
        );
      const [instrument] = await tx
        .select()
        .from(paymentInstruments)
        .where(and(eq(paymentInstruments.customerId, customerId), eq(paymentInstruments.status, 'active')))
        .orderBy(
          desc(paymentInstruments.isDefault),
          desc(sql`${paymentInstruments.storeId} is not distinct from ${row.storeId}`),
          desc(sql`${paymentInstruments.id} = ${row.paymentInstrumentId ?? 0}`),
          desc(paymentInstruments.id),
        )
        .limit(1);
      if (!instrument || instrument.kind === 'cash') {
        throw new AppError(
          'conflict',
          `Customer ${customerId} has no card or bank account on file to charge. Add a payment method first.`,
          undefined,
          { current: await current() },
        );
      }
      const gatewayKey = `retry:${txId}:v${row.version}`;
      const charge = await gateway.charge({
        customerId,
        amountCents: row.amountCents,
        currency: row.currency as CurrencyCode,
        paymentReference: instrument.kind === 'card' ? instrument.processorReference! : `pi_${instrument.id}`,
        instrumentKind: instrument.kind as 'card' | 'bank',
        idempotencyKey: gatewayKey,
        description: inv
          ? `Invoice ${inv.invoiceNumber} (retry of transaction ${txId})`
          : `Retry of transaction ${txId}`,
      });
      const ok = charge.status === 'succeeded';
      const [created] = await tx
        .insert(transactions)
        .values({
          customerId,
          storeId: row.storeId,
          invoiceId: row.invoiceId,
          paymentInstrumentId: instrument.id,
          kind: 'charge',
          status: ok ? 'S' : 'F',
          amountCents: row.amountCents,
          currency: row.currency,
          gatewayReference: charge.reference,
          failureReason: ok ? null : (charge.failureReason ?? 'Declined'),
          idempotencyKey: gatewayKey,
          attemptedAt: now,
          settledAt: ok ? now : null,
          createdAt: now,
          updatedAt: now,
        })
        .returning({ id: transactions.id });
      await tx
        .update(transactions)
        .set({ status: 'R', updatedAt: now, version: sql`${transactions.version} + 1` })
        .where(eq(transactions.id, txId));
      await audit(tx, ctx, now, {
        customerId,
        action: 'retry',
        entity: 'transaction',
        entityId: txId,
        before: { ...base, status },
        after: { ...base, status: 'R', retried_by_transaction_id: created!.id },
      });
      await audit(tx, ctx, now, {
        customerId,
        action: 'create',
        entity: 'transaction',
        entityId: created!.id,
        after: {
          ...base,
          transaction_id: created!.id,
          status: ok ? 'S' : 'F',
          payment_instrument_id: instrument.id,
          gateway_reference: charge.reference,
          failure_reason: ok ? null : charge.failureReason,
          retry_of_transaction_id: txId,
        },
      });
      if (ok && inv) {
        // The stored paid_cents and status follow the ledger (decision 112), credits and write-offs included.
        const derived = (await balancesOf(tx, [inv.id])).get(inv.id)!;
        const paid = derived.paid_cents;
        const invStatus = derived.status;
        await tx
          .update(invoices)
          .set({ paidCents: paid, status: invStatus, updatedAt: now, version: sql`${invoices.version} + 1` })
          .where(eq(invoices.id, inv.id));
        await audit(tx, ctx, now, {
          customerId,
          action: 'payment_applied',
          entity: 'invoice',
          entityId: inv.id,
          before: {
            invoice_id: inv.id,
            invoice_number: inv.invoiceNumber,
            status: inv.status,
            paid_cents: inv.paidCents,
          },
          after: {
            invoice_id: inv.id,
            invoice_number: inv.invoiceNumber,
            status: invStatus,
            paid_cents: paid,
            transaction_id: created!.id,
          },
        });
        // A paid service invoice moves the license on, and may restore a lapsed store (decision 113).
        await applyPaidInvoices(tx, ctx.app, [inv.id], now, ctx.actor, ctx.requestId);
      }
      return { transaction: await current(), new_transaction: await transactionById(tx, created!.id) };
    },
  );
}
