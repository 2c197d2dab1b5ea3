import type { Readable } from 'node:stream';
import {
  BILLING_ITEM_IDS,
  cashCheckFeeApplies,
  formatMoney,
  parseSort,
  RECEIPT_CSV_COLUMNS,
  RECEIPT_DEFAULT_SORT,
  RECEIPT_METHOD_LABELS,
  receiptDateProblem,
  type CurrencyCode,
  type ReceiptApply,
  type ReceiptCreate,
  type ReceiptItem,
  type ReceiptMethod,
  type ReceiptPage,
  type ReceiptSearchQuery,
  type ReceiptSearchResult,
  type ReceiptSortField,
} from '@pos/domain';
import { and, asc, desc, eq, gt, gte, ilike, inArray, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { ServiceCtx } from '../../context';
import { cappedCount } from '../../db/capped-count';
import type { Db } from '../../db/client';
import {
  billingItemPrices,
  customers,
  invoiceBalances,
  invoices,
  receiptAllocations,
  receipts,
  stores,
  uploads,
} from '../../db/schema';
import { writeAudit } from '../../http/audit';
import { loadAttachableUpload, requireCustomer, requireStoreOf, viewerOf } from '../../access';
import { AppError, fieldError, notFound, versionConflict } from '../../http/errors';
import { runIdempotent } from '../../http/idempotency';
import { faultPoint } from '../../lib/fault-point';
import { csvStream } from '../../lib/csv-stream';
import { escapeLike, searchTextPattern } from '../../lib/sql-like';
import { billingToday, createSingleLineInvoice, prepareLicenseJobs } from '../billing';
import { balancesOf, lockStoreBalances } from '../ledger';
import { afterPosting } from '../payments';

/*
 * Receipts (issue 16 point 3, decision 119): money received outside the gateway, and its application to the
 * customer's open invoices. receipts.unapplied_cents = amount − allocations, always (the ledger check's rule);
 * an allocation counts as money in on its invoice (the view invoice_balances); after a change of allocations the
 * invoice's stored paid_cents/status follow the ledger and settled invoices leave dunning (payments' afterPosting).
 */

const feeInvoices = alias(invoices, 'fee_invoices');

function receiptSelect(db: Db) {
  return db
    .select({
      r: receipts,
      legalName: customers.legalName,
      customerCountry: customers.country,
      storeCountry: stores.country,
      dba: stores.doingBusinessAs,
      feeInvoiceNumber: feeInvoices.invoiceNumber,
      uploadPublicId: uploads.publicId,
    })
    .from(receipts)
    .innerJoin(customers, eq(customers.id, receipts.customerId))
    .leftJoin(stores, eq(stores.id, receipts.storeId))
    .leftJoin(feeInvoices, eq(feeInvoices.id, receipts.feeInvoiceId))
    .leftJoin(uploads, eq(uploads.id, receipts.uploadId));
}
type ReceiptRow = Awaited<ReturnType<typeof receiptSelect>>[number];

function toItem(row: ReceiptRow): ReceiptItem {
  const r = row.r;
  const method = r.method as ReceiptMethod;
  return {
    id: r.id,
    customer_id: r.customerId,
    legal_name: row.legalName,
    country: row.storeCountry ?? row.customerCountry ?? null,
    store_id: r.storeId,
    doing_business_as: row.dba ?? null,
    method,
    method_label: RECEIPT_METHOD_LABELS[method] ?? r.method,
    reference: r.reference,
    received_on: r.receivedOn,
    amount_cents: r.amountCents,
    applied_cents: r.amountCents - r.unappliedCents,
    unapplied_cents: r.unappliedCents,
    currency: r.currency as CurrencyCode,
    note: r.note,
    upload_id: row.uploadPublicId ?? null,
    fee_invoice_id: r.feeInvoiceId,
    fee_invoice_number: row.feeInvoiceNumber ?? null,
    created_by_email: r.createdByEmail,
    created_at: r.createdAt.toISOString(),
    version: r.version,
  };
}

// ── List ──────────────────────────────────────────────────────────────────────────────────────────────

export function receiptWhere(q: ReceiptSearchQuery): SQL | undefined {
  const text = q.q === undefined ? undefined : q.q;
  return and(
    q.customer_id === undefined ? undefined : eq(receipts.customerId, q.customer_id),
    q.method === undefined ? undefined : eq(receipts.method, q.method),
    q.currency === undefined ? undefined : eq(receipts.currency, q.currency),
    q.received_from === undefined ? undefined : gte(receipts.receivedOn, q.received_from),
    q.received_to === undefined ? undefined : lte(receipts.receivedOn, q.received_to),
    q.unapplied ? gt(receipts.unappliedCents, 0) : undefined,
    text === undefined
      ? undefined
      : or(
          ilike(receipts.reference, `%${escapeLike(text)}%`),
          inArray(
            receipts.customerId,
            sql`(select c.id from customers c where c.search_text like ${searchTextPattern(text)})`,
          ),
          inArray(
            receipts.storeId,
            sql`(select s.id from stores s where s.search_text like ${searchTextPattern(text)})`,
          ),
        ),
  );
}

const SORT_COLUMNS: Readonly<Record<ReceiptSortField, SQL>> = {
  received_on: sql`${receipts.receivedOn}`,
  amount_cents: sql`${receipts.amountCents}`,
  unapplied_cents: sql`${receipts.unappliedCents}`,
  customer: sql`${customers.legalName}`,
  id: sql`${receipts.id}`,
};

function order(sort: ReceiptSearchQuery['sort']): SQL[] {
  const s = parseSort(sort ?? RECEIPT_DEFAULT_SORT, 'received_on');
  const dir = s.desc ? desc : asc;
  return [dir(SORT_COLUMNS[s.field]), dir(receipts.id)];
}

function receiptPageRows(db: Db, q: ReceiptSearchQuery, page: { limit: number; offset: number }) {
  return receiptSelect(db)
    .where(receiptWhere(q))
    .orderBy(...order(q.sort))
    .limit(page.limit)
    .offset(page.offset);
}

/** GET /api/receipts/{token}: one page and the total, exact up to the cap. */
export async function searchReceipts(ctx: ServiceCtx, q: ReceiptSearchQuery): Promise<ReceiptSearchResult> {
  const db = ctx.app.database.db;
  const items = (await receiptPageRows(db, q, q)).map(toItem);
  if (q.offset === 0 && items.length < q.limit) return { items, total: items.length, total_capped: false };
  return { items, ...(await cappedCount(db, receipts, receiptWhere(q))) };
}

/** format=csv: every receipt the filters match, in the list's order, streamed page by page. */
export function searchReceiptsCsv(ctx: ServiceCtx, q: ReceiptSearchQuery): Readable {
  const db = ctx.app.database.db;
  return csvStream(RECEIPT_CSV_COLUMNS, async (limit, offset) =>
    (await receiptPageRows(db, q, { limit, offset })).map(toItem),
  );
}

// ── One receipt ───────────────────────────────────────────────────────────────────────────────────────

/** The receipt, its applications and the customer's open invoices in its currency (oldest due first). */
export async function readReceiptPage(db: Db, receiptId: number): Promise<ReceiptPage> {
  const [row] = await receiptSelect(db).where(eq(receipts.id, receiptId));
  if (!row) throw notFound(`Receipt ${receiptId}`);
  const allocations = await db
    .select({ a: receiptAllocations, invoiceNumber: invoices.invoiceNumber })
    .from(receiptAllocations)
    .innerJoin(invoices, eq(invoices.id, receiptAllocations.invoiceId))
    .where(eq(receiptAllocations.receiptId, receiptId))
    .orderBy(asc(receiptAllocations.id));
  const open = await db
    .select({
      id: invoices.id,
      invoiceNumber: invoices.invoiceNumber,
      storeId: invoices.storeId,
      dba: stores.doingBusinessAs,
      issuedOn: invoices.issuedOn,
      dueOn: invoices.dueOn,
      totalCents: invoices.totalCents,
      openCents: invoiceBalances.openCents,
      currency: invoices.currency,
    })
    .from(invoices)
    .innerJoin(invoiceBalances, eq(invoiceBalances.invoiceId, invoices.id))
    .leftJoin(stores, eq(stores.id, invoices.storeId))
    .where(
      and(
        eq(invoices.customerId, row.r.customerId),
        eq(invoices.currency, row.r.currency),
        isNull(invoices.reversedAt),
        gt(invoiceBalances.openCents, 0),
      ),
    )
    .orderBy(asc(invoices.dueOn), asc(invoices.id))
    .limit(500);
  return {
    receipt: toItem(row),
    allocations: allocations.map(({ a, invoiceNumber }) => ({
      id: a.id,
      invoice_id: a.invoiceId,
      invoice_number: invoiceNumber,
      amount_cents: a.amountCents,
      allocated_by_email: a.allocatedByEmail,
      allocated_at: a.allocatedAt.toISOString(),
    })),
    open_invoices: open.map((i) => ({
      invoice_id: i.id,
      invoice_number: i.invoiceNumber,
      store_id: i.storeId,
      doing_business_as: i.dba ?? null,
      issued_on: i.issuedOn,
      due_on: i.dueOn,
      total_cents: i.totalCents,
      open_cents: i.openCents,
      currency: i.currency as CurrencyCode,
    })),
  };
}

/** GET /api/receipts/{receiptId}/{token}. */
export function getReceipt(ctx: ServiceCtx, receiptId: number): Promise<ReceiptPage> {
  return readReceiptPage(ctx.app.database.db, receiptId);
}

// ── Record ────────────────────────────────────────────────────────────────────────────────────────────

/**
 * POST /api/receipts/{token}: record money received. The currency is the store's (or the customer's); a check may
 * carry its image (an upload of kind checkImage not linked to another receipt); with `charge_fee` a US customer
 * paying cash or by check is charged the cash/check fee (billing item 53) on an invoice of its own (decision 119).
 */
export async function recordReceipt(
  ctx: ServiceCtx,
  body: ReceiptCreate,
  idempotencyKey: string | undefined,
): Promise<ReceiptPage> {
  return runIdempotent(
    ctx,
    { route: 'POST /receipts', key: idempotencyKey, request: { params: {}, body }, status: 201 },
    async (tx, now) => {
      const customer = await requireCustomer(tx, viewerOf(ctx), body.customer_id).catch((err: unknown) => {
        if (err instanceof AppError && err.code === 'not_found')
          throw new AppError('not_found', err.message, { customer_id: 'Choose the customer from the search.' });
        throw err;
      });
      const store =
        body.store_id == null ? null : await requireStoreOf(tx, viewerOf(ctx), customer.id, body.store_id, 'store_id');
      const currency = store?.currency ?? customer.currency;
      if (currency && body.currency !== currency)
        throw fieldError(
          'currency',
          `${store ? `Store ${store.id}` : `Customer ${customer.id}`} is billed in ${currency}: record the receipt in ${currency}.`,
        );
      // The billing day (BILLING_TIME_ZONE), as everywhere a day of money is compared: not in the future, not more
      // than RECEIPT_MAX_AGE_YEARS back (the domain's receiptDateProblem).
      const dateProblem = receiptDateProblem(body.received_on, billingToday(ctx.app));
      if (dateProblem) throw fieldError('received_on', dateProblem);

      // The check image: one this user uploaded and that is attached to nothing yet (else 404, like a missing one).
      const upload =
        body.upload_id == null ? null : await loadAttachableUpload(tx, ctx.session, body.upload_id, 'upload_id', true);
      if (upload && upload.kind !== 'checkImage')
        throw fieldError('upload_id', 'Upload the check image again: that file is not a check image.');

      let fee: { id: number; invoiceNumber: string; cents: number } | null = null;
      if (body.charge_fee) {
        const country = store?.country ?? customer.country;
        if (!cashCheckFeeApplies({ method: body.method, currency: body.currency, country }))
          throw fieldError(
            'charge_fee',
            'The cash/check fee is charged only to US customers paying in USD by cash or check. Untick it.',
          );
        const [price] = await tx
          .select({ cents: billingItemPrices.priceCents })
          .from(billingItemPrices)
          .where(
            and(
              eq(billingItemPrices.billingItemId, BILLING_ITEM_IDS.CASH_CHECK_FEE),
              eq(billingItemPrices.currency, body.currency),
            ),
          );
        if (!price || price.cents <= 0)
          throw fieldError('charge_fee', `The catalogue has no ${body.currency} price for the cash/check fee.`);
        const inv = await createSingleLineInvoice(
          tx,
          {
            customerId: customer.id,
            storeId: store?.id ?? null,
            currency: body.currency,
            billingItemId: BILLING_ITEM_IDS.CASH_CHECK_FEE,
            description: body.method === 'cash' ? 'Cash payment fee' : 'Check payment fee',
            amountCents: price.cents,
            reason: 'cash_check_fee',
          },
          now,
          ctx.actor,
          ctx.requestId,
        );
        fee = { ...inv, cents: price.cents };
      }

      const [created] = await tx
        .insert(receipts)
        .values({
          customerId: customer.id,
          storeId: store?.id ?? null,
          amountCents: body.amount_cents,
          unappliedCents: body.amount_cents,
          currency: body.currency,
          method: body.method,
          reference: body.reference ?? null,
          receivedOn: body.received_on,
          note: body.note ?? null,
          uploadId: upload?.id ?? null,
          feeInvoiceId: fee?.id ?? null,
          createdByEmail: ctx.session.email,
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      if (upload)
        await tx
          .update(uploads)
          .set({ ownerType: 'receipt', ownerId: String(created!.id) })
          .where(eq(uploads.id, upload.id));
      await writeAudit(tx, {
        ...ctx.actor,
        at: now,
        action: 'create',
        entity: 'receipt',
        entityId: created!.id,
        after: {
          customer_id: customer.id,
          store_id: store?.id ?? null,
          method: body.method,
          amount_cents: body.amount_cents,
          currency: body.currency,
          reference: body.reference ?? null,
          received_on: body.received_on,
          upload_id: body.upload_id ?? null,
          fee_invoice: fee ? { id: fee.id, invoice_number: fee.invoiceNumber, total_cents: fee.cents } : null,
        },
        requestId: ctx.requestId,
        customerId: customer.id,
      });
      return readReceiptPage(tx, created!.id);
    },
  );
}

// ── Apply / un-apply ──────────────────────────────────────────────────────────────────────────────────

/** The receipt row, locked for the rest of the transaction; 404 if unknown, 409 if `version` is stale. */
async function lockReceipt(tx: Db, receiptId: number, version: number) {
  const [r] = await tx.select().from(receipts).where(eq(receipts.id, receiptId)).for('update');
  if (!r) throw notFound(`Receipt ${receiptId}`);
  if (r.version !== version)
    throw versionConflict(`Receipt ${receiptId}`, await readReceiptPage(tx, receiptId), version);
  return r;
}

const money = (cents: number, currency: string) => formatMoney(cents, currency as CurrencyCode);

/**
 * POST /api/receipts/{receiptId}/applications/{token}: apply parts of the receipt to open invoices of its customer.
 * Under the receipt's row lock and the invoices' (in id order: two requests never wait on each other in a circle),
 * the unapplied amount and each invoice's open balance are read again; nothing over either is applied.
 */
export async function applyReceipt(
  ctx: ServiceCtx,
  receiptId: number,
  body: ReceiptApply,
  idempotencyKey: string | undefined,
): Promise<ReceiptPage> {
  return runIdempotent(
    ctx,
    {
      route: 'POST /receipts/:receiptId/applications',
      key: idempotencyKey,
      request: { params: { receiptId }, body },
    },
    {
      outside: () => prepareLicenseJobs(ctx.app),
      effect: async (tx, now) => {
        const receipt = await lockReceipt(tx, receiptId, body.version);
        const ids = [...new Set(body.applications.map((a) => a.invoice_id))].sort((a, b) => a - b);
        const locked = await tx
          .select({
            id: invoices.id,
            customerId: invoices.customerId,
            currency: invoices.currency,
            reversedAt: invoices.reversedAt,
            invoiceNumber: invoices.invoiceNumber,
          })
          .from(invoices)
          .where(inArray(invoices.id, ids))
          .orderBy(asc(invoices.id))
          .for('update');
        const byId = new Map(locked.map((i) => [i.id, i]));
        // An invoice that is not the receipt's customer's is answered like a missing one (decision 140).
        const foreign: Record<string, string> = {};
        body.applications.forEach((a, i) => {
          const inv = byId.get(a.invoice_id);
          if (!inv || inv.customerId !== receipt.customerId)
            foreign[`applications.${i}.invoice_id`] =
              `Invoice ${a.invoice_id} is not an invoice of customer ${receipt.customerId}.`;
        });
        if (Object.keys(foreign).length > 0) throw new AppError('not_found', Object.values(foreign)[0]!, foreign);
        const balances = await balancesOf(tx, ids);
        const fields: Record<string, string> = {};
        body.applications.forEach((a, i) => {
          const inv = byId.get(a.invoice_id);
          const at = `applications.${i}`;
          if (!inv) return;
          if (inv.currency !== receipt.currency)
            fields[`${at}.invoice_id`] =
              `Invoice ${inv.invoiceNumber} is in ${inv.currency}; the receipt is in ${receipt.currency}.`;
          else if (inv.reversedAt) fields[`${at}.invoice_id`] = `Invoice ${inv.invoiceNumber} was reversed.`;
          else {
            const open = balances.get(a.invoice_id)?.open_cents ?? 0;
            if (a.amount_cents > open)
              fields[`${at}.amount_cents`] =
                open === 0
                  ? `Invoice ${inv.invoiceNumber} has nothing left to pay.`
                  : `Invoice ${inv.invoiceNumber} has only ${money(open, inv.currency)} open.`;
          }
        });
        const total = body.applications.reduce((s, a) => s + a.amount_cents, 0);
        if (total > receipt.unappliedCents)
          fields.applications = `Only ${money(receipt.unappliedCents, receipt.currency)} of the receipt is left to apply; you entered ${money(total, receipt.currency)}.`;
        if (Object.keys(fields).length > 0) {
          const first = Object.values(fields)[0]!;
          throw new AppError('validation_failed', first, fields);
        }

        const inserted = await tx
          .insert(receiptAllocations)
          .values(
            body.applications.map((a) => ({
              receiptId,
              invoiceId: a.invoice_id,
              amountCents: a.amount_cents,
              allocatedByEmail: ctx.session.email,
              allocatedAt: now,
            })),
          )
          .returning();
        await tx
          .update(receipts)
          .set({
            unappliedCents: sql`${receipts.unappliedCents} - ${total}`,
            updatedAt: now,
            version: sql`${receipts.version} + 1`,
          })
          .where(eq(receipts.id, receiptId));
        await lockStoreBalances(tx, ids);
        // The posting's side effects in one place (decision 144): figures synced, settled invoices out of dunning,
        // licenses moved on.
        const synced = await afterPosting(tx, ctx.app, ids, now, ctx.actor, ctx.requestId);
        for (const id of ids) {
          const { before, derived } = synced.get(id)!;
          const applied = inserted.filter((a) => a.invoiceId === id);
          await writeAudit(tx, {
            ...ctx.actor,
            at: now,
            action: 'receipt_applied',
            entity: 'invoice',
            entityId: id,
            before: { paid_cents: before.paidCents, status: before.status },
            after: {
              receipt_id: receiptId,
              allocation_ids: applied.map((a) => a.id),
              amount_cents: applied.reduce((s, a) => s + a.amountCents, 0),
              paid_cents: derived.paid_cents,
              status: derived.status,
              open_cents: derived.open_cents,
            },
            requestId: ctx.requestId,
            customerId: receipt.customerId,
          });
        }
        await writeAudit(tx, {
          ...ctx.actor,
          at: now,
          action: 'apply',
          entity: 'receipt',
          entityId: receiptId,
          before: { unapplied_cents: receipt.unappliedCents, version: receipt.version },
          after: {
            applications: inserted.map((a) => ({ id: a.id, invoice_id: a.invoiceId, amount_cents: a.amountCents })),
            unapplied_cents: receipt.unappliedCents - total,
          },
          requestId: ctx.requestId,
          customerId: receipt.customerId,
        });
        await faultPoint(ctx.app.config, 'receipt-apply:uncommitted');
        return readReceiptPage(tx, receiptId);
      },
    },
  );
}

/**
 * DELETE /api/receipts/{receiptId}/applications/{allocationId}/{token}?version: un-apply one application. The row is
 * deleted (the audit keeps it), the receipt's unapplied amount and the invoice's balance come back exactly.
 */
export async function unapplyReceipt(
  ctx: ServiceCtx,
  input: { receiptId: number; allocationId: number; version: number },
  idempotencyKey: string | undefined,
): Promise<ReceiptPage> {
  const { receiptId, allocationId, version } = input;
  return runIdempotent(
    ctx,
    {
      route: 'DELETE /receipts/:receiptId/applications/:allocationId',
      key: idempotencyKey,
      request: { params: { receiptId, allocationId }, body: { version } },
    },
    {
      outside: () => prepareLicenseJobs(ctx.app),
      effect: async (tx, now) => {
        const receipt = await lockReceipt(tx, receiptId, version);
        const [allocation] = await tx
          .select()
          .from(receiptAllocations)
          .where(and(eq(receiptAllocations.id, allocationId), eq(receiptAllocations.receiptId, receiptId)));
        if (!allocation) throw notFound(`Application ${allocationId} of receipt ${receiptId}`);
        await tx.select({ id: invoices.id }).from(invoices).where(eq(invoices.id, allocation.invoiceId)).for('update');
        await tx.delete(receiptAllocations).where(eq(receiptAllocations.id, allocationId));
        await tx
          .update(receipts)
          .set({
            unappliedCents: sql`${receipts.unappliedCents} + ${allocation.amountCents}`,
            updatedAt: now,
            version: sql`${receipts.version} + 1`,
          })
          .where(eq(receipts.id, receiptId));
        const { before, derived } = (
          await afterPosting(tx, ctx.app, [allocation.invoiceId], now, ctx.actor, ctx.requestId)
        ).get(allocation.invoiceId)!;
        const removed = {
          id: allocation.id,
          invoice_id: allocation.invoiceId,
          amount_cents: allocation.amountCents,
          allocated_by_email: allocation.allocatedByEmail,
          allocated_at: allocation.allocatedAt.toISOString(),
        };
        await writeAudit(tx, {
          ...ctx.actor,
          at: now,
          action: 'receipt_unapplied',
          entity: 'invoice',
          entityId: allocation.invoiceId,
          before: { paid_cents: before.paidCents, status: before.status },
          after: {
            receipt_id: receiptId,
            allocation: removed,
            paid_cents: derived.paid_cents,
            status: derived.status,
            open_cents: derived.open_cents,
          },
          requestId: ctx.requestId,
          customerId: receipt.customerId,
        });
        await writeAudit(tx, {
          ...ctx.actor,
          at: now,
          action: 'unapply',
          entity: 'receipt',
          entityId: receiptId,
          before: { allocation: removed, unapplied_cents: receipt.unappliedCents, version: receipt.version },
          after: { unapplied_cents: receipt.unappliedCents + allocation.amountCents },
          requestId: ctx.requestId,
          customerId: receipt.customerId,
        });
        return readReceiptPage(tx, receiptId);
      },
    },
  );
}
