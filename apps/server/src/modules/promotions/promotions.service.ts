import type { Readable } from 'node:stream';
import {
  ORDER_STATUS,
  PROMOTION_CSV_COLUMNS,
  PROMOTION_DEFAULT_SORT,
  parseSort,
  promotionState,
  type CurrencyCode,
  type PromotionCreate,
  type PromotionOrderList,
  type PromotionRecord,
  type PromotionSearchQuery,
  type PromotionSearchResult,
  type PromotionSortField,
  type PromotionUpdate,
} from '@pos/domain';
import { and, asc, desc, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import { withTx, type ServiceCtx } from '../../context';
import { cappedCount } from '../../db/capped-count';
import type { Db } from '../../db/client';
import {
  billingItems,
  customers,
  orderPromotions,
  orders,
  promotionBillingItems,
  promotions,
  stores,
} from '../../db/schema';
import { writeAudit } from '../../http/audit';
import { AppError, versionConflict } from '../../http/errors';
import { csvStream } from '../../lib/csv-stream';
import { escapeLike } from '../../lib/sql-like';
import { visibleOrdersWhere } from '../orders';

/*
 * Promotions (#/promotions; issue 17 point 3, decision 125). A promotion's usage count is derived, never stored: the
 * order_promotions rows of its orders that are not rejected or canceled (written when an order is submitted, see
 * promotion-orders.ts), counted by one correlated sub-query.
 */

type PromotionRow = typeof promotions.$inferSelect;

/** Statuses whose orders no longer use their promotions. */
export const RELEASED_STATUSES: readonly string[] = [ORDER_STATUS.REJECTED, ORDER_STATUS.POS_CANCELED];

/** The number of orders that used promotion `id` (a SQL expression over a promotion id column or value). */
export function usageCountSql(id: SQL): SQL<number> {
  return sql<number>`(select count(*)::int from order_promotions op left join orders o on o.id = op.order_id
    where op.promotion_id = ${id} and (o.id is null or o.status not in (${sql.join(
      RELEASED_STATUSES.map((s) => sql`${s}`),
      sql`, `,
    )})))`;
}

// Qualified by hand: drizzle leaves a one-table select's columns bare, which the sub-query would take as its own.
const usageCount = usageCountSql(sql.raw('"promotions"."id"'));

export const today = (ctx: { app: { clock: { now(): Date } } }) => ctx.app.clock.now().toISOString().slice(0, 10);

function toRecord(
  r: PromotionRow & { usageCount: number },
  items: readonly { billing_item_id: number; name: string }[],
  day: string,
): PromotionRecord {
  const percent = r.percent === null ? null : Number(r.percent);
  const base = {
    active: r.active,
    starts_on: r.startsOn,
    expires_on: r.expiresOn,
    usage_limit: r.usageLimit,
    usage_count: Number(r.usageCount),
  };
  return {
    promo_id: r.id,
    code: r.code,
    name: r.name,
    type: r.type as PromotionRecord['type'],
    method: r.method as PromotionRecord['method'],
    amount_cents: r.amountCents,
    percent,
    customer_type: r.customerType,
    currency: r.currency as CurrencyCode,
    billing_items: [...items],
    ...base,
    state: promotionState(base, day),
    version: r.version,
    updated_at: r.updatedAt.toISOString(),
  };
}

/** The billing items of the given promotions, by promotion id (one query). */
async function itemsOf(db: Db, ids: readonly number[]) {
  const map = new Map<number, { billing_item_id: number; name: string }[]>();
  if (ids.length === 0) return map;
  const rows = await db
    .select({ promotionId: promotionBillingItems.promotionId, id: billingItems.id, name: billingItems.name })
    .from(promotionBillingItems)
    .innerJoin(billingItems, eq(billingItems.id, promotionBillingItems.billingItemId))
    .where(inArray(promotionBillingItems.promotionId, [...ids]))
    .orderBy(asc(billingItems.id));
  for (const r of rows) {
    const list = map.get(r.promotionId) ?? [];
    list.push({ billing_item_id: r.id, name: r.name });
    map.set(r.promotionId, list);
  }
  return map;
}

function selectPromotions(db: Db) {
  return db
    .select({
      id: promotions.id,
      code: promotions.code,
      name: promotions.name,
      type: promotions.type,
      method: promotions.method,
      amountCents: promotions.amountCents,
      percent: promotions.percent,
      customerType: promotions.customerType,
      currency: promotions.currency,
      billingItemId: promotions.billingItemId,
      startsOn: promotions.startsOn,
      expiresOn: promotions.expiresOn,
      usageLimit: promotions.usageLimit,
      active: promotions.active,
      createdAt: promotions.createdAt,
      updatedAt: promotions.updatedAt,
      version: promotions.version,
      usageCount,
    })
    .from(promotions);
}

async function loadRecord(ctx: ServiceCtx, db: Db, id: number): Promise<PromotionRecord> {
  const [row] = await selectPromotions(db).where(eq(promotions.id, id));
  if (!row) throw promotionNotFound(id);
  return toRecord(row, (await itemsOf(db, [id])).get(id) ?? [], today(ctx));
}

const promotionNotFound = (id: number) =>
  new AppError('not_found', `Promotion ${id} does not exist.`, { id: `No promotion has the id ${id}.` });

// ── List ──────────────────────────────────────────────────────────────────────────────────────────────

function promotionWhere(q: PromotionSearchQuery, day: string): SQL | undefined {
  const pattern = q.q ? `%${escapeLike(q.q.toUpperCase())}%` : undefined;
  const notExpired = sql`(${promotions.expiresOn} is null or ${promotions.expiresOn} >= ${day})`;
  const started = sql`(${promotions.startsOn} is null or ${promotions.startsOn} <= ${day})`;
  return and(
    pattern === undefined
      ? undefined
      : or(sql`upper(${promotions.code}) like ${pattern}`, sql`upper(${promotions.name}) like ${pattern}`),
    q.currency === undefined ? undefined : eq(promotions.currency, q.currency),
    q.customer_type === undefined ? undefined : eq(promotions.customerType, q.customer_type),
    q.state === 'current' ? and(eq(promotions.active, true), notExpired, started) : undefined,
    q.state === 'expired' ? or(eq(promotions.active, false), sql`not ${notExpired}`) : undefined,
    q.state === 'scheduled' ? and(eq(promotions.active, true), notExpired, sql`not ${started}`) : undefined,
  );
}

const SORT_COLUMNS: Readonly<Record<PromotionSortField, SQL>> = {
  code: sql`upper(${promotions.code})`,
  name: sql`${promotions.name}`,
  starts_on: sql`${promotions.startsOn}`,
  expires_on: sql`${promotions.expiresOn}`,
  usage_count: usageCount,
  updated_at: sql`${promotions.updatedAt}`,
};

function page(
  db: Db,
  where: SQL | undefined,
  sort: PromotionSearchQuery['sort'],
  p: { limit: number; offset: number },
) {
  const s = parseSort(sort ?? PROMOTION_DEFAULT_SORT, 'code');
  const key = SORT_COLUMNS[s.field];
  return selectPromotions(db)
    .where(where)
    .orderBy(sql`${key} ${sql.raw(s.desc ? 'desc' : 'asc')} nulls last`, asc(promotions.currency), asc(promotions.id))
    .limit(p.limit)
    .offset(p.offset);
}

async function withItems(ctx: ServiceCtx, db: Db, rows: Awaited<ReturnType<typeof page>>) {
  const items = await itemsOf(
    db,
    rows.map((r) => r.id),
  );
  const day = today(ctx);
  return rows.map((r) => toRecord(r, items.get(r.id) ?? [], day));
}

/** GET /api/promotions/{token}: one page and the total (exact up to the cap). */
export async function searchPromotions(ctx: ServiceCtx, q: PromotionSearchQuery): Promise<PromotionSearchResult> {
  const db = ctx.app.database.db;
  const where = promotionWhere(q, today(ctx));
  const items = await withItems(ctx, db, await page(db, where, q.sort, q));
  if (q.offset === 0 && items.length < q.limit) return { items, total: items.length, total_capped: false };
  return { items, ...(await cappedCount(db, promotions, where)) };
}

/** format=csv: every promotion the filters match, in the list's order. */
export function searchPromotionsCsv(ctx: ServiceCtx, q: PromotionSearchQuery): Readable {
  const db = ctx.app.database.db;
  const where = promotionWhere(q, today(ctx));
  return csvStream(PROMOTION_CSV_COLUMNS, async (limit, offset) =>
    withItems(ctx, db, await page(db, where, q.sort, { limit, offset })),
  );
}

// ── Writes ────────────────────────────────────────────────────────────────────────────────────────────

function columnsOf(input: PromotionCreate) {
  return {
    code: input.code,
    name: input.name,
    type: input.type,
    method: input.method,
    amountCents: input.method === 'A' ? input.amount_cents : null,
    percent: input.method === 'P' && input.percent !== null ? input.percent.toFixed(2) : null,
    customerType: input.customer_type,
    currency: input.currency,
    billingItemId: input.billing_item_ids[0] ?? null,
    startsOn: input.starts_on,
    expiresOn: input.expires_on,
    usageLimit: input.usage_limit,
  };
}

async function checkBillingItems(db: Db, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  const found = await db
    .select({ id: billingItems.id })
    .from(billingItems)
    .where(inArray(billingItems.id, [...ids]));
  const missing = ids.filter((id) => !found.some((f) => f.id === id));
  if (missing.length > 0) {
    const message = `No billing item has the id ${missing.join(', ')}.`;
    throw new AppError('validation_failed', message, { billing_item_ids: message });
  }
}

async function checkCodeFree(db: Db, code: string, currency: string, exceptId?: number): Promise<void> {
  const [other] = await db
    .select({ id: promotions.id })
    .from(promotions)
    .where(
      and(
        sql`upper(${promotions.code}) = ${code.toUpperCase()}`,
        eq(promotions.currency, currency),
        exceptId === undefined ? undefined : sql`${promotions.id} <> ${exceptId}`,
      ),
    );
  if (other) {
    const message = `Promotion ${other.id} already has the code ${code} in ${currency}: choose another code.`;
    throw new AppError('conflict', message, { code: message });
  }
}

/** A unique-index violation (PostgreSQL 23505), also when the driver wraps it: two saves of one code at once. */
function isUniqueViolation(err: unknown): boolean {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, i = 0; e && i < 5; e = e.cause as typeof e, i++)
    if (e.code === '23505') return true;
  return false;
}

