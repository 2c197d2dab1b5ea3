import {
  ORDER_STATUS_LABELS,
  SALES_HISTORY_MONTHS,
  STORE_SENT_MAIL_LIMIT,
  parseSort,
  type AuditEntryList,
  type CreateCustomerNoteRequest,
  type CurrencyCode,
  type CustomerNote,
  type CustomerNoteList,
  type CustomerOrderList,
  type DomainDataInfo,
  type DomainDataType,
  type OrderStatusCode,
  type SalesHistoryInfo,
  type SalesPersonInfo,
  type StoreEmailsInfo,
  type CUSTOMER_ORDER_SORT_FIELDS,
} from '@pos/domain';
import { and, asc, count, desc, eq, gte, inArray, lte, or, sql, type SQL } from 'drizzle-orm';
import { withTx, type ServiceCtx } from '../../context';
import {
  auditLog,
  customerNotes,
  customers,
  domainData,
  mailLog,
  orders,
  salesHistory,
  salesPersons,
  storeEmails,
  stores,
} from '../../db/schema';
import { writeAudit } from '../../http/audit';
import { notFound } from '../../http/errors';
import {
  isAgentVisible,
  isStoreVisible,
  requireCustomer,
  requireStoreOf,
  viewerOf,
  visibleAgentsWhere,
} from '../../access';
import { visibleOrdersWhere } from '../orders';

const iso = (d: Date | string) => new Date(d).toISOString();
const isoOrNull = (d: Date | string | null) => (d === null ? null : iso(d));

// ── Notes ──────────────────────────────────────────────────────────────────────────────────────────

function noteOut(row: typeof customerNotes.$inferSelect): CustomerNote {
  return {
    id: row.id,
    customer_id: row.customerId,
    customer_store_id: row.storeId,
    note_type: row.noteType,
    note: row.body,
    created_by: row.createdByEmail,
    created_at: iso(row.createdAt),
  };
}

/** GET …/customernotes: newest first; with a store id, that store's notes only. */
export async function listCustomerNotes(
  ctx: ServiceCtx,
  input: { customerId: number; storeId?: number; limit: number; offset: number },
): Promise<CustomerNoteList> {
  const db = ctx.app.database.db;
  await requireCustomer(db, viewerOf(ctx), input.customerId);
  if (input.storeId !== undefined)
    await requireStoreOf(db, viewerOf(ctx), input.customerId, input.storeId, 'customer_store_id');
  const where = and(
    eq(customerNotes.customerId, input.customerId),
    input.storeId === undefined ? undefined : eq(customerNotes.storeId, input.storeId),
  );
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(customerNotes)
      .where(where)
      .orderBy(desc(customerNotes.createdAt), desc(customerNotes.id))
      .limit(input.limit)
      .offset(input.offset),
    db.select({ n: count() }).from(customerNotes).where(where),
  ]);
  return { items: rows.map(noteOut), total: Number(total?.n ?? 0) };
}

/** POST …/customernotes: the note is written by the signed-in user (audited). */
export async function addCustomerNote(
  ctx: ServiceCtx,
  input: { customerId: number; body: CreateCustomerNoteRequest },
): Promise<CustomerNote> {
  return withTx(ctx, async (db) => {
    await requireCustomer(db, viewerOf(ctx), input.customerId);
    const storeId = input.body.customer_store_id ?? null;
    if (storeId !== null) await requireStoreOf(db, viewerOf(ctx), input.customerId, storeId, 'customer_store_id');
    const now = ctx.app.clock.now();
    const [row] = await db
      .insert(customerNotes)
      .values({
        customerId: input.customerId,
        storeId,
        noteType: input.body.note_type,
        body: input.body.note,
        createdByEmail: ctx.session.email,
        createdAt: now,
      })
      .returning();
    const note = noteOut(row!);
    await writeAudit(db, {
      ...ctx.actor,
      at: now,
      action: 'customer_note_create',
      entity: 'customer_note',
      entityId: note.id,
      after: {
        customer_id: note.customer_id,
        customer_store_id: note.customer_store_id,
        note_type: note.note_type,
        note: note.note,
      },
      requestId: ctx.requestId,
    });
    return note;
  });
}

// ── Orders ─────────────────────────────────────────────────────────────────────────────────────────

const ORDER_SORT: Readonly<Record<(typeof CUSTOMER_ORDER_SORT_FIELDS)[number], SQL>> = {
  order_date: sql`${orders.orderDate}`,
  order_id: sql`${orders.id}`,
  status: sql`${orders.status}::int`,
  total_sale_cents: sql`${orders.totalSaleCents}`,
  updated_at: sql`${orders.updatedAt}`,
};

