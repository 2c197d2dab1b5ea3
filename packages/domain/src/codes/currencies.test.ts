import { describe, expect, it } from 'vitest';
import { CURRENCY_CODES, CURRENCY_SYMBOLS, DEFAULT_CURRENCY, currencyForCountry, isCurrencyCode } from './currencies';

describe('currencies', () => {
  it('USD $ and CAD C$, default USD', () => {
    expect(CURRENCY_CODES).toEqual(['USD', 'CAD']);
    expect(CURRENCY_SYMBOLS).toEqual({ USD: '$', CAD: 'C$' });
    expect(DEFAULT_CURRENCY).toBe('USD');
  });

  it('CA pays in CAD, everyone else in USD', () => {
    expect(currencyForCountry('CA')).toBe('CAD');
    expect(currencyForCountry('US')).toBe('USD');
    expect(currencyForCountry('MEX')).toBe('USD');
    expect(currencyForCountry(null)).toBe('USD');
  });

  it('recognises currency codes', () => {
    expect(isCurrencyCode('CAD')).toBe(true);
    expect(isCurrencyCode('EUR')).toBe(false);
    expect(isCurrencyCode('usd')).toBe(false);
  });
});
