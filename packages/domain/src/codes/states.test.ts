import { describe, expect, it } from 'vitest';
import { CA_PROVINCES, US_STATES, isStateOf, stateName, statesFor } from './states';

describe('state lists', () => {
  it('has 57 US entries with unique two-letter codes', () => {
    expect(US_STATES).toHaveLength(57);
    const codes = US_STATES.map((s) => s.code);
    expect(new Set(codes).size).toBe(57);
    for (const s of US_STATES) {
      expect(s.code).toMatch(/^[A-Z]{2}$/);
      expect(s.name.length).toBeGreaterThan(2);
    }
    expect(new Set(US_STATES.map((s) => s.name)).size).toBe(57);
  });

  it('includes DC, the territories and the Marshall Islands', () => {
    const codes = US_STATES.map((s) => s.code);
    expect(codes).toEqual(expect.arrayContaining(['DC', 'PR', 'VI', 'GU', 'AS', 'MP', 'MH']));
    expect(codes).not.toContain('FM');
    expect(codes).not.toContain('PW');
    expect(stateName('US', 'PR')).toBe('Puerto Rico');
    expect(stateName('US', 'DC')).toBe('District of Columbia');
  });

  it('has 13 Canadian provinces and territories with unique two-letter codes', () => {
    expect(CA_PROVINCES).toHaveLength(13);
    expect(new Set(CA_PROVINCES.map((s) => s.code)).size).toBe(13);
    for (const s of CA_PROVINCES) expect(s.code).toMatch(/^[A-Z]{2}$/);
    expect(CA_PROVINCES.map((s) => s.code).sort()).toEqual([
      'AB',
      'BC',
      'MB',
      'NB',
      'NL',
      'NS',
      'NT',
      'NU',
      'ON',
      'PE',
      'QC',
      'SK',
      'YT',
    ]);
  });

  it('looks lists up by country', () => {
    expect(statesFor('US')).toBe(US_STATES);
    expect(statesFor('CA')).toBe(CA_PROVINCES);
    expect(statesFor('GT')).toEqual([]);
    expect(isStateOf('CA', 'ON')).toBe(true);
    expect(isStateOf('US', 'ON')).toBe(false);
    expect(isStateOf('CA', 'NY')).toBe(false);
    expect(isStateOf('GT', 'anything')).toBe(true);
  });
});
