import { describe, expect, it } from 'vitest';
import { addMoney, centsToDecimal, formatMoney, money, parseMoney, toCents } from './money';

describe('toCents', () => {
  it.each([
    ['19.99', 1999],
    ['0.1', 10],
    ['0.2', 20],
    ['1', 100],
    ['1.5', 150],
    ['.5', 50],
    ['-12.5', -1250],
    ['+3.07', 307],
    ['  42.00 ', 4200],
    ['0', 0],
    ['-0', 0],
    ['1234567.89', 123456789],
    [19.99, 1999],
    [0.07, 7],
    [1.005e2, 10050],
    [-0.5, -50],
    [7, 700],
  ] as const)('%j → %i', (input, cents) => {
    expect(toCents(input)).toBe(cents);
  });

  it("'0.1' + '0.2' in cents is exactly 30", () => {
    expect(toCents('0.1') + toCents('0.2')).toBe(30);
    expect(toCents('0.1') + toCents('0.2')).toBe(toCents('0.3'));
  });

  it('refuses more than 2 decimals, including float drift', () => {
    expect(() => toCents('1.999')).toThrow(RangeError);
    expect(() => toCents('0.001')).toThrow(RangeError);
    expect(() => toCents(0.1 + 0.2)).toThrow(RangeError);
  });

  it.each(['', '-', '.', '1.', '1,000', '$5', '1e3', 'abc', '1.2.3', '- 1'])('refuses %j', (input) => {
    expect(() => toCents(input)).toThrow(RangeError);
  });

  it('refuses non-finite and unsafe amounts', () => {
    expect(() => toCents(Number.NaN)).toThrow(RangeError);
    expect(() => toCents(Number.POSITIVE_INFINITY)).toThrow(RangeError);
    expect(() => toCents(1e21)).toThrow(RangeError);
    expect(() => toCents('90071992547409.92')).toThrow(RangeError);
    expect(toCents('90071992547409.91')).toBe(Number.MAX_SAFE_INTEGER);
  });
});

describe('formatMoney', () => {
  it.each([
    [123456, 'USD', '$1,234.56'],
    [123456, 'CAD', 'C$1,234.56'],
    [-1200, 'USD', '-$12.00'],
    [-1200, 'CAD', '-C$12.00'],
    [0, 'USD', '$0.00'],
    [5, 'USD', '$0.05'],
    [100000000, 'USD', '$1,000,000.00'],
    [99999, 'CAD', 'C$999.99'],
  ] as const)('%i %s → %s', (cents, currency, text) => {
    expect(formatMoney(cents, currency)).toBe(text);
  });

  it('defaults to USD and refuses non-integer cents', () => {
    expect(formatMoney(1999)).toBe('$19.99');
    expect(() => formatMoney(12.5, 'USD')).toThrow(RangeError);
  });
});

describe('parseMoney', () => {
  it.each([
    ['$1,234.56', { cents: 123456, currency: 'USD' }],
    ['C$1,234.56', { cents: 123456, currency: 'CAD' }],
    ['c$5', { cents: 500, currency: 'CAD' }],
    ['-$12.00', { cents: -1200, currency: 'USD' }],
    ['$-12', { cents: -1200, currency: 'USD' }],
    ['1234.5', { cents: 123450, currency: 'USD' }],
    [' 0.99 ', { cents: 99, currency: 'USD' }],
  ] as const)('%j', (text, expected) => {
    expect(parseMoney(text)).toEqual(expected);
  });

  it('round-trips formatMoney', () => {
    for (const [cents, currency] of [
      [123456, 'USD'],
      [-1, 'CAD'],
      [0, 'CAD'],
      [100000000, 'USD'],
    ] as const) {
      expect(parseMoney(formatMoney(cents, currency))).toEqual({ cents, currency });
    }
  });

  it('uses the given currency when no symbol is typed, and refuses a contradicting symbol', () => {
    expect(parseMoney('10', 'CAD')).toEqual({ cents: 1000, currency: 'CAD' });
    expect(parseMoney('$10', 'CAD')).toBeNull();
    expect(parseMoney('C$10', 'USD')).toBeNull();
  });

  it.each(['', '$', 'abc', '1.234', '12,34', '1,2345', '--5', '-$-5', '(5.00)', '€5'])('refuses %j', (text) => {
    expect(parseMoney(text)).toBeNull();
  });
});

describe('money helpers', () => {
  it('centsToDecimal for payloads', () => {
    expect(centsToDecimal(1999)).toBe('19.99');
    expect(centsToDecimal(-5)).toBe('-0.05');
    expect(centsToDecimal(0)).toBe('0.00');
  });

  it('adds amounts of one currency only', () => {
    expect(addMoney(money('0.1'), money('0.2'))).toEqual({ cents: 30, currency: 'USD' });
    expect(() => addMoney(money('1', 'USD'), money('1', 'CAD'))).toThrow('Cannot add USD and CAD');
    expect(() => money('1', 'EUR')).toThrow('Unknown currency EUR');
  });
});
