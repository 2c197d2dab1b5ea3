import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addMonthsAnchored,
  billingInvoiceNumber,
  duePeriods,
  installmentInterestCents,
  installmentParts,
} from './billing-periods';

describe('addMonthsAnchored', () => {
  it('keeps the anchor day and clamps to the month end', () => {
    expect(addMonthsAnchored('2026-01-31', 1, 31)).toBe('2026-02-28');
    expect(addMonthsAnchored('2026-02-28', 1, 31)).toBe('2026-03-31');
    expect(addMonthsAnchored('2028-01-31', 1, 31)).toBe('2028-02-29');
    expect(addMonthsAnchored('2026-11-15', 2, 15)).toBe('2027-01-15');
    expect(addMonthsAnchored('2026-03-10', 12, 10)).toBe('2027-03-10');
  });
  it('twelve monthly steps make one yearly step, for every start day', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2000, max: 2100 }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 31 }),
        (y, m, d) => {
          const start = addMonthsAnchored(`${y}-${String(m).padStart(2, '0')}-01`, 0, d);
          let date = start;
          for (let i = 0; i < 12; i++) date = addMonthsAnchored(date, 1, d);
          expect(date).toBe(addMonthsAnchored(start, 12, d));
        },
      ),
    );
  });
});

describe('duePeriods', () => {
  it('a monthly plan one year behind owes twelve periods, oldest first, back to back', () => {
    const periods = duePeriods(
      { nextBillingOn: '2026-01-31', intervalMonths: 1, startsOn: '2025-12-31' },
      '2026-12-31',
    );
    expect(periods).toHaveLength(12);
    expect(periods[0]).toEqual({ start: '2026-01-31', end: '2026-02-28' });
    expect(periods[1]).toEqual({ start: '2026-02-28', end: '2026-03-31' });
    for (let i = 1; i < periods.length; i++) expect(periods[i]!.start).toBe(periods[i - 1]!.end);
  });
  it('nothing before the next billing date; an installment plan stops at its term', () => {
    expect(
      duePeriods({ nextBillingOn: '2026-12-01', intervalMonths: 1, startsOn: '2026-11-01' }, '2026-11-30'),
    ).toEqual([]);
    expect(
      duePeriods(
        { nextBillingOn: '2026-01-05', intervalMonths: 1, startsOn: '2025-12-05', periodsLeft: 3 },
        '2027-01-01',
      ),
    ).toHaveLength(3);
  });
});

describe('installments', () => {
  it('5 % interest, rounded half up', () => {
    expect(installmentInterestCents(1200_00)).toBe(60_00);
    expect(installmentInterestCents(10)).toBe(1); // 0.5 → 1
    expect(installmentInterestCents(9)).toBe(0); // 0.45 → 0
  });
  it('the installments sum exactly to principal + interest, the last taking the remainder', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000_00 }), fc.integer({ min: 1, max: 60 }), (financed, term) => {
        let principal = 0;
        let interest = 0;
        for (let k = 1; k <= term; k++) {
          const p = installmentParts(financed, term, k);
          expect(p.principalCents).toBeGreaterThanOrEqual(0);
          expect(p.interestCents).toBeGreaterThanOrEqual(0);
          principal += p.principalCents;
          interest += p.interestCents;
        }
        expect(principal).toBe(financed);
        expect(interest).toBe(installmentInterestCents(financed));
      }),
    );
    expect(installmentParts(1000_01, 12, 1)).toEqual({ principalCents: 83_33, interestCents: 4_16 });
    expect(installmentParts(1000_01, 12, 12)).toEqual({ principalCents: 83_38, interestCents: 4_24 });
  });
  it('refuses an installment outside the term', () => {
    expect(() => installmentParts(100, 12, 13)).toThrow(/13 of 12/);
  });
});

describe('billingInvoiceNumber', () => {
  it('is the year and a 7-digit sequence', () => {
    expect(billingInvoiceNumber(2026, 42)).toBe('INV-2026-0000042');
  });
});
