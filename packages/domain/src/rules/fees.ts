import { BILLING_ITEM_IDS, FEES, MARKETPLACE_FEE_ITEM_IDS, isMarketplaceFeeItemId } from '../codes/billing';
import { currencyForCountry, type CurrencyCode } from '../codes/currencies';
import { ORDER_TYPE } from '../codes/order';
import { ORDER_STATUS, type OrderStatusCode } from '../codes/order-status';
import { isBillableStoreType } from '../codes/sales';
import { isStateOf } from '../codes/states';
import { toCents } from './money';

/*
 * The fees of §9 (decision 158): one rule per fee — whether it applies and how much — and one naming rule: a fee's
 * invoice line is described by its billing item's name in the catalogue.
 *
 *  - market fee (19): a monthly fee per store in the markets (state / province) the provider configures (MARKET_FEES),
 *    on the store's service invoice; off unless configured; never twice when the plan already sells one.
 *  - shipping (20): a one-time charge of the order, on the sale (S) invoice at Complete, at the price the merchant
 *    signed for, taxed with the sale.
 *  - restocking fee (28): kept on a return (250.00 unless waived, at most the terminals' value); the return's credit
 *    invoice shows it as its own line beside the terminals credited.
 *  - cancellation fee (91): an existing customer's POS order canceled at or after Installation (contract signed,
 *    hardware shipped) is billed the catalogue's price of item 91 in its currency, once per order.
 *  - marketplace fees (113, 114, 115; default 113): an order's marketplace listing, priced as sold, at §9's 141.00
 *    when sold without a price; one-time on the S invoice, recurring on the service invoice.
 */

/** The fee items of §9: their invoice lines are named by the catalogue (feeLineDescription). */
export const SPEC_FEE_ITEM_IDS: readonly number[] = [
  BILLING_ITEM_IDS.MARKET_FEE,
  BILLING_ITEM_IDS.SHIPPING,
  BILLING_ITEM_IDS.RESTOCKING_FEE,
  BILLING_ITEM_IDS.CANCELLATION_FEE,
  ...MARKETPLACE_FEE_ITEM_IDS,
];

/** The names a fee line takes when the catalogue lacks its item (the catalogue's own names otherwise). */
export const SPEC_FEE_ITEM_NAMES: Readonly<Record<number, string>> = {
  [BILLING_ITEM_IDS.MARKET_FEE]: 'Market fee',
  [BILLING_ITEM_IDS.SHIPPING]: 'Shipping',
  [BILLING_ITEM_IDS.RESTOCKING_FEE]: 'Restocking fee',
  [BILLING_ITEM_IDS.CANCELLATION_FEE]: 'Cancellation fee',
  113: 'Marketplace fee',
  114: 'Marketplace fee',
  115: 'Marketplace fee',
};

export function isFeeItemId(billingItemId: number): boolean {
  return SPEC_FEE_ITEM_IDS.includes(billingItemId);
}

/**
 * The description of an invoice line: a fee item's line reads as the catalogue names the item ("Shipping",
 * "Restocking fee", "Marketplace fee - premium listing"), whatever the order or the writer called it; without a
 * catalogue name, the fee's own name. Any other line keeps its description (a product's name, a bundle's).
 */
export function feeLineDescription(
  billingItemId: number,
  catalogueName: string | null | undefined,
  description: string,
): string {
  if (!isFeeItemId(billingItemId)) return description;
  const name = catalogueName?.trim();
  return name || SPEC_FEE_ITEM_NAMES[billingItemId] || description;
}

/** A fee or credit line of an invoice (the shape of SaleInvoiceLine). */
export interface FeeLine {
  readonly billingItemId: number;
  readonly description: string;
  readonly quantity: number;
  readonly unitCents: number;
  readonly amountCents: number;
}

// ── Marketplace fees (113, 114, 115) and shipping (20): what an order line is billed at ───────────────────

/**
 * The unit price an order's billing-item entry is billed at (orderTotals, the sale invoice, the customer's billing
 * items): what it was sold for; a marketplace listing (113–115) sold without a price at §9's marketplace fee
 * (141.00, read as an amount in the order's currency like the other §9 fees) — a listing is never given away by a
 * blank price. Shipping and every other line: as sold.
 */
