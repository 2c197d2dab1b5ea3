import {
  describeBankAccount,
  describeCard,
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
import { and, eq, inArray, type SQL } from 'drizzle-orm';
import type { ServiceCtx } from '../../context';
import { cappedCount } from '../../db/capped-count';
import type { Db } from '../../db/client';
import { customers, invoices, paymentInstruments, transactions } from '../../db/schema';
import {
  requireCustomer,
  requireInvoiceOf,
  requireStoreOf,
  viewerOf,
  visibleCustomersWhere,
  visibleRecordsWhere,
} from '../../access';
import { retryFailedCharge, voidCharge } from '../payments';
import { AppError, versionConflict } from '../../http/errors';
import { isoOrNull, orderBy } from './account-context';
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

/** 'Visa ending 4242', 'Royal Bank ending 6789', 'Cash' (the domain's payment-method wording). */
export function instrumentLabel(pi: {
  kind: string;
  brand: string | null;
  last4: string | null;
  bankName: string | null;
  accountLast4: string | null;
}): string {
  if (pi.kind === 'card') return describeCard(pi.brand, pi.last4);
  if (pi.kind === 'bank') return describeBankAccount(pi.bankName, pi.accountLast4);
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
    await requireCustomer(db, viewerOf(ctx), customerId);
    if (q.storeid !== undefined) await requireStoreOf(db, viewerOf(ctx), customerId, q.storeid, 'storeid');
  }
  if (!q.fetch && q.invoiceid !== undefined)
    await requireInvoiceOf(db, viewerOf(ctx), customerId, q.invoiceid, 'invoiceid');
  // An agent-scoped session sees its own merchants' transactions only, in both forms of the list (decision 140).
  const viewer = viewerOf(ctx);
  const scope = and(
    q.fetch ? visibleCustomersWhere(viewer, transactions.customerId) : undefined,
    visibleRecordsWhere(viewer, transactions.storeId),
  );
  const where = and(transactionListWhere(q.fetch ? null : customerId, q), scope);
  const page = async () => {
    const merge = q.fetch && scope === undefined ? acrossStatusesSql(q) : null;
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
 * POST …/transactions/{txId} {action, version} (decisions 058, 116). retry: a failed (F) charge is charged again
 * through the charging engine — P recorded and committed, the gateway called outside any transaction, S or F
 * recorded — on the customer's default active payment method (else the original one); the original becomes R
 * (reprocessed); a success pays the invoice (its open balance). void: a pending (P) charge is voided at the
 * gateway, then becomes V. Anything else → 409. The charge's idempotency key names the transaction and the version
 * acted on, and the version moves on: a charge is never made twice.
 */
export async function actOnTransaction(
  ctx: ServiceCtx,
  customerId: number,
  txId: number,
  body: TransactionActionRequest,
  idempotencyKey: string | undefined,
): Promise<TransactionActionResult> {
  const db = ctx.app.database.db;
  return runIdempotent(
    ctx,
    {
      route: 'POST /customers/:id/transactions/:txId',
      key: idempotencyKey,
      request: { params: { id: customerId, txId }, body },
    },
    {
      outside: async () => {
        await requireCustomer(db, viewerOf(ctx), customerId);
        const [row] = await db
          .select()
          .from(transactions)
          .where(and(eq(transactions.id, txId), eq(transactions.customerId, customerId)));
        if (!row) throw new AppError('not_found', `Transaction ${txId} of customer ${customerId} was not found.`);
        const current = () => transactionById(db, txId);
        if (row.version !== body.version) throw versionConflict(`Transaction ${txId}`, await current(), body.version);
        const status = row.status as TransactionStatus;
        if (!transactionActionsFor(status).includes(body.action)) {
          const why =
            body.action === 'retry'
              ? `Only a failed (F) transaction can be retried; transaction ${txId} is ${TRANSACTION_STATUS_LABELS[status]} (${status}).`
              : `Only a pending (P) transaction can be voided; transaction ${txId} is ${TRANSACTION_STATUS_LABELS[status]} (${status}).`;
          throw new AppError('conflict', why, undefined, { current: await current() });
        }
        if (body.action === 'void') {
          // The money path (decision 144): the void recorded P, the gateway called outside any transaction, the
          // charge V once it answered (a lost answer: the payments sweep finishes it).
          const voided = await voidCharge(ctx.app, {
            charge: row,
            key: `void:${txId}:v${row.version}`,
            purpose: 'transaction',
            actor: ctx.actor,
            requestId: ctx.requestId,
          });
          if (voided.status === 'P')
            throw new AppError(
              'unavailable',
              'The payment gateway did not answer. The void is recorded and is finished when the gateway answers.',
            );
          return { action: 'void' as const, row, newId: null };
        }
        // The one retry rule (payments' retryFailedCharge), the same as the failed-payments list's bulk retry.
        const outcome = await retryFailedCharge(ctx.app, {
          transactionId: txId,
          customerId,
          version: row.version,
          actor: ctx.actor,
          requestId: ctx.requestId,
        }).catch(async (err: unknown) => {
          // A refusal shows the transaction as it is now, like the checks above.
          if (err instanceof AppError && err.code === 'conflict')
            throw new AppError('conflict', err.message, err.fields, { current: await current() });
          throw err;
        });
        return { action: 'retry' as const, row, newId: outcome.transactionId };
      },
      effect: async (tx, _now, { action, newId }) => {
        if (action === 'retry') {
          return { transaction: await transactionById(tx, txId), new_transaction: await transactionById(tx, newId!) };
        }
        // Voided by the money path (its answer recorded the charge V in its own transaction).
        return { transaction: await transactionById(tx, txId), new_transaction: null };
      },
    },
  );
}
