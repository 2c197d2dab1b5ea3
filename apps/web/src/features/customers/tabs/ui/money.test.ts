import { describe, expect, it } from 'vitest';
import { centsToInput, parseAmount } from './money';

describe('money boxes', () => {
  it('reads dollars and cents exactly, with or without the currency symbol', () => {
    expect(parseAmount('19.99', 'USD')).toEqual({ ok: true, cents: 1999 });
    expect(parseAmount('$1,200', 'USD')).toEqual({ ok: true, cents: 120000 });
    expect(parseAmount('C$5.5', 'CAD')).toEqual({ ok: true, cents: 550 });
    expect(parseAmount('0.1', 'USD')).toEqual({ ok: true, cents: 10 });
  });

  it('refuses what is not an amount of this currency', () => {
    expect(parseAmount('1.999', 'USD').ok).toBe(false);
    expect(parseAmount('C$5', 'USD')).toEqual({
      ok: false,
      message: 'Enter an amount in USD ($) with at most 2 decimals, e.g. 49.99.',
    });
    expect(parseAmount('-5', 'USD')).toEqual({ ok: false, message: 'The amount cannot be negative.' });
    expect(parseAmount('', 'USD')).toEqual({ ok: false, message: 'Enter an amount.' });
    expect(parseAmount(' ', 'USD', { required: false })).toEqual({ ok: true, cents: 0 });
  });

  it('shows cents as a plain decimal', () => {
    expect(centsToInput(7900)).toBe('79.00');
    expect(centsToInput(5)).toBe('0.05');
  });
});
