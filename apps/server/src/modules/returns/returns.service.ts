import type { Readable } from 'node:stream';
import {
  hasAnyPermission,
  OPEN_RETURN_STATUSES,
  parseSort,
  RETURN_ACTION_FROM,
  RETURN_ACTION_TO,
  RETURN_CSV_COLUMNS,
  RETURN_DEFAULT_SORT,
  RETURN_FOUR_EYES_CENTS,
  RETURN_RESTOCKING_FEE_CENTS,
  RETURN_STATUS_LABELS,
  BILLING_ITEM_IDS,
  restockingFeeCents,
  returnBreakdown,
  returnCreditLines,
  returnCreateRequest,
  type CurrencyCode,
  type ReturnCreateRequest,
  type ReturnDetail,
  type ReturnEligibility,
  type ReturnEligibilityQuery,
  type ReturnEligibleSale,
  type ReturnItem,
  type ReturnRefundMethod,
  type ReturnRefundRequest,
  type ReturnSearchQuery,
  type ReturnSearchResult,
  type ReturnSortField,
  type ReturnStatus,
  type ReturnStatusRequest,
} from '@pos/domain';
import { and, asc, desc, eq, gte, inArray, isNotNull, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import { withTx, type AppContext, type ServiceCtx } from '../../context';
import { cappedCount } from '../../db/capped-count';
import type { Db } from '../../db/client';
import {
  billingItems,
  creditMemos,
  customerPaymentPlans,
  customers,
  domainData,
  invoiceLines,
  invoices,
  products,
  returns,
  returnTerminals,
  stores,
  terminals,
  transactions,
} from '../../db/schema';
import {
  isCustomerVisible,
  isRecordVisible,
  isStoreVisible,
  viewerOf,
  visibleCustomersWhere,
  visibleRecordsWhere,
  visibleStoresWhere,
  type Viewer,
} from '../../access';
import { writeAudit, type AuditActor } from '../../http/audit';
import { AppError, notFound, versionConflict } from '../../http/errors';
import { runIdempotent } from '../../http/idempotency';
import { csvStream } from '../../lib/csv-stream';
import { searchTextPattern } from '../../lib/sql-like';
import { billingToday, insertCreditInvoice, prepareLicenseJobs } from '../billing';
import { retireTerminal } from '../customer-accounts';
import { balancesOf } from '../ledger';
import { afterPosting, refundPayment, type MoneyMovement } from '../payments';

/*
 * Returns and refunds (issue 16 point 5, decision 122). A return names a store's terminals sold on one hardware
 * invoice (type S, within RETURN_WINDOW_DAYS of its date); each terminal's price is its line's unit price on that
 * invoice. Steps: requested → received (the terminals are retired through customer-accounts' retireTerminal, so they
 * leave the store's list) → inspected → refunded (credit memo C of value − restocking fee; what the merchant had
 * paid beyond what is still owed goes back as a refund memo R: to the card through the gateway, outside any
 * transaction, or by check) — or rejected with a reason.
 */

/** The catalogue's hardware items of a terminal line (catalogue-data HARDWARE_ITEM_IDS: terminal 3, Petro 4). */
const TERMINAL_ITEM_IDS = [3, 4] as const;
const PETRO_PRODUCT_ID = 2;
/** The retire reason of a returned terminal (domain_data retire_reason; made on first use, decision 122). */
const RETURNED_REASON = { code: 'returned', label: 'Returned (hardware return)' } as const;
/** How many hardware sales the eligibility call answers. */
const ELIGIBLE_LIMIT = 20;

const DAY_MS = 86_400_000;
const addDays = (isoDate: string, days: number) =>
  new Date(Date.parse(`${isoDate}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

function windowOf(ctx: ServiceCtx) {
  const days = ctx.app.config.returns.windowDays;
  return { days, firstIssuedOn: addDays(billingToday(ctx.app), -days) };
}

function requirePrivilege(ctx: ServiceCtx, anyOf: Parameters<typeof hasAnyPermission>[1], what: string) {
  if (!hasAnyPermission(ctx.session.privileges, anyOf))
    throw new AppError('forbidden', `${what} needs one of these privileges: ${anyOf.join(', ')}.`);
}

// ── The hardware invoice and its terminal prices ──────────────────────────────────────────────────────────

interface SaleInvoice {
  id: number;
  invoiceNumber: string;
  customerId: number;
  storeId: number | null;
  issuedOn: string;
  totalCents: number;
  currency: string;
  orderId: number | null;
}

const saleColumns = {
  id: invoices.id,
  invoiceNumber: invoices.invoiceNumber,
  customerId: invoices.customerId,
  storeId: invoices.storeId,
  issuedOn: invoices.issuedOn,
  totalCents: invoices.totalCents,
  currency: invoices.currency,
  orderId: customerPaymentPlans.orderId,
};

/** A hardware sale: an invoice of type S (the sale of a hardware plan), not reversed. */
const isHardwareSale = and(eq(invoices.type, 'S'), isNull(invoices.reversedAt));

async function hardwareInvoiceOf(db: Db, storeId: number, orderId: number | null): Promise<SaleInvoice | null> {
  const [row] = await db
    .select(saleColumns)
    .from(invoices)
    .leftJoin(customerPaymentPlans, eq(customerPaymentPlans.id, invoices.planId))
    .where(
      and(
        isHardwareSale,
        eq(invoices.storeId, storeId),
        orderId === null ? undefined : eq(customerPaymentPlans.orderId, orderId),
      ),
    )
    .orderBy(desc(invoices.issuedOn), desc(invoices.id))
    .limit(1);
  return row ?? null;
}

/** Terminal line prices per invoice: item id → unit cents (the first positive line of each item). */
async function terminalPrices(db: Db, invoiceIds: readonly number[]): Promise<Map<number, Map<number, number>>> {
  const out = new Map<number, Map<number, number>>();
  if (invoiceIds.length === 0) return out;
  const rows = await db
    .select({ invoiceId: invoiceLines.invoiceId, itemId: invoiceLines.billingItemId, unit: invoiceLines.unitCents })
    .from(invoiceLines)
    .where(
      and(
        inArray(invoiceLines.invoiceId, [...invoiceIds]),
        inArray(invoiceLines.billingItemId, [...TERMINAL_ITEM_IDS]),
        sql`${invoiceLines.unitCents} > 0`,
      ),
    )
    .orderBy(asc(invoiceLines.id));
  for (const r of rows) {
    const m = out.get(r.invoiceId) ?? new Map<number, number>();
    if (!m.has(r.itemId)) m.set(r.itemId, r.unit);
    out.set(r.invoiceId, m);
  }
  return out;
}

/** A terminal's price on the invoice: the Petro line for a Petro terminal, else the terminal line (else the other). */
function priceOf(prices: Map<number, number> | undefined, productId: number | null): number | null {
  if (!prices) return null;
  const [first, second] = productId === PETRO_PRODUCT_ID ? [4, 3] : [3, 4];
  return prices.get(first) ?? prices.get(second) ?? null;
}

/** Terminals of these stores that are in a return still under way: terminal id → return id. */
async function openReturnsOf(db: Db, terminalIds: readonly number[]): Promise<Map<number, number>> {
  if (terminalIds.length === 0) return new Map();
  const rows = await db
    .select({ terminalId: returnTerminals.terminalId, returnId: returns.id })
    .from(returnTerminals)
    .innerJoin(returns, eq(returns.id, returnTerminals.returnId))
    .where(
      and(inArray(returnTerminals.terminalId, [...terminalIds]), inArray(returns.status, [...OPEN_RETURN_STATUSES])),
    );
  return new Map(rows.map((r) => [r.terminalId, r.returnId]));
}

/** Invoices with a settled gateway charge (what a card refund goes back through). */
async function cardChargeOf(db: Db, invoiceId: number) {
  const [row] = await db
    .select()
    .from(transactions)
    .where(
      and(
        eq(transactions.invoiceId, invoiceId),
        eq(transactions.kind, 'charge'),
        eq(transactions.status, 'S'),
        isNotNull(transactions.gatewayReference),
      ),
    )
    .orderBy(desc(transactions.amountCents), desc(transactions.id))
    .limit(1);
  return row ?? null;
}

async function cardRefundable(db: Db, invoiceIds: readonly number[]): Promise<Set<number>> {
  if (invoiceIds.length === 0) return new Set();
  const rows = await db
    .selectDistinct({ invoiceId: transactions.invoiceId })
    .from(transactions)
    .where(
      and(
        inArray(transactions.invoiceId, [...invoiceIds]),
        eq(transactions.kind, 'charge'),
        eq(transactions.status, 'S'),
        isNotNull(transactions.gatewayReference),
      ),
    );
  return new Set(rows.map((r) => r.invoiceId!));
}

// ── GET /api/returns/eligible ─────────────────────────────────────────────────────────────────────────────

/** The hardware sales inside the window (newest first), each with its terminals and whether each may come back. */
export async function eligibleSales(ctx: ServiceCtx, q: ReturnEligibilityQuery): Promise<ReturnEligibility> {
  const db = ctx.app.database.db;
  const viewer = viewerOf(ctx);
  // A store or customer the session may not see is answered like a missing one (decision 140).
  if (q.storeid !== undefined && !(await isStoreVisible(db, viewer, q.storeid)))
    throw new AppError('not_found', `Store ${q.storeid} was not found.`, { storeid: 'No such store.' });
  if (q.customerid !== undefined && !(await isCustomerVisible(db, viewer, q.customerid)))
    throw new AppError('not_found', `Customer ${q.customerid} was not found.`, { customerid: 'No such customer.' });
  const { days, firstIssuedOn } = windowOf(ctx);
  const pattern = q.q === undefined ? undefined : searchTextPattern(q.q);
  const sales = await db
    .select({
      ...saleColumns,
      legalName: customers.legalName,
      dba: stores.doingBusinessAs,
    })
    .from(invoices)
    .innerJoin(customers, eq(customers.id, invoices.customerId))
    .innerJoin(stores, eq(stores.id, invoices.storeId))
    .leftJoin(customerPaymentPlans, eq(customerPaymentPlans.id, invoices.planId))
    .where(
      and(
        isHardwareSale,
        gte(invoices.issuedOn, firstIssuedOn),
        visibleStoresWhere(viewer, invoices.storeId),
        q.storeid === undefined ? undefined : eq(invoices.storeId, q.storeid),
        q.customerid === undefined ? undefined : eq(invoices.customerId, q.customerid),
        pattern === undefined
          ? undefined
          : or(sql`${customers.searchText} like ${pattern}`, sql`${stores.searchText} like ${pattern}`),
      ),
    )
    .orderBy(desc(invoices.issuedOn), desc(invoices.id))
    .limit(ELIGIBLE_LIMIT);
  const invoiceIds = sales.map((s) => s.id);
  const storeIds = [...new Set(sales.map((s) => s.storeId!))];
  const terminalRows =
    storeIds.length === 0
      ? []
      : await db
          .select({
            id: terminals.id,
            elmerId: terminals.elmerId,
            serial: terminals.serialNumber,
            storeId: terminals.storeId,
            orderId: terminals.orderId,
            productId: terminals.productId,
            productName: products.name,
            status: terminals.status,
          })
          .from(terminals)
          .leftJoin(products, eq(products.id, terminals.productId))
          .where(and(inArray(terminals.storeId, storeIds), ne(terminals.status, 'retired')))
          .orderBy(asc(terminals.id));
  const [prices, open, balances, refundable] = await Promise.all([
    terminalPrices(db, invoiceIds),
    openReturnsOf(
      db,
      terminalRows.map((t) => t.id),
    ),
    balancesOf(db, invoiceIds),
    cardRefundable(db, invoiceIds),
  ]);
  return {
    window_days: days,
    restocking_fee_cents: RETURN_RESTOCKING_FEE_CENTS,
    sales: sales.map((s): ReturnEligibleSale => {
      const b = balances.get(s.id);
      return {
        customer_id: s.customerId,
        legal_name: s.legalName,
        store_id: s.storeId!,
        doing_business_as: s.dba ?? null,
        order_id: s.orderId ?? null,
        invoice_id: s.id,
        invoice_number: s.invoiceNumber,
        issued_on: s.issuedOn,
        returnable_until: addDays(s.issuedOn, days),
        currency: s.currency as CurrencyCode,
        total_cents: s.totalCents,
        paid_cents: b?.paid_cents ?? 0,
        open_cents: b?.open_cents ?? 0,
        card_refundable: refundable.has(s.id),
        terminals: terminalRows
          .filter((t) => t.storeId === s.storeId && (s.orderId == null || t.orderId == null || t.orderId === s.orderId))
          .map((t) => {
            const unit = priceOf(prices.get(s.id), t.productId);
            const inReturn = open.get(t.id);
            return {
              terminal_id: t.id,
              elmer_id: t.elmerId,
              serial_number: t.serial,
              product_name: t.productName ?? null,
              unit_cents: unit ?? 0,
              blocked_reason:
                inReturn !== undefined
                  ? `Already in return #${inReturn}.`
                  : unit === null
                    ? 'The hardware invoice has no terminal line.'
                    : null,
            };
          }),
      };
    }),
  };
}

