import { describe, expect, it } from 'vitest';
import { BILLING_ITEM_IDS, FEES } from '../codes/billing';
import { ORDER_STATUS } from '../codes/order-status';
import { returnBreakdown } from '../contracts/returns';
import {
  cancellationFee,
  feeLineDescription,
  marketFeeCents,
  orderEntryUnitCents,
  parseMarketFees,
  restockingFeeCents,
  returnCreditLines,
  type MarketFee,
} from './fees';
import { orderSaleInvoiceLines, orderTotals, orderUpfrontCents, type OrderForTotals } from './order-totals';

describe('fee lines are named by the catalogue (decision 158)', () => {
  it("a fee item's line reads as the catalogue names it; without a name, the fee's own; other lines keep theirs", () => {
    expect(feeLineDescription(BILLING_ITEM_IDS.SHIPPING, 'Shipping & handling', 'Ship it')).toBe('Shipping & handling');
    expect(feeLineDescription(114, 'Marketplace fee - premium listing', 'listing')).toBe(
      'Marketplace fee - premium listing',
    );
    expect(feeLineDescription(BILLING_ITEM_IDS.RESTOCKING_FEE, null, 'x')).toBe('Restocking fee');
    expect(feeLineDescription(BILLING_ITEM_IDS.CANCELLATION_FEE, '  ', 'x')).toBe('Cancellation fee');
    expect(feeLineDescription(BILLING_ITEM_IDS.MARKET_FEE, undefined, 'x')).toBe('Market fee');
    // A product or a bundle keeps the name it was sold under.
    expect(feeLineDescription(3, 'POS terminal (hardware)', 'NRS POS Terminal')).toBe('NRS POS Terminal');
  });
});

describe('marketplace fees (113–115) and shipping (20) on an order', () => {
  it('a marketplace listing is billed as sold; sold without a price, at §9’s 141.00; shipping and others as sold', () => {
    expect(orderEntryUnitCents(113, 0)).toBe(FEES.MARKETPLACE_FEE_CENTS);
    expect(orderEntryUnitCents(115, 0)).toBe(141_00);
    expect(orderEntryUnitCents(114, 199_00)).toBe(199_00);
    expect(orderEntryUnitCents(BILLING_ITEM_IDS.SHIPPING, 35_00)).toBe(35_00);
    expect(orderEntryUnitCents(BILLING_ITEM_IDS.SHIPPING, 0)).toBe(0);
    expect(orderEntryUnitCents(3, -5)).toBe(0);
  });

  it('the sale invoice carries shipping and a one-time marketplace listing as their own lines, adding up to the upfront total', () => {
    const doc: OrderForTotals = {
      orderType: 'P',
      BillingItemInfo: [
        { billingItemId: 3, productId: 1, name: 'NRS POS Terminal', quantity: 1, unitPrice: '899.00' },
        { billingItemId: BILLING_ITEM_IDS.SHIPPING, name: 'Shipping', quantity: 1, unitPrice: '35.00' },
        { billingItemId: 113, name: 'Marketplace', quantity: 1, unitPrice: '0.00' },
        { billingItemId: 114, name: 'Premium listing', quantity: 1, unitPrice: '199.00', recurring: true },
      ],
      PaymentPlanInfo: [{ type: 'hardware sale plan', paymentPlanId: 1, term: 0 }],
    };
    const totals = orderTotals(doc);
    // The signed totals already count the listing at 141.00, and the recurring one on the monthly charge.
    expect(totals.subtotalCents).toBe(899_00 + 35_00 + 141_00);
    expect(totals.recurringCents).toBe(199_00);
    const lines = orderSaleInvoiceLines(doc, 10_00);
    expect(lines.map((l) => [l.billingItemId, l.description, l.amountCents])).toEqual([
      [3, 'NRS POS Terminal', 899_00],
      [BILLING_ITEM_IDS.SHIPPING, 'Shipping', 35_00],
      [113, 'Marketplace', 141_00],
      [BILLING_ITEM_IDS.TAX, 'Sales tax', 10_00],
    ]);
    expect(lines.reduce((s, l) => s + l.amountCents, 0)).toBe(orderUpfrontCents(doc, 10_00));
  });
});

