import { ORDER_STATUS } from '@pos/domain';
import { describe, expect, it } from 'vitest';
import {
  countryName,
  currencyLabel,
  formatCents,
  formatDate,
  formatDateTime,
  formatMonth,
  humanize,
  orderStatusText,
} from './format';

describe('formatting on every screen', () => {
  it('money: USD with $, CAD with C$ (never CA$), negative amounts, nothing as a dash', () => {
    expect(formatCents(123456, 'USD')).toBe('$1,234.56');
    expect(formatCents(149950, 'CAD')).toBe('C$1,499.50');
    expect(formatCents(-500, 'CAD')).toBe('-C$5.00');
    expect(formatCents(null, 'USD')).toBe('—');
    expect(formatCents(99, 'XYZ')).toBe('$0.99');
  });

  it('currency and country names', () => {
    expect(currencyLabel('CAD')).toBe('CAD (C$)');
    expect(currencyLabel('USD')).toBe('USD ($)');
    expect(countryName('CA')).toBe('Canada');
    expect(countryName('US')).toBe('United States');
    expect(countryName(null)).toBe('—');
  });

  it('dates: calendar dates and timestamps read as their day, without a shift by the time zone', () => {
    expect(formatDate('2026-03-01')).toBe('Mar 1, 2026');
    expect(formatDate('2026-03-01T12:00:00.000Z')).toBe('Mar 1, 2026');
    expect(formatMonth('2026-03-01')).toBe('Mar 2026');
    expect(formatDate(null)).toBe('—');
  });

  it('timestamps in local time, with seconds where asked', () => {
    const at = '2026-03-04T09:05:12.000Z';
    const time = new Date(at);
    expect(formatDateTime(at)).toBe(
      `Mar 4, 2026, ${time.toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit' })}`,
    );
    expect(formatDateTime(at, { seconds: true })).toBe(`Mar 4, 2026, ${time.toLocaleTimeString('en-US')}`);
    expect(formatDateTime(undefined)).toBe('—');
    expect(formatDateTime('soon')).toBe('soon');
  });

  it('order status codes read as the §4 labels', () => {
    expect(orderStatusText(ORDER_STATUS.PENDING_AR_APPROVAL)).toBe('Pending AR Approval');
    expect(orderStatusText(Number(ORDER_STATUS.COMPLETE))).toBe('Complete');
    expect(orderStatusText('999')).toBe('Status 999');
  });

  it('humanize', () => {
    expect(humanize('under_transfer')).toBe('Under transfer');
    expect(humanize('')).toBe('—');
  });
});
