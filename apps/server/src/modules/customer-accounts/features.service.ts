import { createHash } from 'node:crypto';
import {
  JOB_QUEUE,
  LIMITED_FEATURES,
  canChangeFeature,
  isLimitedFeature,
  isNrsPaySoftwareFeature,
  type CurrencyCode,
  type FeaturesUpdateBody,
  type FeaturesUpdateResult,
  type StoreFeature,
  type StoreFeatures,
} from '@pos/domain';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { withTx, type AnyServiceCtx, type ServiceCtx } from '../../context';
import type { Db } from '../../db/client';
import { billingItemPrices, billingItems, customerBillingItems, customerPaymentPlans } from '../../db/schema';
import { actorOfSession, writeAudit } from '../../http/audit';
import { requireStoreOf, type StoreRef, viewerOf } from '../../access';
import { AppError, fieldError } from '../../http/errors';
import { defineQueues, enqueueJob } from '../../jobs/registry';
import { audit, todayOf } from './account-context';
import { currentRows } from './billing-items.service';

export interface FeatureState {
  features: StoreFeatures;
  /** The rows that switch each enabled feature on, by billing item id. */
  rowsByItem: Map<
    number,
    { id: number; storeId: number | null; version: number; unitPriceCents: number; quantity: number }[]
  >;
}

/** The store's features (catalogue items with feature = 'Y'), on or off, and what this caller may change. */
export async function featureState(
  db: Db,
  ctx: AnyServiceCtx,
  customerId: number,
  store: StoreRef,
): Promise<FeatureState> {
  const catalogue = await db
    .select({
      id: billingItems.id,
      name: billingItems.name,
      chargeAtLevel: billingItems.chargeAtLevel,
      price: billingItemPrices.priceCents,
    })
    .from(billingItems)
    .leftJoin(
      billingItemPrices,
      and(eq(billingItemPrices.billingItemId, billingItems.id), eq(billingItemPrices.currency, store.currency)),
    )
    .where(and(eq(billingItems.feature, 'Y'), eq(billingItems.active, true)))
    .orderBy(asc(billingItems.id));
  const rows =
    catalogue.length === 0
      ? []
      : await db
          .select({
            id: customerBillingItems.id,
            billingItemId: customerBillingItems.billingItemId,
            storeId: customerBillingItems.storeId,
            version: customerBillingItems.version,
            unitPriceCents: customerBillingItems.unitPriceCents,
            quantity: customerBillingItems.quantity,
          })
          .from(customerBillingItems)
          .where(
            and(
              eq(customerBillingItems.customerId, customerId),
              inArray(
                customerBillingItems.billingItemId,
                catalogue.map((c) => c.id),
              ),
              currentRows(todayOf(ctx)),
            ),
          )
          .orderBy(asc(customerBillingItems.id));
  const level = new Map(catalogue.map((c) => [c.id, c.chargeAtLevel]));
  const rowsByItem: FeatureState['rowsByItem'] = new Map();
  for (const r of rows) {
    // A store-level feature is on when the store has a row; a customer-level one (C) also by a row without a store.
    const applies = r.storeId === store.id || (r.storeId === null && level.get(r.billingItemId) === 'C');
    if (!applies) continue;
    rowsByItem.set(r.billingItemId, [...(rowsByItem.get(r.billingItemId) ?? []), r]);
  }
  const tag = [...rowsByItem.values()]
    .flat()
    .map((r) => `${r.id}:${r.version}`)
    .sort()
    .join(',');
  // A merchant's link (decision 123) has no session: it changes nothing itself, so nothing is `can_change`.
  const privileges = ctx.session?.privileges ?? [];
  return {
    rowsByItem,
    features: {
      store_id: store.id,
      customer_id: customerId,
      currency: store.currency as CurrencyCode,
      features_version: `fv_${createHash('sha256').update(`${store.id}|${tag}`).digest('hex').slice(0, 20)}`,
      features: catalogue.map((c) => ({
        billing_item_id: c.id,
        name: c.name,
        nrs_pay: isNrsPaySoftwareFeature(c.name),
        limited: isLimitedFeature(c.name),
        can_change: canChangeFeature(privileges, c.name),
        charge_at_level: c.chargeAtLevel === 'C' ? ('C' as const) : ('S' as const),
        price_cents: c.price,
        currency: store.currency as CurrencyCode,
        enabled: rowsByItem.has(c.id),
        customer_billing_item_id: rowsByItem.get(c.id)?.[0]?.id ?? null,
      })),
    },
  };
}

