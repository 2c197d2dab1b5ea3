import {
  isCardExpired,
  type ExpiringCardList,
  type ExpiringCardsQuery,
  type PaymentInstrument,
  type PaymentInstrumentRemoveQuery,
  type PaymentInstrumentUpdateRequest,
} from '@pos/domain';
import { and, count, eq, ne, sql, type SQL } from 'drizzle-orm';
import { withTx, type ServiceCtx } from '../../context';
import type { Db } from '../../db/client';
import { customerPaymentPlans, customers, paymentInstruments } from '../../db/schema';
import { AppError, versionConflict } from '../../http/errors';
import {
  isCustomerVisible,
  isRecordVisible,
  viewerOf,
  visibleCustomersWhere,
  visibleRecordsWhere,
  type Viewer,
} from '../../access';
import { audit, todayOf } from './account-context';
import { toInstrument } from './payment-instruments.service';

/*
 * #/payment/instruments (issue 15 point 8, decision 115): make an instrument the default, remove one (soft), and the
 * cards about to expire across customers. Adding stays POST …/paymentinstruments (payment-instruments.service.ts).
 */

/**
 * The customer row locked, then the instrument locked: every change of a customer's default runs one after the
 * other, so two concurrent "make default" calls cannot leave two defaults.
 */
async function lockInstrument(tx: Db, viewer: Viewer, customerId: number, instrumentId: number) {
  const [customer] = await tx
    .select({ id: customers.id })
    .from(customers)
    .where(eq(customers.id, customerId))
    .for('no key update');
  if (!customer || !(await isCustomerVisible(tx, viewer, customerId)))
    throw new AppError('not_found', `Customer ${customerId} was not found.`);
  const [row] = await tx
    .select()
    .from(paymentInstruments)
    .where(and(eq(paymentInstruments.id, instrumentId), eq(paymentInstruments.customerId, customerId)))
    .for('update');
  if (!row || !(await isRecordVisible(tx, viewer, row)))
    throw new AppError('not_found', `Payment instrument ${instrumentId} of customer ${customerId} was not found.`);
  return row;
}

async function instrumentById(tx: Db, instrumentId: number, now: Date): Promise<PaymentInstrument> {
  const [row] = await tx.select().from(paymentInstruments).where(eq(paymentInstruments.id, instrumentId));
  return toInstrument(row!, now);
}

/**
 * PUT …/paymentinstruments/{instrumentId} {is_default: true, version}: the instrument becomes the customer's default
 * and the customer's other default stops being one (each change audited). Already the default → answered as it is,
 * nothing written. A removed (inactive) instrument or an expired card cannot become the default (409).
 */
export async function setDefaultInstrument(
  ctx: ServiceCtx,
  customerId: number,
  instrumentId: number,
  body: PaymentInstrumentUpdateRequest,
): Promise<PaymentInstrument> {
  return withTx(ctx, async (tx) => {
    const now = ctx.app.clock.now();
    const row = await lockInstrument(tx, viewerOf(ctx), customerId, instrumentId);
    if (row.version !== body.version)
      throw versionConflict(`Payment instrument ${instrumentId}`, toInstrument(row, now), body.version);
    if (row.status !== 'active')
      throw new AppError(
        'conflict',
        `Payment instrument ${instrumentId} was removed; add it again to make it the default.`,
        undefined,
        { current: toInstrument(row, now) },
      );
    if (row.isDefault) return toInstrument(row, now);
    if (
      row.kind === 'card' &&
      row.cardExpMonth &&
      row.cardExpYear &&
      isCardExpired(row.cardExpMonth, row.cardExpYear, now)
    )
      throw new AppError(
        'conflict',
        `The card ending ${row.cardLast4 ?? ''} has expired; it cannot become the default. Add the new card instead.`,
        undefined,
        { current: toInstrument(row, now) },
      );
    const others = await tx
      .update(paymentInstruments)
      .set({ isDefault: false, updatedAt: now, version: sql`${paymentInstruments.version} + 1` })
      .where(
        and(
          eq(paymentInstruments.customerId, customerId),
          eq(paymentInstruments.isDefault, true),
          ne(paymentInstruments.id, instrumentId),
        ),
      )
      .returning({ id: paymentInstruments.id });
    for (const o of others) {
      await audit(tx, ctx, now, {
        customerId,
        action: 'unset_default',
        entity: 'payment_instrument',
        entityId: o.id,
        before: { payment_instrument_id: o.id, is_default: true },
        after: { payment_instrument_id: o.id, is_default: false, replaced_by: instrumentId },
      });
    }
    await tx
      .update(paymentInstruments)
      .set({ isDefault: true, updatedAt: now, version: sql`${paymentInstruments.version} + 1` })
      .where(eq(paymentInstruments.id, instrumentId));
    await audit(tx, ctx, now, {
      customerId,
      action: 'set_default',
      entity: 'payment_instrument',
      entityId: instrumentId,
      before: { payment_instrument_id: instrumentId, is_default: false },
      after: {
        payment_instrument_id: instrumentId,
        is_default: true,
        replaces: others.map((o) => o.id),
      },
    });
    return instrumentById(tx, instrumentId, now);
  });
}

/** Active payment plans of a customer (the default instrument pays them). */
async function activePlanCount(tx: Db, customerId: number): Promise<number> {
  const [r] = await tx
    .select({ n: count() })
    .from(customerPaymentPlans)
    .where(and(eq(customerPaymentPlans.customerId, customerId), eq(customerPaymentPlans.status, 'active')));
  return r?.n ?? 0;
}

