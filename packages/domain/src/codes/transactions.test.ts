import { describe, expect, it } from 'vitest';
import {
  TRANSACTION_STATUS,
  TRANSACTION_STATUS_LABELS,
  TRANSACTION_STATUSES,
  isTransactionStatus,
} from './transactions';

describe('transaction status', () => {
  it('has the letters of §4 with their words', () => {
    expect(TRANSACTION_STATUSES).toEqual(['V', 'S', 'P', 'R', 'F', 'B', 'C']);
    expect(TRANSACTION_STATUS.FAILED).toBe('F');
    expect(TRANSACTION_STATUS.CHARGEBACK).toBe('B');
    expect(TRANSACTION_STATUS_LABELS).toEqual({
      V: 'Void',
      S: 'Success',
      P: 'Pending',
      R: 'Reprocessed',
      F: 'Failed',
      B: 'Chargeback',
      C: 'Reversed/Refunded',
    });
  });

  it('recognises only known letters', () => {
    expect(isTransactionStatus('C')).toBe(true);
    expect(isTransactionStatus('c')).toBe(false);
    expect(isTransactionStatus('X')).toBe(false);
  });
});