async function codeTaken<T>(input: { code: string; currency: string }, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    const message = `Another promotion has the code ${input.code} in ${input.currency}: choose another code.`;
    throw new AppError('conflict', message, { code: message });
  }
}

async function replaceItems(db: Db, promotionId: number, ids: readonly number[]): Promise<void> {
  await db.delete(promotionBillingItems).where(eq(promotionBillingItems.promotionId, promotionId));
  if (ids.length > 0)
    await db.insert(promotionBillingItems).values(ids.map((billingItemId) => ({ promotionId, billingItemId })));
}

/** POST /api/promotions/{token}: a new promotion (its code unique per currency, any case). */
export async function createPromotion(ctx: ServiceCtx, input: PromotionCreate): Promise<PromotionRecord> {
  const now = ctx.app.clock.now();
  return codeTaken(input, () =>
    withTx(ctx, async (db) => {
      await checkBillingItems(db, input.billing_item_ids);
      await checkCodeFree(db, input.code, input.currency);
      const [row] = await db
        .insert(promotions)
        .values({ ...columnsOf(input), active: true, createdAt: now, updatedAt: now })
        .returning({ id: promotions.id });
      await replaceItems(db, row!.id, input.billing_item_ids);
      const record = await loadRecord(ctx, db, row!.id);
      await writeAudit(db, {
        ...ctx.actor,
        at: now,
        action: 'promotion.create',
        entity: 'promotion',
        entityId: row!.id,
        after: record,
        requestId: ctx.requestId,
      });
      return record;
    }),
  );
}