/** GET …/features?custstoreid. */
export async function getFeatures(ctx: ServiceCtx, customerId: number, storeId: number): Promise<StoreFeatures> {
  const db = ctx.app.database.db;
  const store = await requireStoreOf(db, viewerOf(ctx), customerId, storeId, 'custstoreid');
  return (await featureState(db, ctx, customerId, store)).features;
}

/**
 * PUT …/features (decision 057): the full set of features that should be on. Added ones become active billing
 * items at the catalogue price (on the store's active monthly/yearly plan); removed ones are canceled, ending
 * today. A holder of customer_features_limited alone may change only LIMITED_FEATURES (403 naming the others).
 * A stale features_version → 409 with the current features. notify_merchant queues the confirmation e-mail in the
 * same transaction.
 */
export async function updateFeatures(
  ctx: ServiceCtx,
  customerId: number,
  body: FeaturesUpdateBody,
): Promise<FeaturesUpdateResult> {
  const { app } = ctx;
  // Creating a queue runs outside the transaction (PGlite has one connection).
  if (body.notify_merchant) await defineQueues(app.queue, { queues: [JOB_QUEUE.featureChangeEmail] });
  const result = await withTx(ctx, (tx) =>
    changeFeaturesIn(tx, ctx, customerId, body, (name) => canChangeFeature(ctx.session.privileges, name)),
  );
  if (result.jobId) app.queue.wake(JOB_QUEUE.featureChangeEmail);
  return { ...result.features, added: result.added, removed: result.removed, email_job_id: result.jobId };
}

/**
 * The features switched on and off when `wanted` is the set that should be on: 400 for an id that is not a feature
 * or an added feature without a price in the store's currency, 403 naming the features `mayChange` refuses.
 */
export function diffFeatures(
  current: StoreFeatures,
  wanted: readonly number[],
  mayChange: (featureName: string) => boolean,
): { added: StoreFeature[]; removed: StoreFeature[] } {
  const byId = new Map(current.features.map((f) => [f.billing_item_id, f]));
  const unknown = wanted.filter((id) => !byId.has(id));
  if (unknown.length > 0)
    throw fieldError('features', `Not a feature: ${unknown.join(', ')}. Choose features from the list.`);
  const on = new Set(wanted);
  const added = current.features.filter((f) => !f.enabled && on.has(f.billing_item_id));
  const removed = current.features.filter((f) => f.enabled && !on.has(f.billing_item_id));
  const refused = [...added, ...removed].filter((f) => !mayChange(f.name));
  if (refused.length > 0) {
    const names = refused.map((f) => `'${f.name}'`).join(', ');
    throw new AppError(
      'forbidden',
      `You may not switch ${names} on or off: that needs customer_features_edit. With customer_features_limited you may change ${LIMITED_FEATURES.join(', ')}.`,
    );
  }
  const noPrice = added.filter((f) => f.price_cents === null);
  if (noPrice.length > 0)
    throw fieldError('features', `${noPrice.map((f) => f.name).join(', ')} has no price in ${current.currency}.`);
  return { added, removed };
}

/** The plan the store's features are billed on: its active monthly or yearly plan (the lowest id). */
export async function featurePlanOf(tx: Db, storeId: number) {
  const [plan] = await tx
    .select()
    .from(customerPaymentPlans)
    .where(
      and(
        eq(customerPaymentPlans.storeId, storeId),
        eq(customerPaymentPlans.status, 'active'),
        inArray(customerPaymentPlans.kind, ['monthly', 'yearly']),
      ),
    )
    .orderBy(asc(customerPaymentPlans.id))
    .limit(1);
  return plan ?? null;
}

/**
 * The features PUT on the caller's transaction: `mayChange` says which features the caller may switch (the
 * session's privileges for staff; everything for a merchant accepting a change staff prepared — decision 123).
 * A notify_merchant e-mail needs its queue defined before the transaction (updateFeatures does it).
 */
