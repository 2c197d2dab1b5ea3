import { orderPromotionRewards, type OrderDocument } from '@pos/domain';
import type { AnyServiceCtx } from '../../context';
import type { Db } from '../../db/client';
import { creditMemos } from '../../db/schema';
import { writeAudit } from '../../http/audit';
import { insertCreditInvoice } from '../billing';

/**
 * The promotion rewards of a completed order (issue 29 item 7, decision 152), in the transaction of the move to
 * Complete: what of its promotions the order's own lines could not take (domain orderPromotionRewards) is credited to
 * the merchant — a credit memo (type C, on account, pending: AR approves it under the same limits and four-eyes rule
 * as every credit; only then does money move) and the type B credit invoice with its credit lines that documents it.
 * Nothing for a test or demo store (decision 149) or when every promotion was taken off the sale.
 */
export async function creditPromotionRewards(
  ctx: AnyServiceCtx,
  tx: Db,
  input: {
    doc: OrderDocument;
    orderId: number;
    unifiedOrderId: string;
    customerId: number;
    storeId: number;
    currency: string;
    issuedOn: string;
  },
  now: Date,
): Promise<void> {
  const lines = orderPromotionRewards(input.doc);
  if (lines.length === 0) return;
  const totalCents = lines.reduce((sum, l) => sum + l.amountCents, 0);
  const reason = `Promotion rewards of order ${input.unifiedOrderId}: ${lines.map((l) => l.description.replace(/^Promotion | \(reward\)$/g, '')).join(', ')}`;
  const createdBy = ctx.actor.actorEmail ?? 'system';
  const [memo] = await tx
    .insert(creditMemos)
    .values({
      customerId: input.customerId,
      storeId: input.storeId,
      invoiceId: null,
      type: 'C',
      status: 'P',
      amountCents: -totalCents,
      currency: input.currency,
      reason,
      createdByEmail: createdBy,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  await writeAudit(tx, {
    ...ctx.actor,
    at: now,
    action: 'create',
    entity: 'credit_memo',
    entityId: memo!.id,
    customerId: input.customerId,
    after: {
      customer_id: input.customerId,
      invoice_id: null,
      type: 'C',
      status: 'P',
      amount_cents: memo!.amountCents,
      currency: input.currency,
      reason,
      order_id: input.orderId,
    },
    requestId: ctx.requestId,
  });
  await insertCreditInvoice(
    tx,
    {
      type: 'B',
      customerId: input.customerId,
      storeId: input.storeId,
      currency: input.currency,
      issuedOn: input.issuedOn,
      reason,
      createdByEmail: createdBy,
      orderId: input.orderId,
      creditMemoId: memo!.id,
      totalCents,
      taxCents: 0,
      lines,
    },
    now,
    ctx.actor,
    ctx.requestId,
  );
}
