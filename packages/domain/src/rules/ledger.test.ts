import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  creditMemoLedgerEntry,
  invoiceBalance,
  isInvoiceOverdue,
  invoiceStatusOf,
  transactionLedgerEntry,
  type LedgerEntry,
} from './ledger';

const amount = fc.integer({ min: 1, max: 500_000 });
const total = fc.integer({ min: 0, max: 1_000_000 });

/** Any entries at all, including signed adjustments, refunds beyond receipts and reversals. */
const anyEntry: fc.Arbitrary<LedgerEntry> = fc.oneof(
  amount.map((a) => ({ kind: 'money_in' as const, amount_cents: a })),
  amount.map((a) => ({ kind: 'money_out' as const, amount_cents: a })),
  fc.integer({ min: -200_000, max: 500_000 }).map((a) => ({ kind: 'credit' as const, amount_cents: a })),
  amount.map((a) => ({ kind: 'write_off' as const, amount_cents: a })),
  fc.constant({ kind: 'reversal' as const }),
);

/**
 * A sequence as the product writes it: payments, credits and write-offs, refunds of at most what was received,
 * credit memos (no debit adjustments), no reversal. The step functions see the running balance, so write-offs and
 * credits are sized like a user would (at most what is open) or freely (over-crediting).
 */
const plainEntries = (t: number) =>
  fc
    .array(
      fc.tuple(
        fc.constantFrom('pay', 'refund', 'credit', 'write_off', 'overpay'),
        fc.integer({ min: 0, max: 1000 }).map((n) => n / 1000),
      ),
      { maxLength: 25 },
    )
    .map((steps) => {
      const entries: LedgerEntry[] = [];
      let received = 0;
      for (const [step, f] of steps) {
        const open = invoiceBalance(t, entries).open_cents;
        const part = Math.max(1, Math.floor(open * f));
        if (step === 'pay' && open > 0) {
          entries.push({ kind: 'money_in', amount_cents: part });
          received += part;
        } else if (step === 'overpay') {
          const a = part + 1_000;
          entries.push({ kind: 'money_in', amount_cents: a });
          received += a;
        } else if (step === 'refund' && received > 0) {
          const a = Math.max(1, Math.floor(received * f));
          entries.push({ kind: 'money_out', amount_cents: a });
          received -= a;
        } else if (step === 'credit') entries.push({ kind: 'credit', amount_cents: part });
        else if (step === 'write_off' && open > 0) entries.push({ kind: 'write_off', amount_cents: part });
      }
      return entries;
    });

describe('invoiceBalance (properties)', () => {
  it('never reports a balance below zero, and every figure is a non-negative integer', () => {
    fc.assert(
      fc.property(total, fc.array(anyEntry, { maxLength: 30 }), (t, entries) => {
        const b = invoiceBalance(t, entries);
        for (const v of [
          b.open_cents,
          b.paid_cents,
          b.credited_cents,
          b.written_off_cents,
          b.reversed_cents,
          b.debited_cents,
          b.overpaid_cents,
        ]) {
          expect(Number.isSafeInteger(v)).toBe(true);
          expect(v).toBeGreaterThanOrEqual(0);
        }
      }),
    );
  });

  it('total = paid + credited + written off + open for the sequences the product writes', () => {
    fc.assert(
      fc.property(
        total.chain((t) => fc.tuple(fc.constant(t), plainEntries(t))),
        ([t, entries]) => {
          const b = invoiceBalance(t, entries);
          expect(b.debited_cents).toBe(0);
          expect(b.reversed_cents).toBe(0);
          expect(b.paid_cents + b.credited_cents + b.written_off_cents + b.open_cents).toBe(t);
        },
      ),
    );
  });

  it('total + debited = paid + credited + written off + reversed + open for any entries', () => {
    fc.assert(
      fc.property(total, fc.array(anyEntry, { maxLength: 30 }), (t, entries) => {
        const b = invoiceBalance(t, entries);
        expect(b.paid_cents + b.credited_cents + b.written_off_cents + b.reversed_cents + b.open_cents).toBe(
          t + b.debited_cents,
        );
      }),
    );
  });

  it('status always agrees with the balance', () => {
    fc.assert(
      fc.property(total, fc.array(anyEntry, { maxLength: 30 }), (t, entries) => {
        const b = invoiceBalance(t, entries);
        const reversed = entries.some((e) => e.kind === 'reversal');
        expect(b.status).toBe(reversed ? 'R' : b.open_cents > 0 ? 'N' : 'P');
        expect(b.status).toBe(invoiceStatusOf({ reversed, open_cents: b.open_cents }));
      }),
    );
  });

  it('does not depend on the order of the entries', () => {
    fc.assert(
      fc.property(
        total,
        fc
          .array(anyEntry, { maxLength: 20 })
          .chain((es) => fc.tuple(fc.constant(es), fc.shuffledSubarray(es, { minLength: es.length }))),
        (t, [entries, shuffled]) => {
          expect(invoiceBalance(t, shuffled)).toEqual(invoiceBalance(t, entries));
        },
      ),
    );
  });

  it('a reversal makes the open balance 0 and keeps what was applied', () => {
    fc.assert(
      fc.property(total, fc.array(anyEntry, { maxLength: 30 }), (t, entries) => {
        const before = invoiceBalance(
          t,
          entries.filter((e) => e.kind !== 'reversal'),
        );
        const after = invoiceBalance(t, [...entries, { kind: 'reversal' }]);
        expect(after.open_cents).toBe(0);
        expect(after.status).toBe('R');
        expect(after.reversed_cents).toBe(before.open_cents);
        expect(after.paid_cents).toBe(before.paid_cents);
        expect(after.overpaid_cents).toBe(before.overpaid_cents);
      }),
    );
  });

  it('paying more than is owed is reported as overpaid, not as a negative balance', () => {
    fc.assert(
      fc.property(total, amount, (t, extra) => {
        const b = invoiceBalance(t, [{ kind: 'money_in', amount_cents: t + extra }]);
        expect(b).toMatchObject({ open_cents: 0, paid_cents: t, overpaid_cents: extra, status: 'P' });
      }),
    );
  });
});

