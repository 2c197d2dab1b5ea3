import { describe, expect, it } from 'vitest';
import {
  ORDER_STATUS,
  ORDER_STATUS_CODES,
  ORDER_STATUS_LABELS,
  isOrderStatusCode,
  orderStatusLabel,
} from './order-status';

describe('order status codes', () => {
  it('has the 15 string codes of spec §4 in ascending order', () => {
    expect(ORDER_STATUS_CODES).toEqual([
      '1',
      '2',
      '3',
      '10',
      '11',
      '15',
      '101',
      '111',
      '121',
      '125',
      '126',
      '140',
      '141',
      '142',
      '150',
    ]);
  });

  it('maps names to codes', () => {
    expect(ORDER_STATUS.DRAFT).toBe('1');
    expect(ORDER_STATUS.PENDING_CONTRACT_SIGN).toBe('11');
    expect(ORDER_STATUS.PENDING_NRS_PAY_APPROVAL).toBe('111');
    expect(ORDER_STATUS.PENDING_AR_APPROVAL).toBe('121');
    expect(ORDER_STATUS.INSTALLATION).toBe('140');
    expect(ORDER_STATUS.COMPLETE).toBe('150');
  });

  it('labels every code with the spec wording', () => {
    expect(Object.keys(ORDER_STATUS_LABELS).sort()).toEqual([...ORDER_STATUS_CODES].sort());
    expect(ORDER_STATUS_LABELS['1']).toBe('Draft');
    expect(ORDER_STATUS_LABELS['2']).toBe('Incomplete');
    expect(ORDER_STATUS_LABELS['3']).toBe('Rejected');
    expect(ORDER_STATUS_LABELS['10']).toBe('Pending Onboarding');
    expect(ORDER_STATUS_LABELS['11']).toBe('Pending Contract Sign');
    expect(ORDER_STATUS_LABELS['15']).toBe('Submitted to Support');
    expect(ORDER_STATUS_LABELS['101']).toBe('Petro Approval');
    expect(ORDER_STATUS_LABELS['111']).toBe('Pending NRS Pay Approval');
    expect(ORDER_STATUS_LABELS['121']).toBe('Pending AR Approval');
    expect(ORDER_STATUS_LABELS['125']).toBe('AR Contract Regenerated');
    expect(ORDER_STATUS_LABELS['126']).toBe('AR Submitted');
    expect(ORDER_STATUS_LABELS['140']).toBe('Installation');
    expect(ORDER_STATUS_LABELS['141']).toBe('POS Canceled');
    expect(ORDER_STATUS_LABELS['142']).toBe('POS Postponed');
    expect(ORDER_STATUS_LABELS['150']).toBe('Complete');
  });

  it('recognises codes only as strings', () => {
    expect(isOrderStatusCode('121')).toBe(true);
    expect(isOrderStatusCode(121)).toBe(false);
    expect(isOrderStatusCode('4')).toBe(false);
    expect(isOrderStatusCode('')).toBe(false);
  });

  it('labels numeric and string codes, undefined for unknown', () => {
    expect(orderStatusLabel(150)).toBe('Complete');
    expect(orderStatusLabel('140')).toBe('Installation');
    expect(orderStatusLabel('999')).toBeUndefined();
  });
});
