import {
  LICENSED_PLAN_KINDS,
  PAYMENT_PLAN_KIND_LABELS,
  PAYMENT_PLAN_KIND_TERMS,
  PAYMENT_PLAN_TYPE_IDS,
  ZERO_AMOUNT_PLAN_KINDS,
  type PaymentPlanCreateBody,
  type CurrencyCode,
  type LicenseExpiryUpdateRequest,
  type PaymentPlan,
  type PaymentPlanKindCode,
  type PaymentPlanList,
  type PaymentPlanListQuery,
  type PaymentPlanStatus,
  type PaymentPlanUpdateRequest,
  type PaymentPlanDetail,
} from '@pos/domain';
import { and, count, eq, inArray, sql } from 'drizzle-orm';
import { withTx, type AnyServiceCtx, type ServiceCtx } from '../../context';
import type { Db } from '../../db/client';
import { customerBillingItems, customerPaymentPlans, stores, terminals } from '../../db/schema';
import { AppError, fieldError, versionConflict } from '../../http/errors';
import {
  type Viewer,
  isRecordVisible,
  requireCustomer,
  requireStoreOf,
  viewerOf,
  visibleRecordsWhere,
} from '../../access';
import { audit, isoOrNull, orderBy } from './account-context';
import { selectBillingItems, toBillingItem } from './billing-items.service';
import { runIdempotent } from '../../http/idempotency';

type PlanRow = typeof customerPaymentPlans.$inferSelect;

export function toPlan(p: PlanRow): PaymentPlan {
  const kind = p.kind as PaymentPlanKindCode;
  return {
    id: p.id,
    customer_id: p.customerId,
    store_id: p.storeId,
    order_id: p.orderId,
    kind,
    kind_label: PAYMENT_PLAN_KIND_LABELS[kind],
    payment_plan_type_id: p.paymentPlanTypeId,
    plan_name: p.planName,
    term: p.term,
    interval: p.interval,
    initial_amount_cents: p.initialAmountCents,
    recurring_amount_cents: p.recurringAmountCents,
    currency: p.currency as CurrencyCode,
    starts_on: p.startsOn,
    license_expires_on: p.licenseExpiresOn,
    next_billing_on: p.nextBillingOn,
    status: p.status as PaymentPlanStatus,
    version: p.version,
    created_at: isoOrNull(p.createdAt)!,
    updated_at: isoOrNull(p.updatedAt)!,
  };
}

async function planById(db: Db, id: number): Promise<PaymentPlan> {
  const [row] = await db.select().from(customerPaymentPlans).where(eq(customerPaymentPlans.id, id));
  return toPlan(row!);
}

/** GET …/customerpaymentplans?storeid&status. */
export async function listPlans(
  ctx: ServiceCtx,
  customerId: number,
  q: PaymentPlanListQuery,
): Promise<PaymentPlanList> {
  const db = ctx.app.database.db;
  await requireCustomer(db, viewerOf(ctx), customerId);
  if (q.storeid !== undefined) await requireStoreOf(db, viewerOf(ctx), customerId, q.storeid, 'storeid');
  const where = and(
    eq(customerPaymentPlans.customerId, customerId),
    visibleRecordsWhere(viewerOf(ctx), customerPaymentPlans.storeId),
    q.storeid === undefined ? undefined : eq(customerPaymentPlans.storeId, q.storeid),
    q.status === undefined ? undefined : eq(customerPaymentPlans.status, q.status),
  );
  const rows = await db
    .select()
    .from(customerPaymentPlans)
    .where(where)
    .orderBy(
      ...orderBy(
        q.sort,
        {
          starts_on: customerPaymentPlans.startsOn,
          kind: customerPaymentPlans.kind,
          status: customerPaymentPlans.status,
          id: customerPaymentPlans.id,
        },
        '-starts_on',
        customerPaymentPlans.id,
      ),
    )
    .limit(q.limit)
    .offset(q.offset);
  const [total] = await db.select({ n: count() }).from(customerPaymentPlans).where(where);
  return { items: rows.map(toPlan), total: total?.n ?? 0 };
}