/** GET …/customerorders: the customer's orders, newest first unless sorted otherwise. */
export async function listCustomerOrders(
  ctx: ServiceCtx,
  input: {
    customerId: number;
    storeId?: number;
    limit: number;
    offset: number;
    sort?: string;
  },
): Promise<CustomerOrderList> {
  const db = ctx.app.database.db;
  await requireCustomer(db, viewerOf(ctx), input.customerId);
  if (input.storeId !== undefined) await requireStoreOf(db, viewerOf(ctx), input.customerId, input.storeId, 'storeid');
  const where = and(
    eq(orders.customerId, input.customerId),
    input.storeId === undefined ? undefined : eq(orders.storeId, input.storeId),
    // Whose list it is: an agent-scoped session sees only its agent's orders (decision 102).
    visibleOrdersWhere(ctx.session),
  );
  const sort = input.sort
    ? parseSort(input.sort as (typeof CUSTOMER_ORDER_SORT_FIELDS)[number], 'order_date')
    : { field: 'order_date' as const, desc: true };
  const expr = ORDER_SORT[sort.field];
  const [rows, [total]] = await Promise.all([
    db
      .select({ order: orders, storeName: stores.storeName })
      .from(orders)
      .leftJoin(stores, eq(stores.id, orders.storeId))
      .where(where)
      .orderBy(sort.desc ? desc(expr) : asc(expr), desc(orders.id))
      .limit(input.limit)
      .offset(input.offset),
    db.select({ n: count() }).from(orders).where(where),
  ]);
  return {
    items: rows.map(({ order: o, storeName }) => ({
      order_id: o.id,
      unified_order_id: o.unifiedOrderId,
      status: o.status as OrderStatusCode,
      status_label: ORDER_STATUS_LABELS[o.status as OrderStatusCode] ?? o.status,
      flow: o.flow,
      order_type: o.orderType,
      store_id: o.storeId,
      store_name: storeName ?? o.dbaName,
      sales_rep: o.salesRep,
      order_date: iso(o.orderDate),
      submitted_at: isoOrNull(o.submittedAt),
      completed_at: isoOrNull(o.completedAt),
      updated_at: iso(o.updatedAt),
      total_sale_cents: Number(o.totalSaleCents),
      currency: o.currency as CurrencyCode,
    })),
    total: Number(total?.n ?? 0),
  };
}

// ── E-mails of a store ─────────────────────────────────────────────────────────────────────────────

/**
 * GET /api/customers/stores/{storeId}/{token}/emails: the store's addresses, then the customer's own, and
 * the newest messages the product sent to any of them or about the store (mail log).
 */
export async function getStoreEmails(ctx: ServiceCtx, storeId: number): Promise<StoreEmailsInfo> {
  const db = ctx.app.database.db;
  const [store] = await db
    .select({ id: stores.id, customerId: stores.customerId, customerEmail: customers.email })
    .from(stores)
    .innerJoin(customers, eq(customers.id, stores.customerId))
    .where(eq(stores.id, storeId));
  if (!store || !(await isStoreVisible(db, viewerOf(ctx), store.id))) throw notFound(`Store ${storeId}`);
  const rows = await db
    .select()
    .from(storeEmails)
    .where(eq(storeEmails.storeId, storeId))
    .orderBy(desc(storeEmails.isPrimary), asc(storeEmails.kind), asc(storeEmails.id));
  const emails: StoreEmailsInfo['emails'] = rows.map((r) => ({
    id: r.id,
    email: r.email,
    kind: r.kind as StoreEmailsInfo['emails'][number]['kind'],
    is_primary: r.isPrimary,
    source: 'store',
  }));
  emails.push({ id: null, email: store.customerEmail, kind: 'customer', is_primary: false, source: 'customer' });
  const addresses = [...new Set(emails.flatMap((e) => [e.email, e.email.toLowerCase()]))];
  const sent = await db
    .select()
    .from(mailLog)
    .where(
      or(inArray(mailLog.to, addresses), and(eq(mailLog.relatedType, 'store'), eq(mailLog.relatedId, String(storeId)))),
    )
    .orderBy(desc(mailLog.createdAt), desc(mailLog.id))
    .limit(STORE_SENT_MAIL_LIMIT);
  return {
    store_id: store.id,
    customer_id: store.customerId,
    emails,
    sent: sent.map((m) => ({
      id: m.id,
      to: m.to,
      subject: m.subject,
      template: m.template,
      status: m.status,
      created_at: iso(m.createdAt),
      sent_at: isoOrNull(m.sentAt),
    })),
  };
}

// ── Sales person and sales history ─────────────────────────────────────────────────────────────────

/** GET /api/salesperson/{id}/{token}: id is the sales person's id (decision 053). */
export async function getSalesPerson(ctx: ServiceCtx, id: number): Promise<SalesPersonInfo> {
  const db = ctx.app.database.db;
  const [row] = await db.select().from(salesPersons).where(eq(salesPersons.id, id));
  // A sales person belongs to an agent (or to the provider): an agent-scoped session sees its agent tree's only.
  const visible =
    row !== undefined &&
    (visibleAgentsWhere(viewerOf(ctx)) === undefined ||
      (row.agentId !== null && (await isAgentVisible(db, viewerOf(ctx), row.agentId))));
  if (!row || !visible) throw notFound(`Sales person ${id}`);
  const [n] = await db.select({ n: count() }).from(customers).where(eq(customers.salesPersonId, id));
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    phone: row.phone,
    sales_channel: row.salesChannel,
    agent_id: row.agentId,
    active: row.active,
    customers: Number(n?.n ?? 0),
  };
}

