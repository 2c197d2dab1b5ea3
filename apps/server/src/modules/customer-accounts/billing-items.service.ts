import {
  ALL_STORES_CUST_STORE_ID,
  CUSTOMER_BILLING_ITEM_STATUS_LABELS,
  type CustomerBillingItem,
  type CustomerBillingItemList,
  type CustomerBillingItemListQuery,
  type CustomerBillingItemStatus,
  type CurrencyCode,
  type CustomerBillingItemCreateBody,
} from '@pos/domain';
import { and, count, eq, gte, isNull, ne, or, type SQL } from 'drizzle-orm';
import type { ServiceCtx } from '../../context';
import type { Db } from '../../db/client';
import {
  billingItemCategories,
  billingItemPrices,
  billingItems,
  customerBillingItems,
  customerPaymentPlans,
} from '../../db/schema';
import { requireCustomer, requirePlanOf, requireStoreOf, viewerOf, visibleRecordsWhere } from '../../access';
import { AppError, fieldError } from '../../http/errors';
import { audit, orderBy, todayOf } from './account-context';
import { runIdempotent } from '../../http/idempotency';

export function selectBillingItems(db: Db) {
  return db
    .select({
      r: customerBillingItems,
      name: billingItems.name,
      feature: billingItems.feature,
      chargeAtLevel: billingItems.chargeAtLevel,
      recurring: billingItems.recurring,
      category: billingItemCategories.name,
    })
    .from(customerBillingItems)
    .innerJoin(billingItems, eq(billingItems.id, customerBillingItems.billingItemId))
    .leftJoin(billingItemCategories, eq(billingItemCategories.id, billingItems.categoryId));
}
type BillingItemRow = Awaited<ReturnType<ReturnType<typeof selectBillingItems>['execute']>>[number];

export function toBillingItem(x: BillingItemRow): CustomerBillingItem {
  const r = x.r;
  const status = r.status as CustomerBillingItemStatus;
  return {
    id: r.id,
    customer_id: r.customerId,
    store_id: r.storeId,
    plan_id: r.planId,
    billing_item_id: r.billingItemId,
    name: x.name,
    category: x.category,
    feature: x.feature === 'Y' ? 'Y' : 'N',
    charge_at_level: x.chargeAtLevel === 'C' ? 'C' : 'S',
    recurring: x.recurring,
    quantity: r.quantity,
    unit_price_cents: r.unitPriceCents,
    amount_cents: r.unitPriceCents * r.quantity,
    currency: r.currency as CurrencyCode,
    status,
    status_label: CUSTOMER_BILLING_ITEM_STATUS_LABELS[status],
    starts_on: r.startsOn,
    ends_on: r.endsOn,
    version: r.version,
  };
}

export async function billingItemById(db: Db, id: number): Promise<CustomerBillingItem> {
  const [row] = await selectBillingItems(db).where(eq(customerBillingItems.id, id));
  return toBillingItem(row!);
}

/** Rows still in force on `today`: not canceled and not ended before today. */
export function currentRows(today: string): SQL {
  return and(
    ne(customerBillingItems.status, 'C'),
    or(isNull(customerBillingItems.endsOn), gte(customerBillingItems.endsOn, today)),
  )!;
}

/**
 * GET …/customerbillingitems (decision 056): custstoreid 999999999 = all the customer's rows; status filters by
 * letter; without a status, checkForPreviousRecords=false shows current rows only and true adds the history.
 */
export async function listBillingItems(
  ctx: ServiceCtx,
  customerId: number,
  q: CustomerBillingItemListQuery,
): Promise<CustomerBillingItemList> {
  const db = ctx.app.database.db;
  await requireCustomer(db, viewerOf(ctx), customerId);
  const allStores = q.custstoreid === ALL_STORES_CUST_STORE_ID;
  if (!allStores) await requireStoreOf(db, viewerOf(ctx), customerId, q.custstoreid, 'custstoreid');
  if (q.customerplanid !== undefined)
    await requirePlanOf(db, viewerOf(ctx), customerId, q.customerplanid, 'customerplanid');
  const where = and(
    visibleRecordsWhere(viewerOf(ctx), customerBillingItems.storeId),
    eq(customerBillingItems.customerId, customerId),
    allStores ? undefined : eq(customerBillingItems.storeId, q.custstoreid),
    q.customerplanid === undefined ? undefined : eq(customerBillingItems.planId, q.customerplanid),
    q.billingitemid === undefined ? undefined : eq(customerBillingItems.billingItemId, q.billingitemid),
    q.status !== undefined
      ? eq(customerBillingItems.status, q.status)
      : q.checkForPreviousRecords
        ? undefined
        : currentRows(todayOf(ctx)),
  );
  const rows = await selectBillingItems(db)
    .where(where)
    .orderBy(
      ...orderBy(
        q.sort,
        {
          starts_on: customerBillingItems.startsOn,
          billing_item_id: customerBillingItems.billingItemId,
          status: customerBillingItems.status,
          id: customerBillingItems.id,
        },
        'billing_item_id',
        customerBillingItems.id,
      ),
    )
    .limit(q.limit)
    .offset(q.offset);
  const [total] = await db.select({ n: count() }).from(customerBillingItems).where(where);
  return { customer_billing_items: rows.map(toBillingItem), total: total?.n ?? 0 };
}