async function lockPlan(tx: Db, viewer: Viewer, customerId: number, planId: number): Promise<PlanRow> {
  const [row] = await tx
    .select()
    .from(customerPaymentPlans)
    .where(and(eq(customerPaymentPlans.id, planId), eq(customerPaymentPlans.customerId, customerId)))
    .for('update');
  if (!row || !(await isRecordVisible(tx, viewer, row)))
    throw new AppError('not_found', `Plan ${planId} of customer ${customerId} was not found.`);
  return row;
}

/** GET …/customerpaymentplans/{planId}: the plan, its billing items (all, with history) and its terminal counts. */
export async function getPlan(ctx: ServiceCtx, customerId: number, planId: number): Promise<PaymentPlanDetail> {
  const db = ctx.app.database.db;
  await requireCustomer(db, viewerOf(ctx), customerId);
  const [row] = await db
    .select()
    .from(customerPaymentPlans)
    .where(and(eq(customerPaymentPlans.id, planId), eq(customerPaymentPlans.customerId, customerId)));
  if (!row || !(await isRecordVisible(db, viewerOf(ctx), row)))
    throw new AppError('not_found', `Plan ${planId} of customer ${customerId} was not found.`);
  const items = await selectBillingItems(db)
    .where(eq(customerBillingItems.planId, planId))
    .orderBy(customerBillingItems.billingItemId, customerBillingItems.id);
  const [counts] = await db
    .select({
      all: count(),
      active: sql<number>`count(*) filter (where ${terminals.status} <> 'retired')`.mapWith(Number),
    })
    .from(terminals)
    .where(eq(terminals.planId, planId));
  return {
    ...toPlan(row),
    billing_items: items.map(toBillingItem),
    terminals_count: counts?.all ?? 0,
    active_terminals_count: counts?.active ?? 0,
  };
}

/** Keep the store's license expiry in step with its service plan's (decision 040: a monthly/yearly plan's license is the store's). */
async function syncStoreLicense(
  tx: Db,
  ctx: ServiceCtx,
  now: Date,
  customerId: number,
  storeId: number,
  licenseExpiresOn: string,
  planId: number,
): Promise<void> {
  const store = await requireStoreOf(tx, viewerOf(ctx), customerId, storeId, 'store_id', true);
  if (store.licenseExpiresOn === licenseExpiresOn) return;
  await tx
    .update(stores)
    .set({ licenseExpiresOn, updatedAt: now, version: sql`${stores.version} + 1` })
    .where(eq(stores.id, storeId));
  await audit(tx, ctx, now, {
    customerId,
    action: 'update_license_expiry',
    entity: 'store',
    entityId: storeId,
    before: { store_id: storeId, license_expires_on: store.licenseExpiresOn, plan_id: planId },
    after: { store_id: storeId, license_expires_on: licenseExpiresOn, plan_id: planId },
  });
}

