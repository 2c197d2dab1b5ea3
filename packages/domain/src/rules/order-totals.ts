import { z } from 'zod';
import { BILLING_ITEM_IDS, FEES, NRS_PAY_BUNDLE_IDS, OTHER_IDS } from '../codes/billing';
import type { CurrencyCode } from '../codes/currencies';
import { ORDER_TYPE, PAYMENT_PLAN_KIND } from '../codes/order';
import { AUTHORIZATION_TOLERANCE_PERCENT } from '../limits';
import { orderEntryUnitCents } from './fees';
import { toCents } from './money';

/*
 * The lines of an order document and their totals (decision 101): one function used by the order flow's summary
 * step, the contract PDF and onboarding, so the merchant signs the figures the rep saw.
 *
 * The document keeps money as decimal strings (decision 014). The list entries the order flow writes:
 *   BillingItemInfo: { billingItemId, productId?, name, quantity, unitPrice: '499.00', recurring?: boolean }
 *   BundleInfo:      { bundleId, name, quantity, unitPrice: '0.00', monthlyPrice?: '49.00', nrsPay?: boolean,
 *                      priceOptionId? }
 *   PromotionInfo:   { promoId, code, name, method: 'A' | 'P', amount?: '25.00', percent?: number }
 * Entries written by other clients may carry more keys; unknown or malformed entries count as zero.
 */

const decimal = z.string().regex(/^\d{1,13}(\.\d{1,2})?$/);
const qty = z.number().int().min(0).max(9999);

export const orderBillingItemEntry = z.looseObject({
  billingItemId: z.number().int(),
  productId: z.number().int().nullish(),
  name: z.string().max(255),
  quantity: qty,
  unitPrice: decimal,
  recurring: z.boolean().nullish(),
});
export type OrderBillingItemEntry = z.infer<typeof orderBillingItemEntry>;

export const orderBundleEntry = z.looseObject({
  bundleId: z.number().int(),
  name: z.string().max(255),
  quantity: qty,
  unitPrice: decimal,
  monthlyPrice: decimal.nullish(),
  nrsPay: z.boolean().nullish(),
  priceOptionId: z.number().int().nullish(),
});
export type OrderBundleEntry = z.infer<typeof orderBundleEntry>;

export const orderPromotionEntry = z.looseObject({
  promoId: z.number().int(),
  code: z.string().max(50),
  name: z.string().max(255),
  method: z.enum(['A', 'P']),
  amount: decimal.nullish(),
  percent: z.number().min(0).max(100).nullish(),
});
export type OrderPromotionEntry = z.infer<typeof orderPromotionEntry>;

export interface OrderLine {
  readonly section: 'hardware' | 'plan' | 'charge' | 'discount' | 'tax';
  readonly description: string;
  readonly quantity: number;
  /** The line's amount (quantity × unit), negative for discounts. */
  readonly amount_cents: number;
}

export interface OrderTotals {
  readonly currency: CurrencyCode;
  /** One-time lines (hardware, bundles, one-time charges), then discounts and tax. */
  readonly lines: OrderLine[];
  readonly subtotalCents: number;
  readonly discountCents: number;
  readonly taxCents: number;
  /** What the merchant owes for the sale: max(0, subtotal − discount) + tax. */
  readonly totalCents: number;
  /** The recurring charge per interval (monthly/yearly plan + recurring items + bundle monthly prices). */
  readonly recurringCents: number;
  /** Months between recurring charges: 1 (monthly plan) or 12 (yearly plan). */
  readonly recurringIntervalMonths: 1 | 12;
  /** Installments of the hardware plan, when it is not paid upfront: count and amount each (interest included). */
  readonly installments: {
    readonly count: number;
    readonly amountCents: number;
    readonly interestCents: number;
  } | null;
}

