import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ACCOUNT, ACCOUNT_CODES, ACCOUNTS } from '../codes/accounts';
import { INVOICE_TYPES } from '../codes/invoices';
import {
  accountBalance,
  invoiceSettlement,
  journalEntryKind,
  journalImbalance,
  journalLines,
  type JournalLine,
  type JournalMovement,
} from './journal';
import { invoiceBalance, type LedgerEntry } from './ledger';

const cents = fc.integer({ min: 0, max: 5_000_000 });
const positive = fc.integer({ min: 1, max: 5_000_000 });
const onInvoice = fc.boolean();

const movement: fc.Arbitrary<JournalMovement> = fc.oneof(
  fc
    .record({ invoiceType: fc.constantFrom(...INVOICE_TYPES), totalCents: cents, taxCents: cents })
    .map((r) => ({ kind: 'invoice_issued' as const, ...r })),
  fc.record({ kind: fc.constant('charge_captured' as const), amountCents: positive, onInvoice }),
  fc.record({
    kind: fc.constantFrom('refund' as const, 'chargeback' as const, 'bank_return' as const),
    amountCents: positive,
    onInvoice,
  }),
  fc.record({ kind: fc.constant('fee' as const), amountCents: positive }),
  fc.record({
    kind: fc.constant('receipt_received' as const),
    amountCents: positive,
    method: fc.constantFrom('check', 'cash', 'wire', 'ach', 'card'),
  }),
  fc.record({ kind: fc.constantFrom('receipt_applied' as const, 'receipt_unapplied' as const), amountCents: positive }),
  fc.record({ kind: fc.constant('credit' as const), amountCents: positive, onInvoice }),
  fc.record({
    kind: fc.constant('adjustment' as const),
    amountCents: fc.integer({ min: -5_000_000, max: 5_000_000 }).filter((n) => n !== 0),
    onInvoice,
  }),
  fc.record({ kind: fc.constant('refund_memo' as const), amountCents: positive, onInvoice }),
  fc.record({ kind: fc.constant('write_off' as const), amountCents: positive }),
  fc.record({
    kind: fc.constant('invoice_settled' as const),
    overpaidCents: cents,
    excessWriteOffCents: cents,
    reversedCents: cents,
  }),
);

describe('the chart of accounts', () => {
  it('defines every code once, each with its normal side by its type', () => {
    expect(ACCOUNT_CODES).toHaveLength(new Set(ACCOUNT_CODES).size);
    for (const code of ACCOUNT_CODES) {
      const a = ACCOUNTS[code];
      expect(a.code).toBe(code);
      expect(a.normal).toBe(['asset', 'expense', 'contra_revenue'].includes(a.type) ? 'debit' : 'credit');
    }
    expect(ACCOUNTS[ACCOUNT.RECEIVABLE].per).toBe('invoice');
    expect(ACCOUNTS[ACCOUNT.UNAPPLIED_CASH].per).toBe('customer');
  });
});