/** PUT /api/promotions/{id}/{token}: change it (the version read; stale → 409 with the current promotion). */
export async function updatePromotion(
  ctx: ServiceCtx,
  input: { id: number; body: PromotionUpdate },
): Promise<PromotionRecord> {
  const now = ctx.app.clock.now();
  const { version, ...fields } = input.body;
  return codeTaken(fields, () =>
    withTx(ctx, async (db) => {
      const before = await loadRecord(ctx, db, input.id);
      await checkBillingItems(db, fields.billing_item_ids);
      await checkCodeFree(db, fields.code, fields.currency, input.id);
      if (fields.usage_limit !== null && fields.usage_limit < before.usage_count) {
        const message = `It has been used ${before.usage_count} times already: the limit cannot be below that.`;
        throw new AppError('validation_failed', message, { usage_limit: message });
      }
      const [updated] = await db
        .update(promotions)
        .set({ ...columnsOf(fields), updatedAt: now, version: sql`${promotions.version} + 1` })
        .where(and(eq(promotions.id, input.id), eq(promotions.version, version)))
        .returning({ id: promotions.id });
      if (!updated) throw versionConflict(`Promotion ${before.code}`, before, version);
      await replaceItems(db, input.id, fields.billing_item_ids);
      const after = await loadRecord(ctx, db, input.id);
      await writeAudit(db, {
        ...ctx.actor,
        at: now,
        action: 'promotion.update',
        entity: 'promotion',
        entityId: input.id,
        before,
        after,
        requestId: ctx.requestId,
      });
      return after;
    }),
  );
}

