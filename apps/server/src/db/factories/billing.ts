import { eq, sql } from 'drizzle-orm';
import { BILLING_ITEM_IDS, BILLING_TERM, OTHER_IDS, type CurrencyCode } from '@pos/domain';
import type { Db } from '../client';
import {
  creditMemos,
  customerBillingItems,
  customerBundles,
  customerPaymentPlans,
  customers,
  invoiceLines,
  invoices,
  paymentInstruments,
  receiptAllocations,
  receipts,
  stores,
  transactions,
  writeOffs,
  type PLAN_KINDS,
} from '../schema';
import { createBundleIfMissing } from './bundles';
import { freezeBundlePricesSql } from '../bundle-prices.sql';
import { ensureBillingItems } from './catalogue';
import { createStore } from './merchants';
import { uniqueDigits, uniqueSuffix } from './sequence';

export type PlanKind = (typeof PLAN_KINDS)[number];
export type PaymentPlanRow = typeof customerPaymentPlans.$inferSelect;
export type NewPaymentPlan = typeof customerPaymentPlans.$inferInsert;
export type InvoiceRow = typeof invoices.$inferSelect;
export type NewInvoice = typeof invoices.$inferInsert;
export type InvoiceLineRow = typeof invoiceLines.$inferSelect;
export type TransactionRow = typeof transactions.$inferSelect;
export type NewTransaction = typeof transactions.$inferInsert;
export type CreditMemoRow = typeof creditMemos.$inferSelect;

/** §9 payment plan type id and billing term of each plan kind. */
export const PLAN_KIND_DEFAULTS: Readonly<
  Record<PlanKind, { paymentPlanTypeId: number; planName: string; term: number; interval: number }>
> = {
  hardware_sale: {
    paymentPlanTypeId: OTHER_IDS.UPFRONT_PAYMENT_PLAN_ID,
    planName: 'Hardware sale plan',
    term: 0,
    interval: 0,
  },
  monthly: {
    paymentPlanTypeId: OTHER_IDS.MONTHLY_PLAN_ID,
    planName: 'Monthly plan',
    term: BILLING_TERM.MONTHLY,
    interval: BILLING_TERM.MONTHLY,
  },
  yearly: {
    paymentPlanTypeId: OTHER_IDS.YEARLY_PLAN_ID,
    planName: 'Yearly plan',
    term: BILLING_TERM.YEARLY,
    interval: BILLING_TERM.YEARLY,
  },
  credit_memo: {
    paymentPlanTypeId: OTHER_IDS.CREDIT_MEMO_PAYMENT_PLAN_ID,
    planName: 'Credit memo plan',
    term: 0,
    interval: 0,
  },
  due_amount: {
    paymentPlanTypeId: OTHER_IDS.DUE_AMOUNT_PAYMENT_PLAN_ID,
    planName: 'Due amount plan',
    term: 0,
    interval: 0,
  },
};

export function isoDate(d: Date): string {
  return d.toISOString().slice(0, 10);
}

/** The customer and store a billing row belongs to: given, taken from the store, or a new store. */
async function owner(
  db: Db,
  input: { customerId?: number; storeId?: number | null },
): Promise<{ customerId: number; storeId: number | null; currency: CurrencyCode }> {
  if (input.storeId != null) {
    const [s] = await db
      .select({ customerId: stores.customerId, currency: stores.currency })
      .from(stores)
      .where(eq(stores.id, input.storeId));
    return {
      customerId: input.customerId ?? s?.customerId ?? 0,
      storeId: input.storeId,
      currency: (s?.currency ?? 'USD') as CurrencyCode,
    };
  }
  if (input.customerId !== undefined) {
    const [c] = await db
      .select({ currency: customers.currency })
      .from(customers)
      .where(eq(customers.id, input.customerId));
    return { customerId: input.customerId, storeId: null, currency: (c?.currency ?? 'USD') as CurrencyCode };
  }
  const store = await createStore(db);
  return { customerId: store.customerId, storeId: store.id, currency: store.currency as CurrencyCode };
}

