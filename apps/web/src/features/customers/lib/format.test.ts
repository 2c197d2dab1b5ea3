import { describe, expect, it } from 'vitest';
import { countryName, currencyLabel, formatCents, formatDate, formatMonth, humanize, orderStatusText } from './format';

describe('customer screen formatting', () => {
  it('money: USD with $, CAD with C$, negative amounts, nothing as a dash', () => {
    expect(formatCents(123456, 'USD')).toBe('$1,234.56');
    expect(formatCents(123456, 'CAD')).toBe('C$1,234.56');
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

  it('dates: calendar dates do not shift with the time zone', () => {
    expect(formatDate('2026-03-01')).toBe('Mar 1, 2026');
    expect(formatMonth('2026-03-01')).toBe('Mar 2026');
    expect(formatDate(null)).toBe('—');
  });

  it('order status codes read as the §4 labels', () => {
    expect(orderStatusText('121')).toBe('Pending AR Approval');
    expect(orderStatusText(150)).toBe('Complete');
    expect(orderStatusText('999')).toBe('Status 999');
  });

  it('humanize', () => {
    expect(humanize('under_transfer')).toBe('Under transfer');
    expect(humanize('')).toBe('—');
  });
});