/**
 * DELETE …/paymentinstruments/{instrumentId}?version=N: a soft delete (status inactive, no longer the default),
 * audited. The default instrument is not removed while the customer has an active payment plan (409: make another
 * the default first); an instrument already removed → 409.
 */
export async function removeInstrument(
  ctx: ServiceCtx,
  customerId: number,
  instrumentId: number,
  query: PaymentInstrumentRemoveQuery,
): Promise<PaymentInstrument> {
  return withTx(ctx, async (tx) => {
    const now = ctx.app.clock.now();
    const row = await lockInstrument(tx, viewerOf(ctx), customerId, instrumentId);
    if (row.version !== query.version)
      throw versionConflict(`Payment instrument ${instrumentId}`, toInstrument(row, now), query.version);
    if (row.status !== 'active')
      throw new AppError('conflict', `Payment instrument ${instrumentId} is already removed.`, undefined, {
        current: toInstrument(row, now),
      });
    if (row.isDefault) {
      const plans = await activePlanCount(tx, customerId);
      if (plans > 0)
        throw new AppError(
          'conflict',
          `This is the default payment method and the customer has ${plans} active payment ${plans === 1 ? 'plan' : 'plans'}: make another payment method the default first.`,
          undefined,
          { current: toInstrument(row, now), active_plans: plans },
        );
    }
    await tx
      .update(paymentInstruments)
      .set({ status: 'inactive', isDefault: false, updatedAt: now, version: sql`${paymentInstruments.version} + 1` })
      .where(eq(paymentInstruments.id, instrumentId));
    await audit(tx, ctx, now, {
      customerId,
      action: 'remove',
      entity: 'payment_instrument',
      entityId: instrumentId,
      before: { payment_instrument_id: instrumentId, status: row.status, is_default: row.isDefault },
      after: { payment_instrument_id: instrumentId, status: 'inactive', is_default: false },
    });
    return instrumentById(tx, instrumentId, now);
  });
}

/** The rows of a raw statement (the drivers' answers share `rows`). */
async function rowsOf<T>(db: Db, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

/**
 * GET /api/customers/paymentinstruments/expiring/{token}?days: active cards whose last valid day (the end of the
 * expiry month) is from today (by the app clock) to today + days, soonest first; expired cards are not listed. With
 * each, a terminal in use at the card's store (for a card of no store: at any store of the customer), for the
 * payment-update link.
 */
export async function listExpiringCards(ctx: ServiceCtx, q: ExpiringCardsQuery): Promise<ExpiringCardList> {
  const today = todayOf(ctx);
  const lastDay = sql`(make_date(pi.card_exp_year, pi.card_exp_month, 1) + interval '1 month' - interval '1 day')::date`;
  const where = sql`pi.kind = 'card' and pi.status = 'active'
      and pi.card_exp_year is not null and pi.card_exp_month between 1 and 12
      and ${lastDay} >= ${today}::date
      and ${lastDay} <= ${today}::date + ${q.days}::int`;
  const db = ctx.app.database.db;
  // An agent-scoped session lists its own merchants' cards only (decision 140).
  const visible = visibleRecordsWhere(viewerOf(ctx), sql.raw('pi.store_id'));
  const customersSeen = visibleCustomersWhere(viewerOf(ctx), sql.raw('pi.customer_id'));
  const scope = visible && customersSeen ? sql` and ${customersSeen} and ${visible}` : sql``;
  const rows = await rowsOf<{
    instrument_id: number;
    customer_id: number;
    customer_name: string;
    store_id: number | null;
    store_name: string | null;
    brand: string | null;
    last4: string;
    exp_month: number;
    exp_year: number;
    expires_on: string;
    is_default: boolean;
    elmer_id: string | null;
  }>(
    db,
    sql`
    select pi.id as instrument_id, pi.customer_id, c.legal_name as customer_name, pi.store_id,
           s.store_name, pi.card_brand as brand, pi.card_last4 as last4, pi.card_exp_month as exp_month,
           pi.card_exp_year as exp_year, to_char(${lastDay}, 'YYYY-MM-DD') as expires_on, pi.is_default,
           (select t.elmer_id from terminals t
             where t.status <> 'retired'
               and (case when pi.store_id is null then t.customer_id = pi.customer_id else t.store_id = pi.store_id end)
             order by t.status = 'active' desc, t.id
             limit 1) as elmer_id
      from payment_instruments pi
      join customers c on c.id = pi.customer_id
      left join stores s on s.id = pi.store_id
     where ${where}${scope}
     order by ${lastDay}, pi.id
     limit ${q.limit} offset ${q.offset}`,
  );
  const [total] = await rowsOf<{ n: number }>(
    db,
    sql`select count(*)::int as n from payment_instruments pi where ${where}${scope}`,
  );
  return {
    items: rows.map((r) => ({
      instrument_id: Number(r.instrument_id),
      customer_id: Number(r.customer_id),
      customer_name: r.customer_name,
      store_id: r.store_id === null ? null : Number(r.store_id),
      store_name: r.store_name,
      brand: r.brand ?? 'unknown',
      last4: r.last4,
      exp_month: Number(r.exp_month),
      exp_year: Number(r.exp_year),
      expires_on: r.expires_on,
      is_default: r.is_default,
      elmer_id: r.elmer_id,
    })),
    total: Number(total?.n ?? 0),
  };
}