/** A payment plan (default monthly, $79/month) for a store; kind decides the §9 type id, term and interval. */
export async function createPaymentPlan(
  db: Db,
  overrides: Partial<NewPaymentPlan> & { kind?: PlanKind } = {},
): Promise<PaymentPlanRow> {
  const kind = overrides.kind ?? 'monthly';
  const o = await owner(db, overrides);
  const zero = kind === 'credit_memo' || kind === 'due_amount';
  const [row] = await db
    .insert(customerPaymentPlans)
    .values({
      ...PLAN_KIND_DEFAULTS[kind],
      initialAmountCents: zero ? 0 : kind === 'hardware_sale' ? 1499_00 : 0,
      recurringAmountCents: zero || kind === 'hardware_sale' ? 0 : kind === 'yearly' ? 799_00 : 79_00,
      currency: o.currency,
      startsOn: isoDate(new Date()),
      ...overrides,
      kind,
      customerId: o.customerId,
      storeId: o.storeId,
    })
    .returning();
  return row!;
}

export async function createCustomerBillingItem(
  db: Db,
  overrides: Partial<typeof customerBillingItems.$inferInsert> = {},
): Promise<typeof customerBillingItems.$inferSelect> {
  const o = await owner(db, overrides);
  const billingItemId = overrides.billingItemId ?? BILLING_ITEM_IDS.MONTHLY_SERVICE_FEE;
  await ensureBillingItems(db, [billingItemId]);
  const [row] = await db
    .insert(customerBillingItems)
    .values({
      unitPriceCents: 79_00,
      currency: o.currency,
      startsOn: isoDate(new Date()),
      ...overrides,
      billingItemId,
      customerId: o.customerId,
      storeId: o.storeId,
    })
    .returning();
  return row!;
}

export async function createCustomerBundle(
  db: Db,
  overrides: Partial<typeof customerBundles.$inferInsert> = {},
): Promise<typeof customerBundles.$inferSelect> {
  const o = await owner(db, overrides);
  const storeId = o.storeId ?? (await createStore(db, { customerId: o.customerId })).id;
  const bundleId = overrides.bundleId ?? 2;
  await createBundleIfMissing(db, bundleId);
  const [row] = await db
    .insert(customerBundles)
    .values({ startsOn: isoDate(new Date()), ...overrides, bundleId, customerId: o.customerId, storeId })
    .returning();
  // Sold at today's price: the bundle's monthly price options in the plan's currency (decision 126).
  await db.execute(freezeBundlePricesSql([row!.id]));
  return row!;
}

/** A payment instrument: default a card (brand, last4, expiry, processor reference — never a number). */
export async function createPaymentInstrument(
  db: Db,
  overrides: Partial<typeof paymentInstruments.$inferInsert> = {},
): Promise<typeof paymentInstruments.$inferSelect> {
  const o = await owner(db, overrides);
  const kind = overrides.kind ?? 'card';
  const last4 = uniqueDigits(4);
  const values =
    kind === 'card'
      ? {
          cardBrand: 'visa',
          cardLast4: last4,
          cardExpMonth: 12,
          cardExpYear: new Date().getUTCFullYear() + 3,
          processorReference: `pm_${uniqueSuffix()}`,
        }
      : kind === 'bank'
        ? {
            bankName: 'Demo Bank',
            routingNumber: '021000021',
            accountNumberEncrypted: `demo:${last4}`,
            accountLast4: last4,
            accountType: 'checking',
          }
        : {};
  const [row] = await db
    .insert(paymentInstruments)
    .values({
      nameOnAccount: 'Demo Merchant',
      isDefault: true,
      ...values,
      ...overrides,
      kind,
      customerId: o.customerId,
      storeId: o.storeId,
    })
    .returning();
  return row!;
}

export interface InvoiceLineInput {
  billingItemId: number;
  description?: string;
  quantity?: number;
  unitCents: number;
}

