import {
  describeBankAccount,
  describeCard,
  type CollectionCardRequest,
  type CurrencyCode,
  type PaymentCollectionView,
} from '@pos/domain';
import { and, asc, desc, eq, inArray } from 'drizzle-orm';
import { billableStoreWhere } from '../../db/billable-stores.sql';
import type { ServiceCtx } from '../../context';
import {
  customerPaymentPlans,
  customers,
  invoiceBalances,
  invoices,
  paymentInstruments,
  stores,
} from '../../db/schema';
import { requireCustomer, viewerOf } from '../../access';
import { AppError } from '../../http/errors';
import { runIdempotent } from '../../http/idempotency';
import { insertInstrument, redeemInstrument } from '../customer-accounts';
import { billingToday } from '../billing';
import { overdueWhere } from '../ledger';

/**
 * What the collection page shows for a payment plan: its customer and store, the past-due invoices (of the plan's
 * store, or the customer's when the plan has none) and the customer's active cards and bank accounts.
 */
export async function viewPaymentCollection(ctx: ServiceCtx, paymentPlanId: number): Promise<PaymentCollectionView> {
  const db = ctx.app.database.db;
  const [plan] = await db
    .select({
      id: customerPaymentPlans.id,
      planName: customerPaymentPlans.planName,
      customerId: customerPaymentPlans.customerId,
      storeId: customerPaymentPlans.storeId,
      customerName: customers.legalName,
      currency: customers.currency,
    })
    .from(customerPaymentPlans)
    .innerJoin(customers, eq(customers.id, customerPaymentPlans.customerId))
    .where(eq(customerPaymentPlans.id, paymentPlanId));
  if (!plan) throw new AppError('not_found', `Payment plan ${paymentPlanId} was not found.`);
  const [store] =
    plan.storeId === null
      ? []
      : await db
          .select({ name: stores.doingBusinessAs, currency: stores.currency })
          .from(stores)
          .where(eq(stores.id, plan.storeId));
  const due = await db
    .select({
      invoice_id: invoices.id,
      invoice_number: invoices.invoiceNumber,
      issued_on: invoices.issuedOn,
      due_on: invoices.dueOn,
      open_cents: invoiceBalances.openCents,
    })
    .from(invoices)
    .innerJoin(invoiceBalances, eq(invoiceBalances.invoiceId, invoices.id))
    .where(
      and(
        eq(invoices.customerId, plan.customerId),
        plan.storeId === null ? undefined : eq(invoices.storeId, plan.storeId),
        overdueWhere(billingToday(ctx.app)),
        // A test or demo store's invoices are never collected (decision 149).
        billableStoreWhere(invoices.storeId),
      ),
    )
    .orderBy(asc(invoices.dueOn), asc(invoices.id))
    .limit(200);
  const pis = await db
    .select()
    .from(paymentInstruments)
    .where(
      and(
        eq(paymentInstruments.customerId, plan.customerId),
        eq(paymentInstruments.status, 'active'),
        inArray(paymentInstruments.kind, ['card', 'bank']),
      ),
    )
    .orderBy(desc(paymentInstruments.isDefault), desc(paymentInstruments.id));
  return {
    payment_plan_id: plan.id,
    plan_name: plan.planName,
    customer_id: plan.customerId,
    customer_name: plan.customerName,
    store_id: plan.storeId,
    store_name: store?.name ?? null,
    currency: (store?.currency ?? plan.currency) as CurrencyCode,
    past_due: due.map((d) => ({ ...d, open_cents: Number(d.open_cents) })),
    instruments: pis.map((p) => ({
      id: p.id,
      description:
        p.kind === 'card' ? describeCard(p.cardBrand, p.cardLast4) : describeBankAccount(p.bankName, p.accountLast4),
      is_default: p.isDefault,
    })),
  };
}

/**
 * A new card for a collection (collect_payment): stored for the plan's customer and store like POST
 * …/paymentinstruments (storeInstrument), but not made the default — the collector charges it, the merchant's
 * default stays.
 */
export async function addCollectionCard(
  ctx: ServiceCtx,
  paymentPlanId: number,
  body: CollectionCardRequest,
  idempotencyKey: string | undefined,
): Promise<{ id: number; description: string }> {
  return runIdempotent(
    ctx,
    {
      route: 'POST /customers/paymentcollection/:planId/card',
      key: idempotencyKey,
      request: { params: { planId: paymentPlanId }, body },
      status: 201,
    },
    {
      // The plan's customer and store, then the card token redeemed — outside any transaction (convention 13).
      outside: async () => {
        const db = ctx.app.database.db;
        const [plan] = await db
          .select({ customerId: customerPaymentPlans.customerId, storeId: customerPaymentPlans.storeId })
          .from(customerPaymentPlans)
          .where(eq(customerPaymentPlans.id, paymentPlanId));
        if (!plan) throw new AppError('not_found', `Payment plan ${paymentPlanId} was not found.`);
        await requireCustomer(db, viewerOf(ctx), plan.customerId);
        const card = { ...body, store_id: plan.storeId, make_default: false };
        return { plan, redeemed: await redeemInstrument(ctx, card) };
      },
      // Not the default: the gateway's customer keeps its default, nothing to tell it after the commit.
      effect: async (tx, now, { plan, redeemed }) => {
        const row = await insertInstrument(tx, ctx, now, plan.customerId, redeemed);
        return { id: row.id, description: describeCard(row.cardBrand, row.cardLast4) };
      },
    },
  );
}