describe('restocking fee (28)', () => {
  it('250.00 unless waived, never more than the terminals’ value; returnBreakdown uses the same rule', () => {
    expect(restockingFeeCents({ valueCents: 1499_00, waived: false })).toBe(FEES.RESTOCKING_FEE_CENTS);
    expect(restockingFeeCents({ valueCents: 1499_00, waived: true })).toBe(0);
    expect(restockingFeeCents({ valueCents: 100_00, waived: false })).toBe(100_00);
    expect(restockingFeeCents({ valueCents: 0, waived: false })).toBe(0);
    expect(returnBreakdown({ unit_cents: [100_00], fee_waived: false, open_cents: 0, paid_cents: 0 }).fee_cents).toBe(
      100_00,
    );
  });

  it("a return's credit lines: the terminals credited per item, the fee kept as its own line; they add up to −credit", () => {
    const lines = returnCreditLines({
      terminals: [
        { billingItemId: 3, description: 'NRS POS Terminal', unitCents: 1499_00 },
        { billingItemId: 3, description: 'NRS POS Terminal', unitCents: 1499_00 },
        { billingItemId: 4, description: 'NRS Petro POS', unitCents: 2499_00 },
      ],
      feeCents: 250_00,
      feeName: 'Restocking fee',
    });
    expect(lines).toEqual([
      { billingItemId: 3, description: 'NRS POS Terminal', quantity: 2, unitCents: -1499_00, amountCents: -2998_00 },
      { billingItemId: 4, description: 'NRS Petro POS', quantity: 1, unitCents: -2499_00, amountCents: -2499_00 },
      {
        billingItemId: BILLING_ITEM_IDS.RESTOCKING_FEE,
        description: 'Restocking fee',
        quantity: 1,
        unitCents: 250_00,
        amountCents: 250_00,
      },
    ]);
    const credit = 2998_00 + 2499_00 - 250_00;
    expect(lines.reduce((s, l) => s + l.amountCents, 0)).toBe(-credit);
    // Waived: no fee line.
    expect(
      returnCreditLines({ terminals: [{ billingItemId: 3, description: 'T', unitCents: 10_00 }], feeCents: 0 }),
    ).toHaveLength(1);
  });
});

describe('cancellation fee (91)', () => {
  const base = {
    orderType: 'P',
    from: ORDER_STATUS.INSTALLATION,
    to: ORDER_STATUS.POS_CANCELED,
    customerId: 7,
    storeType: 'S',
    alreadyBilled: false,
    priceCents: 250_00,
  } as const;

  it("an existing customer's POS order canceled at Installation or when postponed: the catalogue's price", () => {
    expect(cancellationFee(base)).toEqual({ bill: true, amountCents: 250_00 });
    expect(cancellationFee({ ...base, from: ORDER_STATUS.POS_POSTPONED })).toEqual({ bill: true, amountCents: 250_00 });
    expect(cancellationFee({ ...base, storeType: null })).toEqual({ bill: true, amountCents: 250_00 });
  });

  it('nothing otherwise, with the reason', () => {
    const no = (over: Partial<Parameters<typeof cancellationFee>[0]>) =>
      (cancellationFee({ ...base, ...over }) as { reason: string }).reason;
    expect(no({ to: ORDER_STATUS.COMPLETE })).toBe('not_canceled');
    expect(no({ from: ORDER_STATUS.PENDING_AR_APPROVAL })).toBe('too_early');
    expect(no({ from: null })).toBe('too_early');
    expect(no({ orderType: 'N' })).toBe('not_pos');
    expect(no({ customerId: null })).toBe('no_customer');
    expect(no({ storeType: 'T' })).toBe('not_billable');
    expect(no({ storeType: 'D' })).toBe('not_billable');
    expect(no({ alreadyBilled: true })).toBe('already_billed');
    expect(no({ priceCents: null })).toBe('no_price');
    expect(no({ priceCents: 0 })).toBe('no_price');
  });
});

describe('market fee (19)', () => {
  it('MARKET_FEES is parsed into markets with their currency, or refused with the reason', () => {
    expect(parseMarketFees('')).toEqual([]);
    expect(parseMarketFees('US-NY=15.00, ca-qc=12.5')).toEqual([
      { country: 'US', state: 'NY', currency: 'USD', monthlyCents: 15_00 },
      { country: 'CA', state: 'QC', currency: 'CAD', monthlyCents: 12_50 },
    ]);
    expect(parseMarketFees('NY=15')).toMatch(/not COUNTRY-STATE=amount/);
    expect(parseMarketFees('US-QC=15')).toMatch(/not a US state/);
    expect(parseMarketFees('US-NY=1,US-NY=2')).toMatch(/named twice/);
    expect(parseMarketFees('US-NY=0')).toMatch(/more than 0/);
  });

  it("a store in a configured market pays its monthly fee per month billed; nowhere else, never twice, never a test store's", () => {
    const markets = parseMarketFees('US-NY=15.00,CA-QC=12.50') as MarketFee[];
    const store = {
      country: 'US',
      state: 'ny',
      currency: 'USD',
      intervalMonths: 1,
      storeType: null,
      planSellsMarketFee: false,
    };
    expect(marketFeeCents(store, markets)).toBe(15_00);
    expect(marketFeeCents({ ...store, intervalMonths: 12 }, markets)).toBe(180_00);
    expect(marketFeeCents({ ...store, country: 'CA', state: 'QC', currency: 'CAD' }, markets)).toBe(12_50);
    expect(marketFeeCents({ ...store, state: 'NJ' }, markets)).toBe(0);
    expect(marketFeeCents({ ...store, currency: 'CAD' }, markets)).toBe(0);
    expect(marketFeeCents({ ...store, planSellsMarketFee: true }, markets)).toBe(0);
    expect(marketFeeCents({ ...store, storeType: 'D' }, markets)).toBe(0);
    expect(marketFeeCents(store, [])).toBe(0);
  });
});