describe('invoiceBalance (examples)', () => {
  it('a pending invoice, a part payment, then the rest', () => {
    expect(invoiceBalance(100_00, [])).toMatchObject({ open_cents: 100_00, status: 'N' });
    expect(invoiceBalance(100_00, [{ kind: 'money_in', amount_cents: 40_00 }])).toMatchObject({
      open_cents: 60_00,
      paid_cents: 40_00,
      status: 'N',
    });
    expect(
      invoiceBalance(100_00, [
        { kind: 'money_in', amount_cents: 40_00 },
        { kind: 'money_in', amount_cents: 60_00 },
      ]),
    ).toMatchObject({ open_cents: 0, paid_cents: 100_00, status: 'P' });
  });

  it('a chargeback reopens a paid invoice; a refund of an overpayment does not', () => {
    expect(
      invoiceBalance(50_00, [
        { kind: 'money_in', amount_cents: 50_00 },
        { kind: 'money_out', amount_cents: 50_00 },
      ]),
    ).toMatchObject({ open_cents: 50_00, paid_cents: 0, status: 'N' });
    expect(
      invoiceBalance(50_00, [
        { kind: 'money_in', amount_cents: 50_00 },
        { kind: 'credit', amount_cents: 10_00 },
        { kind: 'money_out', amount_cents: 10_00 },
      ]),
    ).toMatchObject({ open_cents: 0, paid_cents: 40_00, credited_cents: 10_00, overpaid_cents: 0, status: 'P' });
  });

  it('a written-off invoice is settled (P) with nothing paid; a debit adjustment raises the balance', () => {
    expect(invoiceBalance(30_00, [{ kind: 'write_off', amount_cents: 30_00 }])).toMatchObject({
      open_cents: 0,
      paid_cents: 0,
      written_off_cents: 30_00,
      status: 'P',
    });
    expect(
      invoiceBalance(30_00, [
        { kind: 'money_in', amount_cents: 30_00 },
        { kind: 'credit', amount_cents: -5_00 },
      ]),
    ).toMatchObject({ open_cents: 5_00, debited_cents: 5_00, status: 'N' });
  });

  it('refuses amounts that are not integer cents', () => {
    expect(() => invoiceBalance(10.5, [])).toThrow(RangeError);
    expect(() => invoiceBalance(10, [{ kind: 'money_in', amount_cents: 0.1 }])).toThrow(RangeError);
  });
});

describe('rows → ledger entries', () => {
  it('only successful charges bring money; refunds and chargebacks take it back', () => {
    expect(transactionLedgerEntry({ kind: 'charge', status: 'S', amount_cents: 5 })).toEqual({
      kind: 'money_in',
      amount_cents: 5,
    });
    for (const status of ['V', 'P', 'R', 'F', 'B', 'C'])
      expect(transactionLedgerEntry({ kind: 'charge', status, amount_cents: 5 })).toBeNull();
    expect(transactionLedgerEntry({ kind: 'chargeback', status: 'B', amount_cents: 5 })).toEqual({
      kind: 'money_out',
      amount_cents: 5,
    });
    expect(transactionLedgerEntry({ kind: 'refund', status: 'S', amount_cents: 5 })?.kind).toBe('money_out');
    expect(transactionLedgerEntry({ kind: 'refund', status: 'F', amount_cents: 5 })).toBeNull();
    expect(transactionLedgerEntry({ kind: 'fee', status: 'S', amount_cents: 5 })).toBeNull();
  });

  it('only approved memos count: C credits, R pays money back, A adjusts with its sign', () => {
    expect(creditMemoLedgerEntry({ type: 'C', status: 'P', amount_cents: 5 })).toBeNull();
    expect(creditMemoLedgerEntry({ type: 'C', status: 'R', amount_cents: 5 })).toBeNull();
    expect(creditMemoLedgerEntry({ type: 'C', status: 'A', amount_cents: 5 })).toEqual({
      kind: 'credit',
      amount_cents: 5,
    });
    expect(creditMemoLedgerEntry({ type: 'R', status: 'A', amount_cents: 5 })).toEqual({
      kind: 'money_out',
      amount_cents: 5,
    });
    expect(creditMemoLedgerEntry({ type: 'A', status: 'A', amount_cents: -5 })).toEqual({
      kind: 'credit',
      amount_cents: -5,
    });
  });
});

describe('isInvoiceOverdue', () => {
  it('is due before the billing day with something still open', () => {
    expect(isInvoiceOverdue({ due_on: '2026-11-24', open_cents: 1 }, '2026-11-25')).toBe(true);
    expect(isInvoiceOverdue({ due_on: '2026-11-25', open_cents: 1 }, '2026-11-25')).toBe(false);
    expect(isInvoiceOverdue({ due_on: '2026-01-01', open_cents: 0 }, '2026-11-25')).toBe(false);
  });
});
