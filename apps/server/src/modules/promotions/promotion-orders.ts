import {
  ORDER_STATUS,
  orderCustomerType,
  orderPromotionEntry,
  orderTotals,
  promotionRefusal,
  type OrderDocument,
  type OrderPromotionEntry,
} from '@pos/domain';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { AnyServiceCtx } from '../../context';
import type { Db } from '../../db/client';
import { orderPromotions, promotions } from '../../db/schema';
import { AppError } from '../../http/errors';
import type { StatusChange } from '../orders';
import { today, usageCountSql } from './promotions.service';

/*
 * An order's promotions are checked and recorded when it is submitted (Draft/Incomplete → Pending Contract Sign;
 * decision 125), in the transaction of the move: each promotion of PromotionInfo is locked (FOR UPDATE, so two
 * submits cannot both take the last use), must still be what the order flow applied (method, amount, percent), current
 * today, in the order's currency, for the order's customer type (orderCustomerType: N, or the kind of sale E/T/U/R,
 * decision 163) and below its usage limit; then one order_promotions row
 * per promotion holds the discount the order's totals give it. Anything refused → 400 and the submit does not happen.
 * When the order completes, the rows get the merchant's customer and store (a new merchant had none at submit).
 */

const SUBMIT_FROM: readonly string[] = [ORDER_STATUS.DRAFT, ORDER_STATUS.INCOMPLETE];

function entriesOf(doc: OrderDocument): OrderPromotionEntry[] {
  const out: OrderPromotionEntry[] = [];
  for (const e of (doc.PromotionInfo ?? []) as unknown[]) {
    const parsed = orderPromotionEntry.safeParse(e);
    if (parsed.success) out.push(parsed.data);
  }
  return out;
}

const refuse = (message: string) => new AppError('validation_failed', message, { PromotionInfo: message });

const sameNumber = (a: number | null | undefined, b: number | null | undefined) =>
  Math.round((a ?? 0) * 100) === Math.round((b ?? 0) * 100);

/** Check and record the promotions of a submitted order (a listener of onOrderStatusChange). */
export async function promotionStatusEffects(ctx: AnyServiceCtx, tx: Db, change: StatusChange): Promise<void> {
  const { order, from, to } = change;
  if (to === ORDER_STATUS.COMPLETE && order.customerId !== null) {
    await tx
      .update(orderPromotions)
      .set({ customerId: order.customerId, storeId: sql`coalesce(${orderPromotions.storeId}, ${order.storeId})` })
      .where(and(eq(orderPromotions.orderId, order.id), isNull(orderPromotions.customerId)));
    return;
  }
  if (to !== ORDER_STATUS.PENDING_CONTRACT_SIGN || from === null || !SUBMIT_FROM.includes(from)) return;

  const doc = order.document as OrderDocument;
  const entries = entriesOf(doc);
  await tx.delete(orderPromotions).where(eq(orderPromotions.orderId, order.id));
  if (entries.length === 0) return;
  const totals = orderTotals(doc);
  const day = today(ctx);
  const seen = new Set<number>();
  for (const entry of entries) {
    if (seen.has(entry.promoId)) throw refuse(`Promotion ${entry.code} is applied twice: remove one.`);
    seen.add(entry.promoId);
    const [p] = await tx
      .select({
        id: promotions.id,
        code: promotions.code,
        method: promotions.method,
        amountCents: promotions.amountCents,
        percent: promotions.percent,
        customerType: promotions.customerType,
        currency: promotions.currency,
        startsOn: promotions.startsOn,
        expiresOn: promotions.expiresOn,
        usageLimit: promotions.usageLimit,
        active: promotions.active,
      })
      .from(promotions)
      .where(eq(promotions.id, entry.promoId))
      .for('update');
    if (!p || p.code.toUpperCase() !== entry.code.toUpperCase())
      throw refuse(`Promotion ${entry.code} no longer exists: remove it from the order.`);
    const changed =
      p.method !== entry.method ||
      (p.method === 'A'
        ? !sameNumber((p.amountCents ?? 0) / 100, entry.amount == null ? null : Number(entry.amount))
        : !sameNumber(p.percent === null ? null : Number(p.percent), entry.percent));
    if (changed) throw refuse(`Promotion ${p.code} changed since it was applied: remove it and apply the code again.`);
    const counted = (await tx.execute(sql`select ${usageCountSql(sql`${p.id}`)} as n`)) as unknown as {
      rows: { n: number }[];
    };
    const usage = Number(counted.rows[0]?.n ?? 0);
    const refusal = promotionRefusal(
      {
        code: p.code,
        currency: p.currency,
        customer_type: p.customerType,
        active: p.active,
        starts_on: p.startsOn,
        expires_on: p.expiresOn,
        usage_limit: p.usageLimit,
        usage_count: usage,
      },
      { today: day, currency: order.currency, customerType: orderCustomerType(doc, order.customerId) },
    );
    if (refusal) throw refuse(`${refusal} Remove it from the order to submit.`);
    const line = totals.lines.find((l) => l.section === 'discount' && l.description === `Promotion ${entry.code}`);
    await tx.insert(orderPromotions).values({
      orderId: order.id,
      customerId: order.customerId,
      storeId: order.storeId,
      promotionId: p.id,
      amountCents: line ? -line.amount_cents : 0,
      currency: order.currency,
      appliedAt: change.now,
    });
  }
}