/**
 * An invoice with lines. Default: one monthly service fee line of $79 (type M, status N). The total is the sum
 * of the lines plus taxCents unless totalCents is given.
 */
export async function createInvoice(
  db: Db,
  overrides: Partial<NewInvoice> & { lines?: InvoiceLineInput[] } = {},
): Promise<InvoiceRow & { lines: InvoiceLineRow[] }> {
  const { lines: lineInput, ...values } = overrides;
  const o = await owner(db, values);
  const lines = lineInput ?? [
    { billingItemId: BILLING_ITEM_IDS.MONTHLY_SERVICE_FEE, description: 'Monthly service fee', unitCents: 79_00 },
  ];
  await ensureBillingItems(
    db,
    lines.map((l) => l.billingItemId),
  );
  const taxCents = values.taxCents ?? 0;
  const linesTotal = lines.reduce((s, l) => s + l.unitCents * (l.quantity ?? 1), 0);
  const issued = values.issuedOn ?? isoDate(new Date());
  const due = values.dueOn ?? isoDate(new Date(Date.parse(issued) + 14 * 86_400_000));
  const [row] = await db
    .insert(invoices)
    .values({
      invoiceNumber: `INV-${uniqueSuffix()}`,
      type: 'M',
      status: 'N',
      currency: o.currency,
      ...values,
      issuedOn: issued,
      dueOn: due,
      taxCents,
      totalCents: values.totalCents ?? linesTotal + taxCents,
      // The ledger's open balance of an invoice with nothing against it but the stored paid figure (decision 137).
      openCents:
        values.openCents ??
        ((values.status ?? 'N') === 'N' && !values.reversedAt
          ? (values.totalCents ?? linesTotal + taxCents) - (values.paidCents ?? 0)
          : 0),
      customerId: o.customerId,
      storeId: o.storeId,
    })
    .returning();
  const inserted = await db
    .insert(invoiceLines)
    .values(
      lines.map((l) => ({
        invoiceId: row!.id,
        billingItemId: l.billingItemId,
        description: l.description ?? `Billing item ${l.billingItemId}`,
        quantity: l.quantity ?? 1,
        unitCents: l.unitCents,
        amountCents: l.unitCents * (l.quantity ?? 1),
      })),
    )
    .returning();
  return { ...row!, lines: inserted };
}

/**
 * The invoice's stored open_cents and written_off_cents as the ledger derives them (decision 137), after a factory
 * wrote a row that counts for it — what ledger.syncInvoice does in the services. paid_cents and status stay as they
 * were (tests set them, or leave them stale for the ledger check to find).
 */
export async function syncOpenFigures(db: Db, invoiceId: number): Promise<void> {
  await db.execute(sql`update invoices i set open_cents = b.open_cents, written_off_cents = b.written_off_cents
    from invoice_balances b where b.invoice_id = i.id and i.id = ${invoiceId}`);
}

/** A transaction (default a successful $79 charge); a failed one gets a failure reason unless given. */
export async function createTransaction(db: Db, overrides: Partial<NewTransaction> = {}): Promise<TransactionRow> {
  let { customerId, storeId } = overrides;
  let currency = overrides.currency;
  let amount = overrides.amountCents;
  if (overrides.invoiceId != null && (customerId === undefined || amount === undefined)) {
    const [inv] = await db.select().from(invoices).where(eq(invoices.id, overrides.invoiceId));
    if (inv) {
      customerId ??= inv.customerId;
      storeId ??= inv.storeId;
      currency ??= inv.currency;
      amount ??= inv.totalCents;
    }
  }
  const o = await owner(db, { customerId, storeId });
  const status = overrides.status ?? 'S';
  const [row] = await db
    .insert(transactions)
    .values({
      kind: 'charge',
      gatewayReference: `ch_${uniqueSuffix()}`,
      failureReason: status === 'F' ? 'Insufficient funds' : null,
      settledAt: status === 'S' ? new Date() : null,
      ...overrides,
      status,
      amountCents: amount ?? 79_00,
      currency: currency ?? o.currency,
      customerId: o.customerId,
      storeId: o.storeId,
    })
    .returning();
  if (row!.invoiceId != null) await syncOpenFigures(db, row!.invoiceId);
  return row!;
}