export function orderEntryUnitCents(billingItemId: number, soldUnitCents: number): number {
  const sold = Math.max(0, Math.round(soldUnitCents));
  if (isMarketplaceFeeItemId(billingItemId) && sold === 0) return FEES.MARKETPLACE_FEE_CENTS;
  return sold;
}

// ── Restocking fee (28) ─────────────────────────────────────────────────────────────────────────────────────

/** A return's restocking fee: §9's 250.00 unless waived, never more than the terminals' value (so no credit < 0). */
export function restockingFeeCents(input: { readonly valueCents: number; readonly waived: boolean }): number {
  if (input.waived) return 0;
  return Math.max(0, Math.min(FEES.RESTOCKING_FEE_CENTS, input.valueCents));
}

/**
 * The lines of a return's credit invoice: the terminals credited (negative, one line per item, name and price, with
 * its quantity) and the restocking fee kept as its own positive line named `feeName` (the catalogue's name of item
 * 28). They add up to −(value − fee): the credit the return's credit memo posts. No fee, no fee line.
 */
export function returnCreditLines(input: {
  readonly terminals: readonly {
    readonly billingItemId: number;
    readonly description: string;
    readonly unitCents: number;
  }[];
  readonly feeCents: number;
  readonly feeName?: string | null;
}): FeeLine[] {
  const groups = new Map<string, { billingItemId: number; description: string; unitCents: number; quantity: number }>();
  for (const t of input.terminals) {
    const key = `${t.billingItemId}\u0000${t.description}\u0000${t.unitCents}`;
    const g = groups.get(key);
    if (g) g.quantity += 1;
    else groups.set(key, { ...t, quantity: 1 });
  }
  const lines: FeeLine[] = [...groups.values()].map((g) => ({
    billingItemId: g.billingItemId,
    description: g.description,
    quantity: g.quantity,
    unitCents: -g.unitCents,
    amountCents: -g.unitCents * g.quantity,
  }));
  if (input.feeCents > 0)
    lines.push({
      billingItemId: BILLING_ITEM_IDS.RESTOCKING_FEE,
      description: feeLineDescription(BILLING_ITEM_IDS.RESTOCKING_FEE, input.feeName, 'Restocking fee'),
      quantity: 1,
      unitCents: input.feeCents,
      amountCents: input.feeCents,
    });
  return lines;
}

// ── Cancellation fee (91) ───────────────────────────────────────────────────────────────────────────────────

/** Statuses an order is canceled from once its contract is signed and its hardware shipped (Installation on). */
export const CANCELLATION_FEE_FROM: readonly OrderStatusCode[] = [
  ORDER_STATUS.INSTALLATION,
  ORDER_STATUS.POS_POSTPONED,
];

export type CancellationFeeDecision =
  | { readonly bill: true; readonly amountCents: number }
  | {
      readonly bill: false;
      /**
       * not_canceled: not a move to POS Canceled; too_early: canceled before Installation (decision 148: nothing
       * shipped); not_pos: a non-POS order ships no hardware; no_customer: a new merchant has no customer record to
       * bill; not_billable: a test or demo store (decision 149); already_billed: once per order; no_price: the
       * catalogue has no price for item 91 in the order's currency (the fee is off).
       */
      readonly reason:
        'not_canceled' | 'too_early' | 'not_pos' | 'no_customer' | 'not_billable' | 'already_billed' | 'no_price';
    };

/**
 * Whether an order's move bills the cancellation fee, and how much: a POS order moved to POS Canceled from
 * Installation or POS Postponed (its contract signed and AR-approved, its hardware shipped to be installed), whose
 * merchant is an existing customer, at a store that is billed, not billed for this order before — at the catalogue's
 * price of item 91 in the order's currency (none or zero: the fee is off). Integer cents; no tax (decision 158).
 */