/**
 * POST /api/promotions/{id}/expire/{token}: it stops today — expires_on becomes yesterday (a promotion that had not
 * started yet gets the same start). Orders already submitted keep it. Already expired → 409.
 */
export async function expirePromotion(
  ctx: ServiceCtx,
  input: { id: number; version: number },
): Promise<PromotionRecord> {
  const now = ctx.app.clock.now();
  const yesterday = new Date(now.getTime() - 86_400_000).toISOString().slice(0, 10);
  return withTx(ctx, async (db) => {
    const before = await loadRecord(ctx, db, input.id);
    if (before.state === 'expired' || before.state === 'inactive') {
      throw new AppError('conflict', `Promotion ${before.code} has already expired.`);
    }
    const startsOn = before.starts_on !== null && before.starts_on > yesterday ? yesterday : before.starts_on;
    const [updated] = await db
      .update(promotions)
      .set({ expiresOn: yesterday, startsOn, updatedAt: now, version: sql`${promotions.version} + 1` })
      .where(and(eq(promotions.id, input.id), eq(promotions.version, input.version)))
      .returning({ id: promotions.id });
    if (!updated) throw versionConflict(`Promotion ${before.code}`, before, input.version);
    const after = await loadRecord(ctx, db, input.id);
    await writeAudit(db, {
      ...ctx.actor,
      at: now,
      action: 'promotion.expire',
      entity: 'promotion',
      entityId: input.id,
      before: { expires_on: before.expires_on, version: before.version },
      after: { expires_on: after.expires_on, version: after.version },
      requestId: ctx.requestId,
    });
    return after;
  });
}

/**
 * GET /api/promotions/{id}/orders/{token}: the orders that used it, newest first — those the session may see (the one
 * order-scope rule, decision 102; staff holding promotions_* are unscoped, an agent-scoped session would see its own).
 */
export async function listPromotionOrders(ctx: ServiceCtx, id: number): Promise<PromotionOrderList> {
  const db = ctx.app.database.db;
  const [exists] = await db.select({ id: promotions.id }).from(promotions).where(eq(promotions.id, id));
  if (!exists) throw promotionNotFound(id);
  const rows = await db
    .select({
      orderId: orderPromotions.orderId,
      unifiedOrderId: orders.unifiedOrderId,
      status: orders.status,
      customerId: orderPromotions.customerId,
      orderCustomerId: orders.customerId,
      legalName: sql<string | null>`coalesce(${customers.legalName}, ${orders.legalName})`,
      dba: sql<string | null>`coalesce(${stores.doingBusinessAs}, ${orders.dbaName})`,
      amountCents: orderPromotions.amountCents,
      currency: orderPromotions.currency,
      appliedAt: orderPromotions.appliedAt,
    })
    .from(orderPromotions)
    .innerJoin(orders, eq(orders.id, orderPromotions.orderId))
    .leftJoin(customers, eq(customers.id, orderPromotions.customerId))
    .leftJoin(stores, eq(stores.id, orderPromotions.storeId))
    .where(and(eq(orderPromotions.promotionId, id), visibleOrdersWhere(ctx.session)))
    .orderBy(desc(orderPromotions.appliedAt), desc(orderPromotions.orderId))
    .limit(1000);
  return {
    promo_id: id,
    items: rows.map((r) => ({
      order_id: r.orderId!,
      unified_order_id: r.unifiedOrderId,
      status: r.status,
      customer_id: r.customerId ?? r.orderCustomerId,
      legal_name: r.legalName,
      doing_business_as: r.dba,
      amount_cents: r.amountCents,
      currency: r.currency as CurrencyCode,
      applied_at: r.appliedAt.toISOString(),
      counts: !RELEASED_STATUSES.includes(r.status),
    })),
  };
}