/** A credit memo (default a pending $25 credit). A decided one (A/R) gets decidedAt and the approver. */
export async function createCreditMemo(
  db: Db,
  overrides: Partial<typeof creditMemos.$inferInsert> = {},
): Promise<CreditMemoRow> {
  const o = await owner(db, overrides);
  const status = overrides.status ?? 'P';
  const [row] = await db
    .insert(creditMemos)
    .values({
      type: 'C',
      amountCents: 25_00,
      currency: o.currency,
      reason: 'Service outage credit',
      createdByEmail: 'service@example.com',
      approvedByEmail: status === 'P' ? null : 'ar@example.com',
      decidedAt: status === 'P' ? null : new Date(),
      ...overrides,
      status,
      customerId: o.customerId,
      storeId: o.storeId,
    })
    .returning();
  if (row!.invoiceId != null) await syncOpenFigures(db, row!.invoiceId);
  return row!;
}

export async function createReceipt(
  db: Db,
  overrides: Partial<typeof receipts.$inferInsert> = {},
): Promise<typeof receipts.$inferSelect> {
  const o = await owner(db, { customerId: overrides.customerId });
  const amount = overrides.amountCents ?? 100_00;
  const [row] = await db
    .insert(receipts)
    .values({
      amountCents: amount,
      unappliedCents: amount,
      currency: o.currency,
      method: 'check',
      reference: `CHK-${uniqueDigits(6)}`,
      receivedOn: isoDate(new Date()),
      createdByEmail: 'ar@example.com',
      ...overrides,
      customerId: o.customerId,
    })
    .returning();
  return row!;
}

/**
 * A receipt allocation: part of a receipt applied to an invoice (default the whole receipt). The receipt's
 * unapplied_cents goes down by the amount, as the apply-receipt call does.
 */
export async function createReceiptAllocation(
  db: Db,
  input: { receiptId: number; invoiceId: number; amountCents?: number; allocatedByEmail?: string },
): Promise<typeof receiptAllocations.$inferSelect> {
  const [r] = await db.select().from(receipts).where(eq(receipts.id, input.receiptId));
  if (!r) throw new Error(`createReceiptAllocation: receipt ${input.receiptId} does not exist`);
  const amount = input.amountCents ?? r.unappliedCents;
  const [row] = await db
    .insert(receiptAllocations)
    .values({
      receiptId: input.receiptId,
      invoiceId: input.invoiceId,
      amountCents: amount,
      allocatedByEmail: input.allocatedByEmail ?? 'ar@example.com',
    })
    .returning();
  await db
    .update(receipts)
    .set({ unappliedCents: r.unappliedCents - amount })
    .where(eq(receipts.id, input.receiptId));
  if (row!.invoiceId != null) await syncOpenFigures(db, row!.invoiceId);
  return row!;
}

/** A write-off of an invoice (default type 142, the invoice's total). */
export async function createWriteOff(
  db: Db,
  overrides: Partial<typeof writeOffs.$inferInsert> & { invoiceId: number },
): Promise<typeof writeOffs.$inferSelect> {
  const [inv] = await db.select().from(invoices).where(eq(invoices.id, overrides.invoiceId));
  if (!inv) throw new Error(`createWriteOff: invoice ${overrides.invoiceId} does not exist`);
  const [row] = await db
    .insert(writeOffs)
    .values({
      customerId: inv.customerId,
      type: 142,
      amountCents: inv.totalCents,
      currency: inv.currency,
      reason: 'Small balance written off after collection attempts',
      createdByEmail: 'ar@example.com',
      ...overrides,
    })
    .returning();
  if (row!.invoiceId != null) await syncOpenFigures(db, row!.invoiceId);
  return row!;
}