// ── One return ───────────────────────────────────────────────────────────────────────────────────────────

const itemColumns = {
  r: returns,
  legalName: customers.legalName,
  dba: stores.doingBusinessAs,
  invoiceNumber: invoices.invoiceNumber,
  terminalCount: sql<number>`(select count(*) from return_terminals rt where rt.return_id = ${returns.id})`.mapWith(
    Number,
  ),
  valueCents:
    sql<number>`(select coalesce(sum(rt.unit_cents), 0) from return_terminals rt where rt.return_id = ${returns.id})`.mapWith(
      Number,
    ),
};

function selectReturns(db: Db) {
  return db
    .select(itemColumns)
    .from(returns)
    .innerJoin(customers, eq(customers.id, returns.customerId))
    .leftJoin(stores, eq(stores.id, returns.storeId))
    .leftJoin(invoices, eq(invoices.id, returns.invoiceId));
}
type ItemRow = Awaited<ReturnType<typeof selectReturns>>[number];

function toItem(row: ItemRow): ReturnItem {
  const r = row.r;
  return {
    id: r.id,
    customer_id: r.customerId,
    legal_name: row.legalName,
    store_id: r.storeId,
    doing_business_as: row.dba ?? null,
    order_id: r.orderId,
    invoice_id: r.invoiceId,
    invoice_number: row.invoiceNumber ?? null,
    status: r.status as ReturnStatus,
    reason: r.reason,
    terminal_count: row.terminalCount,
    value_cents: row.valueCents,
    restocking_fee_cents: r.restockingFeeCents,
    fee_waived_reason: r.feeWaivedReason,
    credit_cents: Math.max(0, row.valueCents - r.restockingFeeCents),
    refund_cents: r.refundCents,
    refund_method: (r.refundMethod as ReturnRefundMethod | null) ?? null,
    currency: r.currency as CurrencyCode,
    created_at: r.createdAt.toISOString(),
    created_by_email: r.createdByEmail,
    version: r.version,
  };
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The return as the detail call answers it (null when there is none). */
export async function loadReturn(db: Db, id: number): Promise<ReturnDetail | null> {
  const [row] = await selectReturns(db).where(eq(returns.id, id));
  if (!row) return null;
  const item = toItem(row);
  const r = row.r;
  const terminalRows = await db
    .select({
      id: terminals.id,
      elmerId: terminals.elmerId,
      serial: terminals.serialNumber,
      status: terminals.status,
      unit: returnTerminals.unitCents,
    })
    .from(returnTerminals)
    .innerJoin(terminals, eq(terminals.id, returnTerminals.terminalId))
    .where(eq(returnTerminals.returnId, id))
    .orderBy(asc(terminals.id));
  let invoice: ReturnDetail['invoice'] = null;
  let preview = r.refundCents;
  if (r.invoiceId !== null) {
    const [inv] = await db
      .select({
        id: invoices.id,
        number: invoices.invoiceNumber,
        issuedOn: invoices.issuedOn,
        total: invoices.totalCents,
      })
      .from(invoices)
      .where(eq(invoices.id, r.invoiceId));
    const b = (await balancesOf(db, [r.invoiceId])).get(r.invoiceId);
    const card = (await cardRefundable(db, [r.invoiceId])).has(r.invoiceId);
    if (inv && b)
      invoice = {
        id: inv.id,
        invoice_number: inv.number,
        issued_on: inv.issuedOn,
        total_cents: inv.total,
        paid_cents: b.paid_cents,
        open_cents: b.open_cents,
        card_refundable: card,
      };
    if (b && (OPEN_RETURN_STATUSES as readonly string[]).includes(r.status)) {
      // A refund step that credited but could not pay back yet (the gateway refused) left its credit memo: the
      // credit is then already in the ledger, and what is overpaid is what goes back.
      const credited = await creditMemoOf(db, id);
      preview = credited
        ? Math.min(item.credit_cents, b.overpaid_cents)
        : returnBreakdown({
            unit_cents: terminalRows.map((t) => t.unit),
            fee_waived: r.restockingFeeCents === 0,
            open_cents: b.open_cents,
            paid_cents: b.paid_cents,
          }).refund_cents;
    }
  }
  return {
    ...item,
    note: r.note,
    decision_reason: r.decisionReason,
    received_at: iso(r.receivedAt),
    inspected_at: iso(r.inspectedAt),
    decided_at: iso(r.decidedAt),
    decided_by_email: r.decidedByEmail,
    terminals: terminalRows.map((t) => ({
      terminal_id: t.id,
      elmer_id: t.elmerId,
      serial_number: t.serial,
      status: t.status,
      unit_cents: t.unit,
    })),
    invoice,
    refund_preview_cents: r.status === 'rejected' ? 0 : preview,
    needs_second_person: item.credit_cents > RETURN_FOUR_EYES_CENTS,
  };
}

async function creditMemoOf(db: Db, returnId: number) {
  const [memo] = await db
    .select()
    .from(creditMemos)
    .where(and(eq(creditMemos.returnId, returnId), eq(creditMemos.type, 'C'), eq(creditMemos.status, 'A')));
  return memo ?? null;
}

export async function getReturn(ctx: ServiceCtx, id: number): Promise<ReturnDetail> {
  const db = ctx.app.database.db;
  const [place] = await db
    .select({ customerId: returns.customerId, storeId: returns.storeId })
    .from(returns)
    .where(eq(returns.id, id));
  const found = place && (await isRecordVisible(db, viewerOf(ctx), place)) ? await loadReturn(db, id) : null;
  if (!found) throw notFound(`Return ${id}`);
  return found;
}

async function lockReturn(tx: Db, viewer: Viewer, id: number) {
  const [row] = await tx.select().from(returns).where(eq(returns.id, id)).for('update');
  if (!row || !(await isRecordVisible(tx, viewer, row))) throw notFound(`Return ${id}`);
  return row;
}

async function audit(
  tx: Db,
  ctx: ServiceCtx,
  now: Date,
  e: { action: string; id: number; customerId: number; before?: unknown; after?: unknown },
) {
  await writeAudit(tx, {
    ...ctx.actor,
    at: now,
    action: e.action,
    entity: 'return',
    entityId: e.id,
    before: e.before ?? null,
    after: e.after ?? null,
    requestId: ctx.requestId,
    customerId: e.customerId,
  });
}

// ── POST /api/returns (request a return) ──────────────────────────────────────────────────────────────────

export async function createReturn(ctx: ServiceCtx, input: ReturnCreateRequest): Promise<ReturnDetail> {
  const body = returnCreateRequest.parse(input);
  const { days, firstIssuedOn } = windowOf(ctx);
  const id = await withTx(ctx, async (tx) => {
    const [store] = await tx.select().from(stores).where(eq(stores.id, body.store_id));
    if (!store || !(await isStoreVisible(tx, viewerOf(ctx), store.id)))
      throw new AppError('not_found', `Store ${body.store_id} was not found.`, { store_id: 'No such store.' });
    // The terminals named must be this store's before anything else is said about them (decision 140).
    const rows = await tx
      .select()
      .from(terminals)
      .where(inArray(terminals.id, body.terminal_ids))
      .orderBy(asc(terminals.id))
      .for('update');
    const missing = body.terminal_ids.filter((t) => !rows.some((r) => r.id === t && r.storeId === store.id));
    if (missing.length > 0)
      throw new AppError('not_found', `Terminal ${missing.join(', ')} is not a terminal of this store.`, {
        terminal_ids: `Terminal ${missing.join(', ')} is not at this store.`,
      });
    const invoice = await hardwareInvoiceOf(tx, store.id, body.order_id ?? null);
    if (!invoice)
      throw new AppError(
        body.order_id ? 'not_found' : 'conflict',
        body.order_id
          ? `Order ${body.order_id} has no hardware invoice at this store.`
          : 'This store has no hardware sale to return terminals against.',
        body.order_id ? { order_id: 'No hardware invoice of this order at this store.' } : undefined,
      );
    if (invoice.issuedOn < firstIssuedOn)
      throw new AppError(
        'conflict',
        `The return window of ${days} days ended on ${addDays(invoice.issuedOn, days)} (hardware invoice ${invoice.invoiceNumber} of ${invoice.issuedOn}).`,
        { terminal_ids: `Returns are accepted within ${days} days of the hardware invoice.` },
      );
    const otherOrder = rows.filter(
      (r) => invoice.orderId !== null && r.orderId !== null && r.orderId !== invoice.orderId,
    );
    if (otherOrder.length > 0)
      throw new AppError(
        'validation_failed',
        `Terminal ${otherOrder.map((r) => r.elmerId).join(', ')} was not sold on hardware invoice ${invoice.invoiceNumber}.`,
        { terminal_ids: 'Return terminals of one hardware sale at a time.' },
      );
    const retired = rows.filter((r) => r.status === 'retired');
    if (retired.length > 0)
      throw new AppError('conflict', `Terminal ${retired.map((r) => r.elmerId).join(', ')} is retired.`, {
        terminal_ids: 'A retired terminal cannot be returned.',
      });
    const open = await openReturnsOf(
      tx,
      rows.map((r) => r.id),
    );
    if (open.size > 0)
      throw new AppError(
        'conflict',
        [...open]
          .map(([t, r]) => `Terminal ${rows.find((x) => x.id === t)!.elmerId} is already in return #${r}.`)
          .join(' '),
        { terminal_ids: 'A terminal is already in an open return.' },
      );
    const prices = (await terminalPrices(tx, [invoice.id])).get(invoice.id);
    const units = rows.map((r) => ({ terminal: r, unit: priceOf(prices, r.productId) }));
    if (units.some((u) => u.unit === null))
      throw new AppError(
        'conflict',
        `Hardware invoice ${invoice.invoiceNumber} has no terminal line to refund the terminals from.`,
      );
    const waived = body.waive_fee === true;
    // The one restocking-fee rule (decision 158): 250.00 unless waived, never more than the terminals' value.
    const fee = restockingFeeCents({ valueCents: units.reduce((n, u) => n + u.unit!, 0), waived });
    const now = ctx.app.clock.now();
    const [created] = await tx
      .insert(returns)
      .values({
        customerId: store.customerId,
        storeId: store.id,
        orderId: body.order_id ?? invoice.orderId ?? null,
        reason: body.reason,
        status: 'requested',
        restockingFeeCents: fee,
        feeWaivedReason: waived ? (body.fee_waived_reason ?? null) : null,
        refundCents: 0,
        currency: invoice.currency,
        invoiceId: invoice.id,
        note: body.note || null,
        createdByEmail: ctx.session.email,
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: returns.id });
    await tx
      .insert(returnTerminals)
      .values(units.map((u) => ({ returnId: created!.id, terminalId: u.terminal.id, unitCents: u.unit! })));
    await audit(tx, ctx, now, {
      action: 'return_requested',
      id: created!.id,
      customerId: store.customerId,
      after: {
        customer_id: store.customerId,
        store_id: store.id,
        invoice_id: invoice.id,
        terminals: units.map((u) => ({ terminal_id: u.terminal.id, elmer_id: u.terminal.elmerId, unit_cents: u.unit })),
        restocking_fee_cents: fee,
        fee_waived_reason: waived ? body.fee_waived_reason : null,
        reason: body.reason,
      },
    });
    return created!.id;
  });
  return (await loadReturn(ctx.app.database.db, id))!;
}

// ── POST /api/returns/{id}/status (receive | inspect | reject) ────────────────────────────────────────────

async function returnedReasonId(tx: Db): Promise<number> {
  await tx
    .insert(domainData)
    .values({ type: 'retire_reason', code: RETURNED_REASON.code, label: RETURNED_REASON.label, sortOrder: 100 })
    .onConflictDoNothing();
  const [row] = await tx
    .select({ id: domainData.id })
    .from(domainData)
    .where(and(eq(domainData.type, 'retire_reason'), eq(domainData.code, RETURNED_REASON.code)));
  return row!.id;
}

export async function changeReturnStatus(
  ctx: ServiceCtx,
  id: number,
  body: ReturnStatusRequest,
): Promise<ReturnDetail> {
  if (body.action === 'reject') requirePrivilege(ctx, ['customer_details_edit', 'ar_approvals'], 'Rejecting a return');
  else requirePrivilege(ctx, ['customer_details_edit'], `Marking a return ${RETURN_ACTION_TO[body.action]}`);
  await withTx(ctx, async (tx) => {
    const row = await lockReturn(tx, viewerOf(ctx), id);
    if (row.version !== body.version) throw versionConflict(`Return ${id}`, await loadReturn(tx, id), body.version);
    if (!RETURN_ACTION_FROM[body.action].includes(row.status as ReturnStatus))
      throw new AppError(
        'conflict',
        `Return ${id} is ${RETURN_STATUS_LABELS[row.status as ReturnStatus].toLowerCase()}; it cannot be marked ${RETURN_ACTION_TO[body.action]}.`,
        undefined,
        { current: await loadReturn(tx, id) },
      );
    const now = ctx.app.clock.now();
    const after: Record<string, unknown> = { status: RETURN_ACTION_TO[body.action] };
    if (body.action === 'receive') {
      // The returned terminals are retired the way the customer page retires one (the same service, in this
      // transaction: its `withTx` opens a savepoint), so they leave the store's terminal list.
      const reasonId = await returnedReasonId(tx);
      const inTx: ServiceCtx = { ...ctx, app: { ...ctx.app, database: { ...ctx.app.database, db: tx } } };
      const list = await tx
        .select({ id: terminals.id, status: terminals.status, version: terminals.version })
        .from(returnTerminals)
        .innerJoin(terminals, eq(terminals.id, returnTerminals.terminalId))
        .where(eq(returnTerminals.returnId, id))
        .orderBy(asc(terminals.id));
      const retired: number[] = [];
      for (const t of list) {
        if (t.status === 'retired') continue;
        await retireTerminal(inTx, t.id, { reason_id: reasonId, version: t.version });
        retired.push(t.id);
      }
      after.retired_terminal_ids = retired;
    }
    await tx
      .update(returns)
      .set({
        status: RETURN_ACTION_TO[body.action],
        ...(body.action === 'receive' ? { receivedAt: now } : {}),
        ...(body.action === 'inspect' ? { inspectedAt: now } : {}),
        ...(body.action === 'reject'
          ? { decisionReason: body.reason ?? null, decidedAt: now, decidedByEmail: ctx.session.email }
          : body.reason
            ? { note: body.reason }
            : {}),
        updatedAt: now,
        version: sql`${returns.version} + 1`,
      })
      .where(eq(returns.id, id));
    await audit(tx, ctx, now, {
      action: `return_${RETURN_ACTION_TO[body.action]}`,
      id,
      customerId: row.customerId,
      before: { status: row.status },
      after: { ...after, ...(body.reason ? { reason: body.reason } : {}) },
    });
  });
  return (await loadReturn(ctx.app.database.db, id))!;
}

/**
 * Record a return refunded (under the return's lock): the approved refund memo R of what goes back (its refund
 * transaction when by card), the invoice posted (afterPosting), the return refunded, the audit. The one writer: the
 * refund request's effect (by check, or nothing to pay back) and a card refund's answer (returnRefundAnswered).
 */
async function recordReturnRefunded(
  tx: Db,
  app: AppContext,
  id: number,
  statusBefore: string,
  plan: RefundPlan,
  transactionId: number | null,
  who: { email: string; actor: AuditActor; requestId: string | null },
  now: Date,
): Promise<void> {
  let memoId: number | null = null;
  if (plan.refundCents > 0) {
    const [memo] = await tx
      .insert(creditMemos)
      .values({
        customerId: plan.customerId,
        storeId: plan.storeId,
        invoiceId: plan.invoiceId,
        type: 'R',
        status: 'A',
        amountCents: plan.refundCents,
        currency: plan.currency,
        reason: `Refund of return #${id}`,
        refundMethod: plan.method,
        transactionId,
        returnId: id,
        createdByEmail: who.email,
        approvedByEmail: who.email,
        decidedAt: now,
        decisionReason: `Return #${id} refunded`,
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: creditMemos.id });
    memoId = memo!.id;
    await afterPosting(tx, app, [plan.invoiceId], now, who.actor, who.requestId ?? '');
  }
  await tx
    .update(returns)
    .set({
      status: 'refunded',
      refundCents: plan.refundCents,
      refundMethod: plan.method,
      decidedAt: now,
      decidedByEmail: who.email,
      updatedAt: now,
      version: sql`${returns.version} + 1`,
    })
    .where(eq(returns.id, id));
  await writeAudit(tx, {
    ...who.actor,
    at: now,
    action: 'return_refunded',
    entity: 'return',
    entityId: id,
    before: { status: statusBefore },
    after: {
      status: 'refunded',
      credit_cents: plan.creditCents,
      refund_cents: plan.refundCents,
      method: plan.method,
      refund_memo_id: memoId,
      transaction_id: transactionId,
      gateway_reference: plan.gateway?.reference ?? null,
    },
    requestId: who.requestId,
    customerId: plan.customerId,
  });
}

/**
 * A return's card refund was answered (money path, purpose 'return'; decision 144): settled → the return is refunded
 * as its refund request planned, whoever recorded the answer (the request, or the payments sweep after a lost
 * answer); refused → it stays inspected with its credit. Once: only an inspected return is refunded.
 */
export async function returnRefundAnswered(tx: Db, app: AppContext, mv: MoneyMovement, now: Date): Promise<void> {
  if (mv.status !== 'S') return;
  const c = mv.context as {
    return_id?: number;
    plan?: RefundPlan;
    decider_email?: string;
    asked_by?: AuditActor;
    request_id?: string | null;
  };
  if (typeof c.return_id !== 'number' || !c.plan || !c.plan.gateway || typeof c.decider_email !== 'string') return;
  const [row] = await tx.select().from(returns).where(eq(returns.id, c.return_id)).for('update');
  if (!row || row.status !== 'inspected') return;
  await recordReturnRefunded(
    tx,
    app,
    c.return_id,
    row.status,
    { ...c.plan, gateway: { ...c.plan.gateway, reference: mv.resultReference ?? c.plan.gateway.reference } },
    mv.transactionId,
    {
      email: c.decider_email,
      actor: c.asked_by ?? { actorType: 'system', actorId: 'payments' },
      requestId: c.request_id ?? null,
    },
    now,
  );
}

/**
 * A return's credit invoice (decision 158): type R naming the return, issued on the billing day, in the return's
 * transaction that credits it — one line per terminal item credited (its name and price on the hardware invoice,
 * negative) and the restocking fee kept as its own line named by the catalogue (item 28), so the merchant sees
 * "Restocking fee" rather than a netted amount. Its total is the credit memo's amount, negated, and it names the memo.
 * Once per return.
 */
async function writeReturnCreditInvoice(
  tx: Db,
  ctx: ServiceCtx,
  row: typeof returns.$inferSelect,
  money: { valueCents: number; creditCents: number; memoId: number },
  now: Date,
): Promise<void> {
  const items = await tx
    .select({ unit: returnTerminals.unitCents, productId: terminals.productId })
    .from(returnTerminals)
    .innerJoin(terminals, eq(terminals.id, returnTerminals.terminalId))
    .where(eq(returnTerminals.returnId, row.id))
    .orderBy(asc(terminals.id));
  const saleLines = await tx
    .select({ itemId: invoiceLines.billingItemId, description: invoiceLines.description, unit: invoiceLines.unitCents })
    .from(invoiceLines)
    .where(and(eq(invoiceLines.invoiceId, row.invoiceId!), inArray(invoiceLines.billingItemId, [...TERMINAL_ITEM_IDS])))
    .orderBy(asc(invoiceLines.id));
  const [fee] = await tx
    .select({ name: billingItems.name })
    .from(billingItems)
    .where(eq(billingItems.id, BILLING_ITEM_IDS.RESTOCKING_FEE));
  const lines = returnCreditLines({
    terminals: items.map((t) => {
      // The hardware invoice's line the terminal was priced from (priceOf: a Petro terminal's Petro line first).
      const order = t.productId === PETRO_PRODUCT_ID ? [4, 3] : [3, 4];
      const line =
        order.map((id) => saleLines.find((l) => l.itemId === id && l.unit === t.unit)).find(Boolean) ??
        saleLines.find((l) => l.unit === t.unit);
      return {
        billingItemId: line?.itemId ?? TERMINAL_ITEM_IDS[0],
        description: line?.description ?? 'Terminal',
        unitCents: t.unit,
      };
    }),
    // What the credit keeps of the value (the fee, at most the value: older returns stored 250.00 whatever it was).
    feeCents: money.valueCents - money.creditCents,
    feeName: fee?.name ?? null,
  });
  await insertCreditInvoice(
    tx,
    {
      type: 'R',
      customerId: row.customerId,
      storeId: row.storeId,
      currency: row.currency,
      issuedOn: billingToday(ctx.app),
      reason: row.feeWaivedReason
        ? `Return #${row.id}: terminals credited, restocking fee waived (${row.feeWaivedReason})`
        : `Return #${row.id}: terminals credited, restocking fee kept`,
      createdByEmail: ctx.session.email,
      returnId: row.id,
      // The credit memo C that moves the money it documents.
      creditMemoId: money.memoId,
      totalCents: -money.creditCents,
      taxCents: 0,
      lines,
    },
    now,
    ctx.actor,
    ctx.requestId,
  );
}

// ── POST /api/returns/{id}/refund (Idempotency-Key) ───────────────────────────────────────────────────────

interface RefundPlan {
  customerId: number;
  storeId: number | null;
  invoiceId: number;
  currency: string;
  creditCents: number;
  refundCents: number;
  method: ReturnRefundMethod;
  /** The gateway's answer of a card refund (null: by check, or nothing to pay back). */
  gateway: { reference: string; chargeId: number; paymentInstrumentId: number | null } | null;
}

const gatewayRefundKey = (returnId: number) => `refund:return${returnId}`;

/**
 * The refund step (decision 122): (1) one transaction credits the invoice — an approved credit memo C of the
 * terminals' value less the restocking fee, the invoice synced to the ledger — and records what goes back (the
 * invoice's overpayment after the credit, never more than the credit) on the return, which stays inspected;
 * (2) a card refund goes to the gateway, outside any transaction, with the return's own key (`refund:return<id>`), so
 * a repeat or a second caller gets the same gateway refund; (3) a second transaction records the refund transaction
 * (invoice_id null: the memo counts), the approved refund memo R and the return refunded. Idempotency-Key: the
 * same answer for a repeated POST.
 */
export async function refundReturn(
  ctx: ServiceCtx,
  id: number,
  body: ReturnRefundRequest,
  idempotencyKey: string | undefined,
): Promise<ReturnDetail> {
  const { app } = ctx;
  await prepareLicenseJobs(app);
  await runIdempotent<ReturnDetail, RefundPlan>(
    ctx,
    { route: 'POST /returns/:id/refund', key: idempotencyKey, request: { params: { id }, body } },
    {
      outside: async ({ now }) => {
        const plan = await withTx(ctx, async (tx): Promise<RefundPlan> => {
          const row = await lockReturn(tx, viewerOf(ctx), id);
          if (row.version !== body.version)
            throw versionConflict(`Return ${id}`, await loadReturn(tx, id), body.version);
          if (row.status !== 'inspected')
            throw new AppError(
              'conflict',
              `Return ${id} is ${RETURN_STATUS_LABELS[row.status as ReturnStatus].toLowerCase()}; only an inspected return is refunded.`,
              undefined,
              { current: await loadReturn(tx, id) },
            );
          if (row.invoiceId === null)
            throw new AppError('conflict', `Return ${id} has no hardware invoice to refund against.`);
          const [{ value }] = (await tx
            .select({ value: sql<number>`coalesce(sum(${returnTerminals.unitCents}), 0)`.mapWith(Number) })
            .from(returnTerminals)
            .where(eq(returnTerminals.returnId, id))) as [{ value: number }];
          const credit = Math.max(0, value - row.restockingFeeCents);
          if (credit > RETURN_FOUR_EYES_CENTS && row.createdByEmail.toLowerCase() === ctx.session.email.toLowerCase())
            throw new AppError(
              'forbidden',
              `A return credit above ${RETURN_FOUR_EYES_CENTS / 100} needs someone other than its requester (${row.createdByEmail}) to refund it.`,
            );
          // The credit, once: a retry after a refused card refund finds the memo of the first try.
          let memo = await creditMemoOf(tx, id);
          if (!memo && credit > 0) {
            const [made] = await tx
              .insert(creditMemos)
              .values({
                customerId: row.customerId,
                storeId: row.storeId,
                invoiceId: row.invoiceId,
                type: 'C',
                status: 'A',
                amountCents: credit,
                currency: row.currency,
                reason: `Return #${id}`,
                note: row.feeWaivedReason
                  ? `Restocking fee waived: ${row.feeWaivedReason}`
                  : `Terminals ${value / 100} less restocking fee ${row.restockingFeeCents / 100}`,
                returnId: id,
                createdByEmail: ctx.session.email,
                approvedByEmail: ctx.session.email,
                decidedAt: now,
                decisionReason: `Return #${id} inspected`,
                createdAt: now,
                updatedAt: now,
              })
              .returning();
            memo = made ?? null;
            await afterPosting(tx, app, [row.invoiceId], now, ctx.actor, ctx.requestId);
            // The document the merchant reads (decision 158): the terminals credited and the restocking fee kept, each
            // its own line, adding up to the memo's credit. A document only: the memo above is what posts.
            await writeReturnCreditInvoice(
              tx,
              ctx,
              row,
              { valueCents: value, creditCents: credit, memoId: memo!.id },
              now,
            );
            await writeAudit(tx, {
              ...ctx.actor,
              at: now,
              action: 'return_credited',
              entity: 'credit_memo',
              entityId: memo!.id,
              after: { return_id: id, invoice_id: row.invoiceId, amount_cents: credit, type: 'C', status: 'A' },
              requestId: ctx.requestId,
              customerId: row.customerId,
            });
          }
          const balance = (await balancesOf(tx, [row.invoiceId])).get(row.invoiceId)!;
          const refund = Math.max(0, Math.min(credit, balance.overpaid_cents));
          let charge: Awaited<ReturnType<typeof cardChargeOf>> = null;
          if (body.method === 'gateway' && refund > 0) {
            charge = await cardChargeOf(tx, row.invoiceId);
            if (!charge)
              throw new AppError(
                'conflict',
                'This invoice was not paid by a card charge the gateway can refund. Refund by check.',
                { method: 'No card charge on the hardware invoice: refund by check.' },
              );
          }
          // The intent: what goes back and how (the return stays inspected until the refund is recorded).
          await tx
            .update(returns)
            .set({ refundCents: refund, refundMethod: body.method, updatedAt: now })
            .where(eq(returns.id, id));
          return {
            customerId: row.customerId,
            storeId: row.storeId,
            invoiceId: row.invoiceId,
            currency: row.currency,
            creditCents: credit,
            refundCents: refund,
            method: body.method,
            gateway: charge
              ? {
                  reference: charge.gatewayReference!,
                  chargeId: charge.id,
                  paymentInstrumentId: charge.paymentInstrumentId,
                }
              : null,
          };
        });
        if (!plan.gateway) return plan;
        // The money path (decision 144): the refund recorded P under the money locks (what is left to refund on the
        // invoice re-checked), committed, the gateway called outside any transaction; its answer records the refund
        // memo R and the return refunded (returnRefundAnswered) — at once, or when the payments sweep reconciles it.
        const refund = await refundPayment(app, {
          charge: {
            id: plan.gateway.chargeId,
            customerId: plan.customerId,
            storeId: plan.storeId,
            paymentInstrumentId: plan.gateway.paymentInstrumentId,
            gatewayReference: plan.gateway.reference,
            currency: plan.currency,
          },
          amountCents: plan.refundCents,
          key: gatewayRefundKey(id),
          purpose: 'return',
          context: { return_id: id, plan, decider_email: ctx.session.email },
          reason: `Return #${id}`,
          // Null: the refund memo R is what counts for the invoice (never the money twice).
          invoiceId: null,
          limit: { invoiceId: plan.invoiceId },
          actor: ctx.actor,
          requestId: ctx.requestId,
        });
        if (refund.status === 'P')
          throw new AppError(
            'unavailable',
            'The payment gateway did not answer. The refund is recorded as pending; the return is refunded once the gateway answers (it is refunded once).',
          );
        if (refund.status === 'F')
          throw new AppError(
            'conflict',
            `The gateway refused the refund: ${refund.failureReason ?? 'declined'}. The credit stays on the invoice; refund by check or try again.`,
            { method: refund.failureReason ?? 'The gateway refused the refund.' },
          );
        return { ...plan, gateway: { ...plan.gateway, reference: refund.reference! } };
      },
      effect: async (tx, now, plan) => {
        const row = await lockReturn(tx, viewerOf(ctx), id);
        // A card refund's answer refunded the return already (returnRefundAnswered).
        if (plan.gateway && row.status === 'refunded') return (await loadReturn(tx, id))!;
        if (row.status !== 'inspected')
          throw new AppError('conflict', `Return ${id} was refunded meanwhile.`, undefined, {
            current: await loadReturn(tx, id),
          });
        await recordReturnRefunded(
          tx,
          app,
          id,
          row.status,
          plan,
          null,
          { email: ctx.session.email, actor: ctx.actor, requestId: ctx.requestId },
          now,
        );
        return (await loadReturn(tx, id))!;
      },
    },
  );
  return (await loadReturn(ctx.app.database.db, id))!;
}

// ── GET /api/returns (list, CSV) ──────────────────────────────────────────────────────────────────────────

function returnWhere(q: ReturnSearchQuery, now: Date, viewer: Viewer): SQL | undefined {
  const pattern = q.q === undefined ? undefined : searchTextPattern(q.q);
  return and(
    visibleCustomersWhere(viewer, returns.customerId),
    visibleRecordsWhere(viewer, returns.storeId),
    q.status === undefined ? undefined : eq(returns.status, q.status),
    q.customer_id === undefined ? undefined : eq(returns.customerId, q.customer_id),
    q.age === undefined ? undefined : gte(returns.createdAt, new Date(now.getTime() - q.age * DAY_MS)),
    pattern === undefined
      ? undefined
      : or(
          inArray(returns.customerId, sql`(select c.id from customers c where c.search_text like ${pattern})`),
          inArray(returns.storeId, sql`(select s.id from stores s where s.search_text like ${pattern})`),
        ),
  );
}

const SORT_COLUMNS: Readonly<Record<ReturnSortField, SQL>> = {
  created_at: sql`${returns.createdAt}`,
  refund_cents: sql`${returns.refundCents}`,
  customer: sql`${customers.legalName}`,
  status: sql`${returns.status}`,
};

function returnPage(db: Db, q: ReturnSearchQuery, where: SQL | undefined, page: { limit: number; offset: number }) {
  const s = parseSort(q.sort ?? RETURN_DEFAULT_SORT, 'created_at');
  const dir = s.desc ? desc : asc;
  return selectReturns(db)
    .where(where)
    .orderBy(dir(SORT_COLUMNS[s.field]), dir(returns.id))
    .limit(page.limit)
    .offset(page.offset);
}

export async function searchReturns(ctx: ServiceCtx, q: ReturnSearchQuery): Promise<ReturnSearchResult> {
  const db = ctx.app.database.db;
  if (q.customer_id !== undefined && !(await isCustomerVisible(db, viewerOf(ctx), q.customer_id)))
    throw new AppError('not_found', `Customer ${q.customer_id} was not found.`, { customer_id: 'No such customer.' });
  const where = returnWhere(q, ctx.app.clock.now(), viewerOf(ctx));
  const items = (await returnPage(db, q, where, q)).map(toItem);
  if (q.offset === 0 && items.length < q.limit) return { items, total: items.length, total_capped: false };
  return { items, ...(await cappedCount(db, returns, where)) };
}

export function searchReturnsCsv(ctx: ServiceCtx, q: ReturnSearchQuery): Readable {
  const db = ctx.app.database.db;
  const where = returnWhere(q, ctx.app.clock.now(), viewerOf(ctx));
  return csvStream(RETURN_CSV_COLUMNS, async (limit, offset) =>
    (await returnPage(db, q, where, { limit, offset })).map(toItem),
  );
}