describe('journalLines', () => {
  it('every movement posts a balanced entry of integer, one-sided, non-zero lines', () => {
    fc.assert(
      fc.property(movement, (m) => {
        const lines = journalLines(m);
        expect(journalImbalance(lines)).toBe(0);
        for (const l of lines) {
          expect(Number.isSafeInteger(l.debit_cents) && Number.isSafeInteger(l.credit_cents)).toBe(true);
          expect(l.debit_cents >= 0 && l.credit_cents >= 0).toBe(true);
          expect((l.debit_cents === 0) !== (l.credit_cents === 0)).toBe(true);
          expect(l.sub).toBe(ACCOUNTS[l.account].per);
        }
        expect(typeof journalEntryKind(m)).toBe('string');
      }),
      { numRuns: 2000 },
    );
  });

  it('an invoice issued: receivable of its total, tax payable, revenue by type', () => {
    expect(journalLines({ kind: 'invoice_issued', invoiceType: 'M', totalCents: 10_600, taxCents: 600 })).toEqual([
      { account: '1100', sub: 'invoice', debit_cents: 10_600, credit_cents: 0 },
      { account: '2200', sub: null, debit_cents: 0, credit_cents: 600 },
      { account: '4100', sub: null, debit_cents: 0, credit_cents: 10_000 },
    ]);
    expect(journalLines({ kind: 'invoice_issued', invoiceType: 'S', totalCents: 500, taxCents: 0 })[1]).toMatchObject({
      account: '4000',
      credit_cents: 500,
    });
  });

  it('a debit adjustment raises the receivable against other revenue; a refund memo owes the money back', () => {
    expect(journalLines({ kind: 'adjustment', amountCents: -250, onInvoice: true })).toEqual([
      { account: '1100', sub: 'invoice', debit_cents: 250, credit_cents: 0 },
      { account: '4300', sub: null, debit_cents: 0, credit_cents: 250 },
    ]);
    expect(journalEntryKind({ kind: 'adjustment', amountCents: -250, onInvoice: true })).toBe('debit_adjustment');
    expect(journalLines({ kind: 'refund_memo', amountCents: 900, onInvoice: false })).toEqual([
      { account: '2100', sub: 'customer', debit_cents: 900, credit_cents: 0 },
      { account: '2300', sub: null, debit_cents: 0, credit_cents: 900 },
    ]);
  });
});

/** The movements an invoice's ledger entries post (all on the invoice). */
function movementsOf(e: LedgerEntry): JournalMovement[] {
  switch (e.kind) {
    case 'money_in':
      return [{ kind: 'charge_captured', amountCents: e.amount_cents, onInvoice: true }];
    case 'money_out':
      return [{ kind: 'refund', amountCents: e.amount_cents, onInvoice: true }];
    case 'credit':
      return [{ kind: 'adjustment', amountCents: e.amount_cents, onInvoice: true }];
    case 'write_off':
      return [{ kind: 'write_off', amountCents: e.amount_cents }];
    case 'reversal':
      return [];
  }
}

const ledgerEntry: fc.Arbitrary<LedgerEntry> = fc.oneof(
  fc.record({ kind: fc.constant('money_in' as const), amount_cents: positive }),
  fc.record({ kind: fc.constant('money_out' as const), amount_cents: positive }),
  fc.record({
    kind: fc.constant('credit' as const),
    amount_cents: fc.integer({ min: -5_000_000, max: 5_000_000 }).filter((n) => n !== 0),
  }),
  fc.record({ kind: fc.constant('write_off' as const), amount_cents: positive }),
  fc.constant({ kind: 'reversal' as const }),
);

describe('the journal of one invoice agrees with its ledger balance', () => {
  it('receivables = open, unapplied cash = overpaid, write-off expense = written off, reversals = reversed', () => {
    fc.assert(
      fc.property(cents, fc.array(ledgerEntry, { maxLength: 12 }), (total, entries) => {
        const b = invoiceBalance(total, entries);
        const writeOffs = entries.reduce((s, e) => s + (e.kind === 'write_off' ? e.amount_cents : 0), 0);
        const lines: JournalLine[] = [
          ...journalLines({ kind: 'invoice_issued', invoiceType: 'M', totalCents: total, taxCents: 0 }),
          ...entries.flatMap(movementsOf).flatMap(journalLines),
          ...journalLines(invoiceSettlement(b, writeOffs)),
        ];
        expect(journalImbalance(lines)).toBe(0);
        expect(accountBalance(lines, ACCOUNT.RECEIVABLE)).toBe(b.open_cents);
        expect(b.overpaid_cents + accountBalance(lines, ACCOUNT.UNAPPLIED_CASH)).toBe(0);
        expect(accountBalance(lines, ACCOUNT.WRITE_OFF_EXPENSE)).toBe(b.written_off_cents);
        expect(accountBalance(lines, ACCOUNT.REVERSALS)).toBe(b.reversed_cents);
      }),
      { numRuns: 2000 },
    );
  });
});