/** The subset of the order document the totals read (any OrderDocument fits). */
export interface OrderForTotals {
  readonly orderType?: string | null;
  readonly additionalDiscount?: unknown;
  readonly BillingItemInfo?: readonly unknown[] | null;
  readonly BundleInfo?: readonly unknown[] | null;
  readonly PromotionInfo?: readonly unknown[] | null;
  readonly PaymentPlanInfo?:
    | readonly {
        type?: string | null;
        paymentPlanId?: unknown;
        recurringAmount?: string | null;
        term?: number | null;
      }[]
    | null;
  readonly HomeAddress?: { country?: string | null } | null;
  readonly StoreInfo?: { StoreAddress?: { country?: string | null } | null } | null;
}

const cents = (v: string | null | undefined): number => {
  if (v == null || v.trim() === '') return 0;
  try {
    return Math.max(0, toCents(v));
  } catch {
    return 0;
  }
};

/** The order's currency: CAD when the store (or, without one, the merchant's home) is in Canada. */
export function orderCurrency(doc: OrderForTotals): CurrencyCode {
  const country = doc.StoreInfo?.StoreAddress?.country || doc.HomeAddress?.country || 'US';
  return country === 'CA' ? 'CAD' : 'USD';
}

function entries<T>(list: readonly unknown[] | null | undefined, schema: z.ZodType<T>): T[] {
  const out: T[] = [];
  for (const e of list ?? []) {
    const parsed = schema.safeParse(e);
    if (parsed.success) out.push(parsed.data);
  }
  return out;
}

/** Whether the order sells an NRS Pay bundle (its signed contract goes to the NRS Pay approval queue). */
export function orderHasNrsPayBundle(
  doc: OrderForTotals,
  nrsPayBundleIds: readonly number[] = NRS_PAY_BUNDLE_IDS,
): boolean {
  return entries(doc.BundleInfo, orderBundleEntry).some(
    (b) => b.nrsPay === true || nrsPayBundleIds.includes(b.bundleId),
  );
}

/**
 * Lines and totals of an order document. `taxCents` comes from POST /api/customers/taxes/fetch (the store's
 * state/province rate); without it the tax line is 0.
 */
export function orderTotals(doc: OrderForTotals, taxCents = 0): OrderTotals {
  const currency = orderCurrency(doc);
  const lines: OrderLine[] = [];
  let recurringCents = 0;

  for (const item of entries(doc.BillingItemInfo, orderBillingItemEntry)) {
    // As sold; a marketplace listing sold without a price at §9's fee (decision 158).
    const amount = item.quantity * orderEntryUnitCents(item.billingItemId, cents(item.unitPrice));
    if (item.recurring) {
      recurringCents += amount;
      continue;
    }
    const hardware = item.productId != null || item.billingItemId === OTHER_IDS.TERMINAL_PRODUCT_ID;
    lines.push({
      section: hardware ? 'hardware' : 'charge',
      description: item.name,
      quantity: item.quantity,
      amount_cents: amount,
    });
  }
  for (const bundle of entries(doc.BundleInfo, orderBundleEntry)) {
    lines.push({
      section: 'hardware',
      description: bundle.name,
      quantity: bundle.quantity,
      amount_cents: bundle.quantity * cents(bundle.unitPrice),
    });
    recurringCents += bundle.quantity * cents(bundle.monthlyPrice);
  }
  const subtotalCents = lines.reduce((sum, l) => sum + l.amount_cents, 0);

  let discountCents = 0;
  for (const promo of entries(doc.PromotionInfo, orderPromotionEntry)) {
    const off = promo.method === 'P' ? Math.round((subtotalCents * (promo.percent ?? 0)) / 100) : cents(promo.amount);
    if (off > 0) {
      lines.push({ section: 'discount', description: `Promotion ${promo.code}`, quantity: 1, amount_cents: -off });
      discountCents += off;
    }
  }
  const extra = additionalDiscountCents(doc.additionalDiscount, subtotalCents);
  if (extra > 0) {
    lines.push({ section: 'discount', description: 'Additional discount', quantity: 1, amount_cents: -extra });
    discountCents += extra;
  }
  discountCents = Math.min(discountCents, subtotalCents);
  const tax = Math.max(0, Math.round(taxCents));
  if (tax > 0) lines.push({ section: 'tax', description: 'Sales tax', quantity: 1, amount_cents: tax });
  const totalCents = subtotalCents - discountCents + tax;

  const plans = doc.PaymentPlanInfo ?? [];
  const monthly = plans.find((p) => p.type === PAYMENT_PLAN_KIND.MONTHLY);
  recurringCents += cents(monthly?.recurringAmount ?? null);
  const recurringIntervalMonths = Number(monthly?.paymentPlanId) === OTHER_IDS.YEARLY_PLAN_ID ? 12 : 1;

  const hardwarePlan = doc.orderType === 'N' ? undefined : plans.find((p) => p.type === PAYMENT_PLAN_KIND.HARDWARE);
  const term = hardwarePlan?.term ?? 0;
  const upfront =
    hardwarePlan == null || Number(hardwarePlan.paymentPlanId) === OTHER_IDS.UPFRONT_PAYMENT_PLAN_ID || term <= 1;
  const installments = upfront ? null : installmentPlan(totalCents, term);

  return {
    currency,
    lines,
    subtotalCents,
    discountCents,
    taxCents: tax,
    totalCents,
    recurringCents,
    recurringIntervalMonths,
    installments,
  };
}

