import {
  BILLING_ITEM_IDS,
  ORDER_STATUS,
  cancellationFee,
  feeLineDescription,
  orderCurrency,
  type OrderForTotals,
  type OrderStatusCode,
} from '@pos/domain';
import { and, eq } from 'drizzle-orm';
import type { AnyServiceCtx } from '../../context';
import type { Db } from '../../db/client';
import { billingItemPrices, billingItems, customers, invoices, stores } from '../../db/schema';
import { writeAudit } from '../../http/audit';
import { createSingleLineInvoice } from './single-invoice';

/**
 * The move of an order as the orders module's status hooks pass it (orders' StatusChange; billing imports no module,
 * so it names only what it reads).
 */
export interface OrderMove {
  order: {
    id: number;
    unifiedOrderId: string;
    orderType?: string | null;
    customerId: number | null;
    storeId: number | null;
    document: unknown;
  };
  from: OrderStatusCode | null;
  to: OrderStatusCode;
  now: Date;
}

interface CancelDocument extends OrderForTotals {
  orderType?: string | null;
  additionalInfo?: { customerID?: unknown } | null;
  StoreInfo?: (OrderForTotals['StoreInfo'] & { customerStoreId?: unknown }) | null;
}

/**
 * The cancellation fee (billing item 91, decision 158), in the transaction of the move to POS Canceled (registered by
 * listeners.ts): the domain's cancellationFee decides — a POS order canceled from Installation or POS Postponed (its
 * contract signed, its hardware shipped), of an existing customer (the order's, or the one its document names, as
 * onboarding finds it), at a billed store, once per order — and its amount is the catalogue's price of item 91 in the
 * store's currency. The fee is a one-line invoice named by the catalogue (createSingleLineInvoice: numbered, due
 * today, no tax; the payment sweep's auto-pay charges it like any due invoice), audited. A cancellation after
 * shipping that bills nothing (a new merchant, a test store, no price) is audited with the reason, for AR.
 */
export async function cancellationFeeEffects(ctx: AnyServiceCtx, tx: Db, move: OrderMove): Promise<void> {
  if (move.to !== ORDER_STATUS.POS_CANCELED) return;
  const doc = (move.order.document ?? {}) as CancelDocument;
  const knownId = move.order.customerId ?? (Number(doc.additionalInfo?.customerID) || null);
  const [customer] = knownId
    ? await tx
        .select({ id: customers.id, currency: customers.currency })
        .from(customers)
        .where(eq(customers.id, knownId))
    : [];
  const storeId = customer ? move.order.storeId || Number(doc.StoreInfo?.customerStoreId) || null : null;
  const [store] =
    customer && storeId
      ? await tx
          .select({ id: stores.id, currency: stores.currency, storeType: stores.storeType })
          .from(stores)
          .where(and(eq(stores.id, storeId), eq(stores.customerId, customer.id)))
      : [];
  const currency = store?.currency ?? customer?.currency ?? orderCurrency(doc);
  const [billed] = await tx
    .select({ id: invoices.id })
    .from(invoices)
    .where(eq(invoices.canceledOrderId, move.order.id));
  const [item] = await tx
    .select({ name: billingItems.name, active: billingItems.active, priceCents: billingItemPrices.priceCents })
    .from(billingItems)
    .leftJoin(
      billingItemPrices,
      and(eq(billingItemPrices.billingItemId, billingItems.id), eq(billingItemPrices.currency, currency)),
    )
    .where(eq(billingItems.id, BILLING_ITEM_IDS.CANCELLATION_FEE));
  const decision = cancellationFee({
    orderType: doc.orderType ?? move.order.orderType,
    from: move.from,
    to: move.to,
    customerId: customer?.id ?? null,
    storeType: store?.storeType ?? null,
    alreadyBilled: billed !== undefined,
    priceCents: item?.active ? (item.priceCents ?? null) : null,
  });
  if (!decision.bill) {
    // Canceled after shipping but nothing billed: say why on the order, so AR sees it (decision 158).
    if (decision.reason === 'no_customer' || decision.reason === 'not_billable' || decision.reason === 'no_price')
      await writeAudit(tx, {
        ...ctx.actor,
        at: move.now,
        action: 'order.cancellation_fee_not_billed',
        entity: 'order',
        entityId: move.order.id,
        after: { reason: decision.reason, unified_order_id: move.order.unifiedOrderId, currency },
        requestId: ctx.requestId,
        customerId: customer?.id ?? null,
      });
    return;
  }
  await createSingleLineInvoice(
    tx,
    {
      customerId: customer!.id,
      storeId: store?.id ?? null,
      currency,
      billingItemId: BILLING_ITEM_IDS.CANCELLATION_FEE,
      description: feeLineDescription(BILLING_ITEM_IDS.CANCELLATION_FEE, item?.name, 'Cancellation fee'),
      amountCents: decision.amountCents,
      reason: 'cancellation_fee',
      auditAfter: { order_id: move.order.id, unified_order_id: move.order.unifiedOrderId, from_status: move.from },
      canceledOrderId: move.order.id,
    },
    move.now,
    ctx.actor,
    ctx.requestId,
  );
}