export function cancellationFee(input: {
  readonly orderType: string | null | undefined;
  readonly from: OrderStatusCode | null;
  readonly to: OrderStatusCode;
  readonly customerId: number | null | undefined;
  /** The order's store's type; null when the order names no store (billed at the customer). */
  readonly storeType: string | null | undefined;
  readonly alreadyBilled: boolean;
  /** The catalogue's price of item 91 in the order's currency; null when it has none (or the item is inactive). */
  readonly priceCents: number | null | undefined;
}): CancellationFeeDecision {
  if (input.to !== ORDER_STATUS.POS_CANCELED) return { bill: false, reason: 'not_canceled' };
  if (input.from === null || !CANCELLATION_FEE_FROM.includes(input.from)) return { bill: false, reason: 'too_early' };
  if ((input.orderType ?? ORDER_TYPE.POS) !== ORDER_TYPE.POS) return { bill: false, reason: 'not_pos' };
  if (input.customerId == null) return { bill: false, reason: 'no_customer' };
  if (!isBillableStoreType(input.storeType)) return { bill: false, reason: 'not_billable' };
  if (input.alreadyBilled) return { bill: false, reason: 'already_billed' };
  const price = Math.round(input.priceCents ?? 0);
  if (price <= 0) return { bill: false, reason: 'no_price' };
  return { bill: true, amountCents: price };
}

// ── Market fee (19) ─────────────────────────────────────────────────────────────────────────────────────────

/** One configured market: a state or province whose stores pay the market fee, monthly, in its currency. */
export interface MarketFee {
  readonly country: 'US' | 'CA';
  /** The state / province code, upper case. */
  readonly state: string;
  readonly currency: CurrencyCode;
  /** Per month of service; a yearly plan pays twelve. */
  readonly monthlyCents: number;
}

/**
 * MARKET_FEES: `COUNTRY-STATE=amount` pairs, comma-separated — `US-NY=15.00,CA-QC=12.50` — each amount per month in
 * the market's currency (USD in the US, CAD in Canada). Empty: no market fee anywhere. Answers the markets or why the
 * text is refused.
 */
export function parseMarketFees(text: string): MarketFee[] | string {
  const out: MarketFee[] = [];
  for (const part of text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const m = /^(US|CA)-([A-Za-z]{2})\s*=\s*(\d{1,7}(?:\.\d{1,2})?)$/i.exec(part);
    if (!m) return `"${part}" is not COUNTRY-STATE=amount (e.g. US-NY=15.00)`;
    const country = m[1]!.toUpperCase() as 'US' | 'CA';
    const state = m[2]!.toUpperCase();
    if (!isStateOf(country, state)) return `${state} is not a ${country === 'US' ? 'US state' : 'Canadian province'}`;
    if (out.some((f) => f.country === country && f.state === state)) return `${country}-${state} is named twice`;
    const monthlyCents = toCents(m[3]!);
    if (monthlyCents <= 0) return `${country}-${state}: the market fee must be more than 0`;
    out.push({ country, state, currency: currencyForCountry(country), monthlyCents });
  }
  return out;
}

/**
 * The market fee of one service invoice: the store's market's monthly fee × the months the invoice bills (1 monthly,
 * 12 yearly), when the store's market is configured, in the plan's currency, the store billed (not a test or demo
 * store), and the plan sells no market fee of its own (a billing item or a bundle line of item 19: never twice).
 * 0 otherwise. The billing run's SQL applies the same rule (billing-run.sql.ts, compared by its test).
 */
export function marketFeeCents(
  input: {
    readonly country: string;
    readonly state: string;
    readonly currency: string;
    readonly intervalMonths: number;
    readonly storeType: string | null | undefined;
    readonly planSellsMarketFee: boolean;
  },
  markets: readonly MarketFee[],
): number {
  if (input.planSellsMarketFee || !isBillableStoreType(input.storeType)) return 0;
  const state = input.state.trim().toUpperCase();
  const market = markets.find((m) => m.country === input.country && m.state === state);
  if (!market || market.currency !== input.currency) return 0;
  return market.monthlyCents * Math.max(1, Math.round(input.intervalMonths));
}