/** The catalogue price of an item in a currency, or null. */
export async function cataloguePrice(db: Db, billingItemId: number, currency: string): Promise<number | null> {
  const [p] = await db
    .select({ cents: billingItemPrices.priceCents })
    .from(billingItemPrices)
    .where(and(eq(billingItemPrices.billingItemId, billingItemId), eq(billingItemPrices.currency, currency)));
  return p?.cents ?? null;
}

/**
 * POST …/customerbillingitems: add a billing item (price defaults to the catalogue's in the customer's currency).
 * Items charged per store need a store; a plan must be the customer's (and the store's); a feature already on
 * at the store → 409 (use the features page).
 */
export async function addBillingItem(
  ctx: ServiceCtx,
  customerId: number,
  body: CustomerBillingItemCreateBody,
  idempotencyKey: string | undefined,
): Promise<CustomerBillingItem> {
  return runIdempotent(
    ctx,
    {
      route: 'POST /customers/:id/customerbillingitems',
      key: idempotencyKey,
      request: { params: { id: customerId }, body },
      status: 201,
    },
    async (tx, now) => {
      const customer = await requireCustomer(tx, viewerOf(ctx), customerId);
      const [item] = await tx.select().from(billingItems).where(eq(billingItems.id, body.billing_item_id));
      if (!item)
        throw new AppError('not_found', `Billing item ${body.billing_item_id} was not found.`, {
          billing_item_id: 'Choose a billing item from the catalogue.',
        });
      if (!item.active)
        throw fieldError('billing_item_id', `Billing item ${item.id} (${item.name}) is no longer sold.`);
      const store =
        body.store_id == null ? null : await requireStoreOf(tx, viewerOf(ctx), customerId, body.store_id, 'store_id');
      if (!store && item.chargeAtLevel === 'S')
        throw fieldError('store_id', `${item.name} is charged per store: choose the store.`);
      if (body.plan_id != null) {
        const [plan] = await tx
          .select({ id: customerPaymentPlans.id, storeId: customerPaymentPlans.storeId })
          .from(customerPaymentPlans)
          .where(and(eq(customerPaymentPlans.id, body.plan_id), eq(customerPaymentPlans.customerId, customerId)));
        if (!plan)
          throw new AppError('not_found', `Plan ${body.plan_id} is not a plan of customer ${customerId}.`, {
            plan_id: `Plan ${body.plan_id} is not a plan of this customer.`,
          });
        if (store && plan.storeId !== null && plan.storeId !== store.id)
          throw fieldError('plan_id', `Plan ${plan.id} belongs to another store.`);
      }
      const currency = store?.currency ?? customer.currency;
      const price = body.unit_price_cents ?? (await cataloguePrice(tx, item.id, currency));
      if (price === null)
        throw fieldError(
          'unit_price_cents',
          `${item.name} has no catalogue price in ${currency}; enter the unit price.`,
        );
      const startsOn = body.starts_on ?? now.toISOString().slice(0, 10);
      if (body.ends_on && body.ends_on < startsOn)
        throw fieldError('ends_on', 'The end date cannot be before the start date.');
      if (item.feature === 'Y') {
        const [on] = await tx
          .select({ id: customerBillingItems.id })
          .from(customerBillingItems)
          .where(
            and(
              eq(customerBillingItems.customerId, customerId),
              store ? eq(customerBillingItems.storeId, store.id) : isNull(customerBillingItems.storeId),
              eq(customerBillingItems.billingItemId, item.id),
              currentRows(startsOn),
            ),
          );
        if (on)
          throw new AppError(
            'conflict',
            `${item.name} is already on${store ? ` for store ${store.id}` : ''} (billing item row ${on.id}). Change features on the features page.`,
          );
      }
      const [row] = await tx
        .insert(customerBillingItems)
        .values({
          customerId,
          storeId: store?.id ?? null,
          planId: body.plan_id ?? null,
          billingItemId: item.id,
          quantity: body.quantity,
          unitPriceCents: price,
          currency,
          status: 'A',
          startsOn,
          endsOn: body.ends_on ?? null,
          createdAt: now,
          updatedAt: now,
        })
        .returning({ id: customerBillingItems.id });
      const created = await billingItemById(tx, row!.id);
      await audit(tx, ctx, now, {
        customerId,
        action: 'create',
        entity: 'customer_billing_item',
        entityId: created.id,
        after: {
          customer_billing_item_id: created.id,
          store_id: created.store_id,
          plan_id: created.plan_id,
          billing_item_id: created.billing_item_id,
          name: created.name,
          quantity: created.quantity,
          unit_price_cents: created.unit_price_cents,
          currency: created.currency,
          starts_on: created.starts_on,
          ends_on: created.ends_on,
        },
      });
      return created;
    },
  );
}
