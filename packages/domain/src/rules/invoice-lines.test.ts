import { describe, expect, it } from 'vitest';
import { BILLING_ITEM_IDS, PROMOTION_ITEM_IDS } from '../codes/billing';
import {
  INTERNAL_FEE_ITEM_IDS,
  defaultRecurringAmount,
  servicePlanItemId,
  invoiceItemLines,
  invoiceLinesAddUp,
  isOfferedOnOrders,
  taxLines,
  taxRegistrations,
} from './invoice-lines';

const numbers = { gstHst: '123456789RT0001', provincial: { BC: 'PST-1234-5678', QC: '1234567890TQ0001' } };

describe('invoice lines (decision 149)', () => {
  it('a US invoice: one sales tax line named for the state with its rate', () => {
    expect(
      taxLines({
        taxCents: 12_163,
        country: 'US',
        state: 'tx',
        components: [{ component: 'STATE', rateBasisPoints: 625 }],
      }),
    ).toEqual([{ component: 'STATE', label: 'Sales tax (TX) 6.25%', rate_basis_points: 625, amount_cents: 12_163 }]);
    expect(taxRegistrations('US', 'TX', [], numbers)).toEqual([]);
  });

  it('a BC invoice: GST and PST split by their rates, adding up to the tax, with both registration numbers', () => {
    const lines = taxLines({
      taxCents: 1_201,
      country: 'CA',
      state: 'BC',
      components: [
        { component: 'GST', rateBasisPoints: 500 },
        { component: 'PST', rateBasisPoints: 700 },
      ],
    });
    expect(lines.map((l) => [l.label, l.amount_cents])).toEqual([
      ['GST 5%', 500],
      ['PST (BC) 7%', 701],
    ]);
    expect(lines.reduce((s, l) => s + l.amount_cents, 0)).toBe(1_201);
    expect(taxRegistrations('CA', 'BC', lines, numbers)).toEqual([
      { label: 'GST/HST registration no.', number: '123456789RT0001' },
      { label: 'PST (BC) registration no.', number: 'PST-1234-5678' },
    ]);
  });

  it('an Ontario invoice: one HST line; Quebec names QST; no tax, no line', () => {
    const on = taxLines({
      taxCents: 1_300,
      country: 'CA',
      state: 'ON',
      components: [{ component: 'HST', rateBasisPoints: 1300 }],
    });
    expect(on.map((l) => l.label)).toEqual(['HST (ON) 13%']);
    expect(taxRegistrations('CA', 'ON', on, { gstHst: null, provincial: {} })).toEqual([]);
    const qc = taxLines({
      taxCents: 1_498,
      country: 'CA',
      state: 'QC',
      components: [
        { component: 'GST', rateBasisPoints: 500 },
        { component: 'PST', rateBasisPoints: 998 },
      ],
    });
    expect(qc.map((l) => l.label)).toEqual(['GST 5%', 'QST 9.98%']);
    expect(taxLines({ taxCents: 0, country: 'US', state: 'TX', components: [] })).toEqual([]);
    expect(taxLines({ taxCents: 50, country: 'US', state: 'TX', components: [] })[0]!.label).toBe('Sales tax (TX)');
  });

  it('the tax item is never an item line; items plus tax add up to the total', () => {
    const stored = [
      { billing_item_id: 3, amount_cents: 1_946_00 },
      { billing_item_id: BILLING_ITEM_IDS.TAX, amount_cents: 121_63 },
    ];
    const items = invoiceItemLines(stored);
    expect(items).toEqual([stored[0]]);
    const tax = taxLines({
      taxCents: 121_63,
      country: 'US',
      state: 'TX',
      components: [{ component: 'STATE', rateBasisPoints: 625 }],
    });
    expect(invoiceLinesAddUp(items, tax, 2_067_63)).toBe(true);
    expect(invoiceLinesAddUp(stored, tax, 2_067_63)).toBe(false);
  });

  it('orders offer products, bundles, promotions and shipping — never an internal fee', () => {
    expect(isOfferedOnOrders(BILLING_ITEM_IDS.SHIPPING)).toBe(true);
    for (const id of PROMOTION_ITEM_IDS) expect(isOfferedOnOrders(id)).toBe(true);
    for (const id of [
      BILLING_ITEM_IDS.TAX,
      BILLING_ITEM_IDS.CANCELLATION_FEE,
      BILLING_ITEM_IDS.RESTOCKING_FEE,
      BILLING_ITEM_IDS.CASH_CHECK_FEE,
      92,
      93,
    ])
      expect(isOfferedOnOrders(id), String(id)).toBe(false);
    expect(INTERNAL_FEE_ITEM_IDS).toContain(BILLING_ITEM_IDS.OTHER_CHARGES);
  });

  it("the service plan's amount defaults from the price list while blank or zero; an entered amount stays", () => {
    expect(servicePlanItemId(false)).toBe(BILLING_ITEM_IDS.MONTHLY_SERVICE_FEE);
    expect(servicePlanItemId(true)).toBe(BILLING_ITEM_IDS.YEARLY_SERVICE_FEE);
    expect(defaultRecurringAmount('0.00', 59_00)).toBe('59.00');
    expect(defaultRecurringAmount('', 59_00)).toBe('59.00');
    expect(defaultRecurringAmount(null, 59_00)).toBe('59.00');
    expect(defaultRecurringAmount('49.00', 59_00)).toBeNull();
    expect(defaultRecurringAmount('0.00', null)).toBeNull();
    expect(defaultRecurringAmount('4x', 59_00)).toBeNull();
  });
});
