import { TRANSACTION_STATUSES } from '@pos/domain';
import { describe, expect, it } from 'vitest';
import { invoiceStatusLook, invoiceTypeLabel, transactionStatusLook } from './status';

describe('transaction status words and colours', () => {
  it('shows every letter of spec §4 as its word, in its own colour', () => {
    expect(
      TRANSACTION_STATUSES.map((s) => [s, transactionStatusLook(s).label, transactionStatusLook(s).color]),
    ).toEqual([
      ['V', 'Void', 'gray'],
      ['S', 'Success', 'green'],
      ['P', 'Pending', 'yellow'],
      ['R', 'Reprocessed', 'teal'],
      ['F', 'Failed', 'red'],
      ['B', 'Chargeback', 'grape'],
      ['C', 'Reversed/Refunded', 'orange'],
    ]);
    expect(new Set(TRANSACTION_STATUSES.map((s) => transactionStatusLook(s).color)).size).toBe(
      TRANSACTION_STATUSES.length,
    );
  });

  it('an unknown letter is shown as such, never as another status', () => {
    expect(transactionStatusLook('X')).toEqual({ label: 'Unknown (X)', color: 'dark' });
  });
});

describe('invoice status and type words', () => {
  it('status N/P/R as Pending/Paid/Reversed', () => {
    expect(invoiceStatusLook('N')).toEqual({ label: 'Pending', color: 'yellow' });
    expect(invoiceStatusLook('P')).toEqual({ label: 'Paid', color: 'green' });
    expect(invoiceStatusLook('R')).toEqual({ label: 'Reversed', color: 'gray' });
    expect(invoiceStatusLook('Z').label).toBe('Unknown (Z)');
  });

  it('types as the domain words', () => {
    expect(['R', 'M', 'B', 'I', 'S', 'Q'].map(invoiceTypeLabel)).toEqual([
      'Reversed',
      'Monthly recurring charge',
      'Rewards',
      'Installment',
      'Sale',
      'Unknown (Q)',
    ]);
  });
});
