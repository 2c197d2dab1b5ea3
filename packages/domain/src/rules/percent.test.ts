import { describe, expect, it } from 'vitest';
import { isValidPercent } from './percent';

describe('isValidPercent', () => {
  it.each([0, 100, 50, 12.5, 99.99])('accepts %s', (v) => {
    expect(isValidPercent(v)).toBe(true);
  });

  it.each([-1, 100.5, -0.01, 101, Number.NaN, Number.POSITIVE_INFINITY])('refuses %s', (v) => {
    expect(isValidPercent(v)).toBe(false);
  });

  it('refuses non-numbers at runtime', () => {
    expect(isValidPercent('50' as unknown as number)).toBe(false);
  });
});