export async function changeFeaturesIn(
  tx: Db,
  ctx: AnyServiceCtx,
  customerId: number,
  body: FeaturesUpdateBody,
  mayChange: (featureName: string) => boolean,
): Promise<{ features: StoreFeatures; added: number[]; removed: number[]; jobId: string | null }> {
  const { app } = ctx;
  const store = await requireStoreOf(tx, viewerOf(ctx), customerId, body.custstoreid, 'custstoreid', true);
  const state = await featureState(tx, ctx, customerId, store);
  const current = state.features;
  if (body.features_version !== current.features_version) {
    throw new AppError(
      'version_conflict',
      `The features of store ${store.id} were changed by someone else since you opened them. Reload and make your change again.`,
      undefined,
      { current },
    );
  }
  const { added, removed } = diffFeatures(current, body.features, mayChange);
  if (added.length === 0 && removed.length === 0) return { features: current, added: [], removed: [], jobId: null };

  const now = app.clock.now();
  const today = now.toISOString().slice(0, 10);
  const plan = await featurePlanOf(tx, store.id);
  for (const f of added) {
    const storeId = f.charge_at_level === 'C' ? null : store.id;
    const [row] = await tx
      .insert(customerBillingItems)
      .values({
        customerId,
        storeId,
        planId: plan?.id ?? null,
        billingItemId: f.billing_item_id,
        quantity: 1,
        unitPriceCents: f.price_cents!,
        currency: store.currency,
        status: 'A',
        startsOn: today,
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: customerBillingItems.id });
    await audit(tx, ctx, now, {
      customerId,
      action: 'feature_on',
      entity: 'customer_billing_item',
      entityId: row!.id,
      after: {
        customer_billing_item_id: row!.id,
        store_id: store.id,
        billing_item_id: f.billing_item_id,
        feature: f.name,
        status: 'A',
        unit_price_cents: f.price_cents,
        currency: store.currency,
        starts_on: today,
        plan_id: plan?.id ?? null,
      },
    });
  }
  for (const f of removed) {
    for (const r of state.rowsByItem.get(f.billing_item_id) ?? []) {
      await tx
        .update(customerBillingItems)
        .set({ status: 'C', endsOn: today, updatedAt: now, version: sql`${customerBillingItems.version} + 1` })
        .where(eq(customerBillingItems.id, r.id));
      await audit(tx, ctx, now, {
        customerId,
        action: 'feature_off',
        entity: 'customer_billing_item',
        entityId: r.id,
        before: {
          customer_billing_item_id: r.id,
          store_id: store.id,
          billing_item_id: f.billing_item_id,
          feature: f.name,
          status: 'A',
          ends_on: null,
        },
        after: {
          customer_billing_item_id: r.id,
          store_id: store.id,
          billing_item_id: f.billing_item_id,
          feature: f.name,
          status: 'C',
          ends_on: today,
        },
      });
    }
  }
  let jobId: string | null = null;
  if (body.notify_merchant) {
    const input = {
      storeid: store.id,
      features: [
        ...added.map((f) => ({ billingitemid: f.billing_item_id, action: 'add' as const })),
        ...removed.map((f) => ({ billingitemid: f.billing_item_id, action: 'remove' as const })),
      ],
      effectiveOn: today,
    };
    const actor = ctx.session ? actorOfSession(ctx.session) : ctx.actor;
    jobId = await enqueueJob(
      app.queue,
      JOB_QUEUE.featureChangeEmail,
      { input, requestedBy: actor, requestId: ctx.requestId },
      tx,
    );
    if (jobId) {
      await writeAudit(tx, {
        ...actor,
        at: now,
        action: 'enqueue',
        entity: JOB_QUEUE.featureChangeEmail,
        entityId: jobId,
        after: { customer_id: customerId, ...input },
        requestId: ctx.requestId,
      });
    }
  }
  const after = await featureState(tx, ctx, customerId, store);
  return {
    features: after.features,
    added: added.map((f) => f.billing_item_id),
    removed: removed.map((f) => f.billing_item_id),
    jobId,
  };
}
