import { describe, expect, it } from 'vitest';
import {
  CREDIT_MEMO_STATUS_LABELS,
  CREDIT_MEMO_STATUSES,
  CREDIT_MEMO_TYPE_LABELS,
  CREDIT_MEMO_TYPES,
  INVOICE_STATUS,
  INVOICE_STATUS_LABELS,
  INVOICE_TYPE_LABELS,
  INVOICE_TYPES,
  WRITE_OFF_TYPE,
  WRITE_OFF_TYPE_LABELS,
  WRITE_OFF_TYPES,
} from './invoices';

describe('invoice, memo and write-off codes', () => {
  it('invoice status N pending, R reversed, P paid', () => {
    expect(INVOICE_STATUS.PENDING).toBe('N');
    expect(INVOICE_STATUS_LABELS).toEqual({ N: 'Pending', R: 'Reversed', P: 'Paid' });
  });

  it('invoice types R, M, B, I, S', () => {
    expect(INVOICE_TYPES).toEqual(['R', 'M', 'B', 'I', 'S']);
    expect(INVOICE_TYPE_LABELS.M).toBe('Monthly recurring charge');
    expect(INVOICE_TYPE_LABELS.B).toBe('Rewards');
    expect(INVOICE_TYPE_LABELS.I).toBe('Installment');
  });

  it('credit memo status A/P/R and types C/R/A', () => {
    expect(CREDIT_MEMO_STATUSES).toEqual(['A', 'P', 'R']);
    expect(CREDIT_MEMO_STATUS_LABELS).toEqual({ A: 'Approved', P: 'Pending', R: 'Rejected' });
    expect(CREDIT_MEMO_TYPES).toEqual(['C', 'R', 'A']);
    expect(CREDIT_MEMO_TYPE_LABELS).toEqual({ C: 'Credit', R: 'Refund', A: 'Adjustment' });
  });

  it('write-off types 142 and 164', () => {
    expect(WRITE_OFF_TYPES).toEqual([142, 164]);
    expect(WRITE_OFF_TYPE.WRITE_OFF_UNRECOVERABLE).toBe(164);
    expect(WRITE_OFF_TYPE_LABELS[142]).toBe('Write_Off');
    expect(WRITE_OFF_TYPE_LABELS[164]).toBe('Write_Off Unrecoverable');
  });
});