/**
 * What the merchant pays upfront for the order (decision 142): a POS order's hardware sale paid upfront — its total
 * after discounts plus `saleTaxCents`, the sale's tax by the one tax rule (decision 127) — which onboarding puts on the
 * hardware plan as its initial amount. Nothing for installments (the billing run bills each one, taxed on its own day)
 * nor for a non-POS order (its items are billed with the service plan).
 */
export function orderUpfrontCents(doc: OrderForTotals, saleTaxCents: number): number {
  if ((doc.orderType ?? ORDER_TYPE.POS) !== ORDER_TYPE.POS) return 0;
  const totals = orderTotals(doc);
  return totals.installments ? 0 : totals.totalCents + Math.max(0, Math.round(saleTaxCents));
}

/** One line of an order's sale invoice (decision 148): the billing item it is booked under, its quantity and amounts. */
export interface SaleInvoiceLine {
  /** The order line's own billing item (a product, shipping, …); a bundle is OTHER_CHARGES, a discount DISCOUNT, tax TAX. */
  readonly billingItemId: number;
  readonly description: string;
  readonly quantity: number;
  readonly unitCents: number;
  /** quantity × unit; negative for a promotion or discount. */
  readonly amountCents: number;
}

/**
 * The lines of the sale invoice (type S) of a POS order paid upfront (issue 29 item 2, decision 148): one per product
 * and one-time charge (shipping included), one per bundle's one-time price, one per promotion and the additional
 * discount (negative; together never more than the subtotal, as orderTotals caps them), and the tax as its own single
 * line named `taxLabel`. They add up to orderUpfrontCents(doc, saleTaxCents). Nothing for installments or a non-POS
 * order (the billing run bills those). Zero lines are left out.
 */