function addMonths(isoDay: string, months: number): string {
  const d = new Date(`${isoDay}T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() + months);
  return d.toISOString().slice(0, 10);
}

/**
 * POST …/customerpaymentplans: add a plan for a store (credit memo / due amount plans may be customer-level).
 * Currency is the store's (or customer's). A store has at most one active monthly or yearly plan (409). A license
 * expiry given for a service plan becomes the store's too.
 */
export async function addPlan(
  ctx: ServiceCtx,
  customerId: number,
  body: PaymentPlanCreateBody,
  idempotencyKey: string | undefined,
): Promise<PaymentPlan> {
  return runIdempotent(
    ctx,
    {
      route: 'POST /customers/:id/customerpaymentplans',
      key: idempotencyKey,
      request: { params: { id: customerId }, body },
      status: 201,
    },
    async (tx, now) => {
      const customer = await requireCustomer(tx, viewerOf(ctx), customerId);
      const store =
        body.store_id == null
          ? null
          : await requireStoreOf(tx, viewerOf(ctx), customerId, body.store_id, 'store_id', true);
      const licensed = LICENSED_PLAN_KINDS.includes(body.kind);
      if (store && licensed) {
        const [existing] = await tx
          .select({ id: customerPaymentPlans.id, kind: customerPaymentPlans.kind })
          .from(customerPaymentPlans)
          .where(
            and(
              eq(customerPaymentPlans.storeId, store.id),
              eq(customerPaymentPlans.status, 'active'),
              inArray(customerPaymentPlans.kind, [...LICENSED_PLAN_KINDS]),
            ),
          );
        if (existing) {
          throw new AppError(
            'conflict',
            `Store ${store.id} already has an active ${existing.kind} plan (${existing.id}). Change that plan instead of adding another.`,
          );
        }
      }
      const terms = PAYMENT_PLAN_KIND_TERMS[body.kind];
      const zero = ZERO_AMOUNT_PLAN_KINDS.includes(body.kind);
      const term = body.term ?? terms.term;
      const interval = body.interval ?? terms.interval;
      const recurring = licensed || (body.kind === 'hardware_sale' && term > 0);
      const [row] = await tx
        .insert(customerPaymentPlans)
        .values({
          customerId,
          storeId: store?.id ?? null,
          kind: body.kind,
          paymentPlanTypeId: PAYMENT_PLAN_TYPE_IDS[body.kind],
          planName: body.plan_name ?? PAYMENT_PLAN_KIND_LABELS[body.kind],
          term: zero ? 0 : term,
          interval: zero ? 0 : interval,
          initialAmountCents: zero ? 0 : body.initial_amount_cents,
          recurringAmountCents: zero ? 0 : body.recurring_amount_cents,
          currency: store?.currency ?? customer.currency,
          startsOn: body.starts_on,
          licenseExpiresOn: body.license_expires_on ?? null,
          nextBillingOn: recurring ? (interval > 0 ? body.starts_on : addMonths(body.starts_on, 1)) : null,
          status: 'active',
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      const plan = toPlan(row!);
      const { created_at: _c, updated_at: _u, version: _v, kind_label: _k, ...fields } = plan;
      await audit(tx, ctx, now, {
        customerId,
        action: 'create',
        entity: 'customer_payment_plan',
        entityId: plan.id,
        after: { plan_id: plan.id, ...fields },
      });
      if (store && plan.license_expires_on)
        await syncStoreLicense(tx, ctx, now, customerId, store.id, plan.license_expires_on, plan.id);
      return plan;
    },
  );
}

/** POST …/customerpaymentplans/{planId}: new license expiry for a monthly/yearly plan; the store's follows. */
export async function updateLicenseExpiry(
  ctx: ServiceCtx,
  customerId: number,
  planId: number,
  body: LicenseExpiryUpdateRequest,
): Promise<PaymentPlan> {
  return withTx(ctx, async (tx) => {
    await requireCustomer(tx, viewerOf(ctx), customerId);
    const row = await lockPlan(tx, viewerOf(ctx), customerId, planId);
    if (row.version !== body.version) throw versionConflict(`Plan ${planId}`, toPlan(row), body.version);
    if (!LICENSED_PLAN_KINDS.includes(row.kind as PaymentPlanKindCode)) {
      throw new AppError(
        'conflict',
        `Plan ${planId} is a ${PAYMENT_PLAN_KIND_LABELS[row.kind as PaymentPlanKindCode].toLowerCase()}; only monthly and yearly plans carry a license.`,
        undefined,
        { current: toPlan(row) },
      );
    }
    if (row.status === 'canceled')
      throw new AppError('conflict', `Plan ${planId} is canceled; its license cannot change.`, undefined, {
        current: toPlan(row),
      });
    if (body.license_expires_on < row.startsOn)
      throw fieldError('license_expires_on', `The license cannot expire before the plan starts (${row.startsOn}).`);
    const now = ctx.app.clock.now();
    if (row.licenseExpiresOn !== body.license_expires_on) {
      await tx
        .update(customerPaymentPlans)
        .set({
          licenseExpiresOn: body.license_expires_on,
          updatedAt: now,
          version: sql`${customerPaymentPlans.version} + 1`,
        })
        .where(eq(customerPaymentPlans.id, planId));
      await audit(tx, ctx, now, {
        customerId,
        action: 'update_license_expiry',
        entity: 'customer_payment_plan',
        entityId: planId,
        before: { plan_id: planId, store_id: row.storeId, license_expires_on: row.licenseExpiresOn },
        after: { plan_id: planId, store_id: row.storeId, license_expires_on: body.license_expires_on },
      });
    }
    if (row.storeId !== null)
      await syncStoreLicense(tx, ctx, now, customerId, row.storeId, body.license_expires_on, planId);
    return planById(tx, planId);
  });
}

const EDITABLE = {
  plan_name: 'planName',
  initial_amount_cents: 'initialAmountCents',
  recurring_amount_cents: 'recurringAmountCents',
  term: 'term',
  interval: 'interval',
} as const satisfies Record<string, keyof PlanRow>;

/**
 * PUT …/customerpaymentplans/{planId} (/editpaymentplan): plan name, initial/recurring amount, term, interval.
 * Credit memo and due amount plans stay all zeros (400); a canceled plan cannot change (409).
 */
export async function updatePlan(
  ctx: ServiceCtx,
  customerId: number,
  planId: number,
  body: PaymentPlanUpdateRequest,
): Promise<PaymentPlan> {
  return withTx(ctx, (tx) => updatePlanIn(tx, ctx, customerId, planId, body));
}

/** updatePlan on the caller's transaction (a merchant's accepted feature change moves the amount; decision 123). */
export async function updatePlanIn(
  tx: Db,
  ctx: Pick<AnyServiceCtx, 'app' | 'actor' | 'requestId' | 'session'>,
  customerId: number,
  planId: number,
  body: PaymentPlanUpdateRequest,
): Promise<PaymentPlan> {
  await requireCustomer(tx, viewerOf(ctx), customerId);
  const row = await lockPlan(tx, viewerOf(ctx), customerId, planId);
  if (row.version !== body.version) throw versionConflict(`Plan ${planId}`, toPlan(row), body.version);
  if (row.status === 'canceled')
    throw new AppError('conflict', `Plan ${planId} is canceled and cannot change.`, undefined, {
      current: toPlan(row),
    });
  const kind = row.kind as PaymentPlanKindCode;
  if (ZERO_AMOUNT_PLAN_KINDS.includes(kind)) {
    const fields: Record<string, string> = {};
    for (const key of ['initial_amount_cents', 'recurring_amount_cents', 'term', 'interval'] as const) {
      if (body[key] !== undefined && body[key] !== 0)
        fields[key] = `A ${PAYMENT_PLAN_KIND_LABELS[kind].toLowerCase()} has zero ${key.replace(/_/g, ' ')}.`;
    }
    if (Object.keys(fields).length > 0) throw new AppError('validation_failed', Object.values(fields)[0]!, fields);
  }
  const before: Record<string, unknown> = {};
  const after: Record<string, unknown> = {};
  const set: Partial<Pick<PlanRow, (typeof EDITABLE)[keyof typeof EDITABLE]>> = {};
  for (const [wire, column] of Object.entries(EDITABLE) as [
    keyof typeof EDITABLE,
    (typeof EDITABLE)[keyof typeof EDITABLE],
  ][]) {
    const value = body[wire];
    if (value === undefined || value === row[column]) continue;
    before[wire] = row[column];
    after[wire] = value;
    (set as Record<string, unknown>)[column] = value;
  }
  if (Object.keys(set).length === 0) return toPlan(row);
  const now = ctx.app.clock.now();
  await tx
    .update(customerPaymentPlans)
    .set({ ...set, updatedAt: now, version: sql`${customerPaymentPlans.version} + 1` })
    .where(eq(customerPaymentPlans.id, planId));
  const ids = { plan_id: planId, store_id: row.storeId, currency: row.currency };
  await audit(tx, ctx, now, {
    customerId,
    action: 'update',
    entity: 'customer_payment_plan',
    entityId: planId,
    before: { ...ids, ...before },
    after: { ...ids, ...after },
  });
  return planById(tx, planId);
}
