import { describe, expect, it } from 'vitest';
import { formatZipInput, isValidZip, normalizeZip, validateZip, zipLength, zipMask } from './zip';

describe('US ZIP', () => {
  it('mask 00000, length 5', () => {
    expect(zipMask('US')).toBe('00000');
    expect(zipLength('US')).toBe(5);
  });

  it('accepts exactly 5 digits', () => {
    expect(validateZip('US', '90210')).toEqual({ ok: true, normalized: '90210' });
    expect(validateZip('US', ' 02134 ')).toEqual({ ok: true, normalized: '02134' });
  });

  it.each(['1234', '123456', '1234a', '12345-6789', 'K1A 0B1', ''])('refuses %j', (zip) => {
    expect(isValidZip('US', zip)).toBe(false);
  });

  it('says why', () => {
    expect(validateZip('US', '1234')).toEqual({ ok: false, message: 'US ZIP code must be 5 digits (00000).' });
    expect(validateZip('US', undefined)).toEqual({ ok: false, message: 'ZIP code is required.' });
  });
});

describe('Canadian postal code', () => {
  it("mask 'S0S 0S0', length 7", () => {
    expect(zipMask('CA')).toBe('S0S 0S0');
    expect(zipLength('CA')).toBe(7);
  });

  it('K1A 0B1 is valid', () => {
    expect(validateZip('CA', 'K1A 0B1')).toEqual({ ok: true, normalized: 'K1A 0B1' });
  });

  it('accepts lower case and a missing space, normalising them', () => {
    expect(normalizeZip('CA', 'k1a0b1')).toBe('K1A 0B1');
    expect(normalizeZip('CA', 'm5v 3l9')).toBe('M5V 3L9');
    expect(normalizeZip('CA', ' H2X1Y4 ')).toBe('H2X 1Y4');
  });

  it.each(['12345', 'K1A  0B1', 'K1A-0B1', '1KA 0B1', 'K1A 0B', 'D1A 0B1', 'W1A 0B1', 'K1O 0B1', 'K1A 0B1X'])(
    'refuses %j',
    (zip) => {
      expect(isValidZip('CA', zip)).toBe(false);
    },
  );
});

describe('other countries', () => {
  it('have no mask and a loose rule', () => {
    expect(zipMask('MEX')).toBeNull();
    expect(zipLength('GT')).toBeNull();
    expect(normalizeZip('MEX', '06700')).toBe('06700');
    expect(normalizeZip('IN', '110 001')).toBe('110 001');
    expect(isValidZip('PA', '')).toBe(false);
    expect(isValidZip('PA', '12345678901')).toBe(false);
    expect(isValidZip('PA', '12#4')).toBe(false);
  });
});

describe('formatting as the user types', () => {
  it('US keeps up to 5 digits', () => {
    expect(formatZipInput('US', '9021')).toBe('9021');
    expect(formatZipInput('US', '90210-1234')).toBe('90210');
    expect(formatZipInput('US', '9a0b2')).toBe('902');
  });

  it('CA upper-cases and inserts the space', () => {
    expect(formatZipInput('CA', 'k1a')).toBe('K1A');
    expect(formatZipInput('CA', 'k1a0')).toBe('K1A 0');
    expect(formatZipInput('CA', 'k1a0b1')).toBe('K1A 0B1');
    expect(formatZipInput('CA', 'k1a 0b1 zz')).toBe('K1A 0B1');
  });

  it('other countries are cut to 10 characters', () => {
    expect(formatZipInput('GT', '01001')).toBe('01001');
    expect(formatZipInput('GT', '0123456789012')).toBe('0123456789');
  });
});