export function orderSaleInvoiceLines(
  doc: OrderForTotals,
  saleTaxCents: number,
  taxLabel = 'Sales tax',
): SaleInvoiceLine[] {
  if (orderUpfrontCents(doc, saleTaxCents) <= 0) return [];
  const lines: SaleInvoiceLine[] = [];
  for (const item of entries(doc.BillingItemInfo, orderBillingItemEntry)) {
    if (item.recurring || item.quantity <= 0) continue;
    const unit = orderEntryUnitCents(item.billingItemId, cents(item.unitPrice));
    if (unit === 0) continue;
    lines.push({
      billingItemId: item.billingItemId,
      description: item.name,
      quantity: item.quantity,
      unitCents: unit,
      amountCents: item.quantity * unit,
    });
  }
  for (const bundle of entries(doc.BundleInfo, orderBundleEntry)) {
    const unit = cents(bundle.unitPrice);
    if (bundle.quantity <= 0 || unit === 0) continue;
    lines.push({
      billingItemId: BILLING_ITEM_IDS.OTHER_CHARGES,
      description: bundle.name,
      quantity: bundle.quantity,
      unitCents: unit,
      amountCents: bundle.quantity * unit,
    });
  }
  // The discounts as orderTotals lists them, capped together at the subtotal.
  const totals = orderTotals(doc);
  let room = totals.subtotalCents;
  for (const d of totals.lines) {
    if (d.section !== 'discount') continue;
    const off = Math.min(-d.amount_cents, room);
    if (off <= 0) continue;
    room -= off;
    lines.push({
      billingItemId: BILLING_ITEM_IDS.DISCOUNT,
      description: d.description,
      quantity: 1,
      unitCents: -off,
      amountCents: -off,
    });
  }
  const tax = Math.max(0, Math.round(saleTaxCents));
  if (tax > 0)
    lines.push({
      billingItemId: BILLING_ITEM_IDS.TAX,
      description: taxLabel,
      quantity: 1,
      unitCents: tax,
      amountCents: tax,
    });
  return lines;
}

/** The most a card hold for an order may be: its upfront total with tax, plus AUTHORIZATION_TOLERANCE_PERCENT. */
export function authorizationCeilingCents(upfrontCents: number): number {
  return upfrontCents + Math.ceil((Math.max(0, upfrontCents) * AUTHORIZATION_TOLERANCE_PERCENT) / 100);
}

/** Installments of `totalCents` over `count` payments with the §9 interest (5 %); the last one takes the rounding. */
export function installmentPlan(
  totalCents: number,
  count: number,
): { count: number; amountCents: number; interestCents: number } {
  const interestCents = Math.round((totalCents * FEES.INSTALLMENT_INTEREST_PERCENT) / 100);
  const amountCents = Math.ceil((totalCents + interestCents) / Math.max(1, count));
  return { count, amountCents, interestCents };
}

function additionalDiscountCents(value: unknown, subtotalCents: number): number {
  if (typeof value === 'string') return cents(value);
  if (value && typeof value === 'object') {
    const v = value as { type?: unknown; value?: unknown };
    if (v.type === 'percent' && typeof v.value === 'number')
      return Math.round((subtotalCents * Math.min(100, Math.max(0, v.value))) / 100);
    if (v.type === 'amount' && typeof v.value === 'string') return cents(v.value);
  }
  return 0;
}

/**
 * The promotion rewards of an order (issue 29 item 7, decision 152): the part of its promotions that the order's own
 * one-time lines could not take — orderTotals takes promotions off the subtotal first, at most the subtotal, so a
 * promotion on a service-only order, or one worth more than the hardware, would otherwise be lost. Each is credited
 * to the merchant when the order completes: a line of a type B credit invoice (negative, under Discount) and a credit
 * memo for AR to approve. Zero lines are left out.
 */
export function orderPromotionRewards(doc: OrderForTotals): SaleInvoiceLine[] {
  const { subtotalCents } = orderTotals(doc);
  let room = subtotalCents;
  const rewards: SaleInvoiceLine[] = [];
  for (const promo of entries(doc.PromotionInfo, orderPromotionEntry)) {
    const off = promo.method === 'P' ? Math.round((subtotalCents * (promo.percent ?? 0)) / 100) : cents(promo.amount);
    if (off <= 0) continue;
    const taken = Math.min(off, room);
    room -= taken;
    const left = off - taken;
    if (left > 0)
      rewards.push({
        billingItemId: BILLING_ITEM_IDS.DISCOUNT,
        description: `Promotion ${promo.code} (reward)`,
        quantity: 1,
        unitCents: -left,
        amountCents: -left,
      });
  }
  return rewards;
}