const monthIso = (year: number, month: number) => new Date(Date.UTC(year, month, 1)).toISOString().slice(0, 10);

/**
 * GET /api/saleshistory/{id}/{token}?storeid=: id is the customer's id (decision 053). The 24 months up to
 * the current one, oldest first; every month appears in the customer's currency (zero when nothing sold).
 */
export async function getSalesHistory(
  ctx: ServiceCtx,
  input: { customerId: number; storeId?: number },
): Promise<SalesHistoryInfo> {
  const db = ctx.app.database.db;
  const customer = await requireCustomer(db, viewerOf(ctx), input.customerId);
  if (input.storeId !== undefined) await requireStoreOf(db, viewerOf(ctx), input.customerId, input.storeId, 'storeid');
  const now = ctx.app.clock.now();
  const months = Array.from({ length: SALES_HISTORY_MONTHS }, (_, i) =>
    monthIso(now.getUTCFullYear(), now.getUTCMonth() - (SALES_HISTORY_MONTHS - 1) + i),
  );
  const from = months[0]!;
  const to = months[months.length - 1]!;
  const rows = await db
    .select({
      month: sql<string>`to_char(${salesHistory.periodMonth}, 'YYYY-MM-01')`,
      currency: salesHistory.currency,
      units: sql<number>`sum(${salesHistory.units})::int`,
      amount: sql<string>`sum(${salesHistory.amountCents})::text`,
    })
    .from(salesHistory)
    .where(
      and(
        eq(salesHistory.customerId, input.customerId),
        input.storeId === undefined ? undefined : eq(salesHistory.storeId, input.storeId),
        gte(salesHistory.periodMonth, from),
        lte(salesHistory.periodMonth, to),
      ),
    )
    .groupBy(sql`1`, salesHistory.currency);
  const currency = customer.currency as CurrencyCode;
  const key = (month: string, cur: string) => `${month}|${cur}`;
  const found = new Map(rows.map((r) => [key(r.month, r.currency), r]));
  const out: SalesHistoryInfo['months'] = [];
  for (const month of months) {
    const own = found.get(key(month, currency));
    out.push({ period_month: month, units: Number(own?.units ?? 0), amount_cents: Number(own?.amount ?? 0), currency });
    for (const r of rows) {
      if (r.month === month && r.currency !== currency) {
        out.push({
          period_month: month,
          units: Number(r.units),
          amount_cents: Number(r.amount),
          currency: r.currency as CurrencyCode,
        });
      }
    }
  }
  const totals = new Map<CurrencyCode, { currency: CurrencyCode; units: number; amount_cents: number }>();
  totals.set(currency, { currency, units: 0, amount_cents: 0 });
  for (const m of out) {
    const t = totals.get(m.currency) ?? { currency: m.currency, units: 0, amount_cents: 0 };
    t.units += m.units;
    t.amount_cents += m.amount_cents;
    totals.set(m.currency, t);
  }
  return {
    customer_id: input.customerId,
    store_id: input.storeId ?? null,
    currency,
    from_month: from,
    to_month: to,
    months: out,
    totals: [...totals.values()],
  };
}

// ── Audit trail ────────────────────────────────────────────────────────────────────────────────────

/**
 * GET /api/customers/{id}/audit/{token}: newest first. An entry belongs to the customer when its
 * `customer_id` column is the customer (writeAudit fills it from after/before `customer_id`), or it is
 * about the customer itself (entity 'customer', entity_id = id). Both use an index (decision 054).
 */
export async function listCustomerAudit(
  ctx: ServiceCtx,
  input: { customerId: number; limit: number; offset: number },
): Promise<AuditEntryList> {
  const db = ctx.app.database.db;
  await requireCustomer(db, viewerOf(ctx), input.customerId);
  const where = or(
    eq(auditLog.customerId, input.customerId),
    and(eq(auditLog.entity, 'customer'), eq(auditLog.entityId, String(input.customerId))),
  );
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(auditLog)
      .where(where)
      .orderBy(desc(auditLog.at), desc(auditLog.id))
      .limit(input.limit)
      .offset(input.offset),
    db.select({ n: count() }).from(auditLog).where(where),
  ]);
  return {
    items: rows.map((r) => ({
      id: Number(r.id),
      at: iso(r.at),
      actor_type: r.actorType,
      actor_email: r.actorEmail,
      action: r.action,
      entity: r.entity,
      entity_id: r.entityId,
      before: r.before ?? null,
      after: r.after ?? null,
    })),
    total: Number(total?.n ?? 0),
  };
}

// ── Domain data ────────────────────────────────────────────────────────────────────────────────────

/** GET /api/domaindata/{token}?type=: the active entries of a look-up list, in display order. */
export async function listDomainData(ctx: ServiceCtx, type: DomainDataType): Promise<DomainDataInfo> {
  const items = await ctx.app.database.db
    .select({ id: domainData.id, code: domainData.code, label: domainData.label })
    .from(domainData)
    .where(and(eq(domainData.type, type), eq(domainData.active, true)))
    .orderBy(asc(domainData.sortOrder), asc(domainData.label), asc(domainData.id));
  return { type, items };
}
