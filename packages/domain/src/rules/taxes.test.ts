import { describe, expect, it } from 'vitest';
import { adminTaxRateCreate } from '../contracts/taxes';
import { certificateStatus, rateInForce, saleTaxExempt, type TaxRateVersionRow } from './taxes';

const bc: TaxRateVersionRow[] = [
  { component: 'GST', rateBasisPoints: 500, label: 'GST', effectiveOn: '2000-01-01' },
  { component: 'PST', rateBasisPoints: 700, label: 'PST', effectiveOn: '2000-01-01' },
  // From 2027-01-01 the province moves to HST: the version replaces both components.
  { component: 'HST', rateBasisPoints: 1300, label: 'HST', effectiveOn: '2027-01-01' },
];

describe('rateInForce (decision 127)', () => {
  it('takes the components of the latest version on or before the day, summed', () => {
    expect(rateInForce(bc, '2026-12-31')).toEqual({
      effectiveOn: '2000-01-01',
      rateBasisPoints: 1200,
      label: 'GST + PST',
      components: [
        { component: 'GST', rateBasisPoints: 500, label: 'GST' },
        { component: 'PST', rateBasisPoints: 700, label: 'PST' },
      ],
    });
    expect(rateInForce(bc, '2027-01-01')).toMatchObject({ effectiveOn: '2027-01-01', rateBasisPoints: 1300 });
    expect(rateInForce(bc, '1999-12-31')).toEqual({ effectiveOn: null, rateBasisPoints: 0, label: '', components: [] });
  });
});

describe('saleTaxExempt', () => {
  const az = { country: 'US', state: 'az' };
  const cert = { state: 'AZ', expiresOn: '2026-12-10', revokedAt: null };
  it('an Arizona store with a certificate valid on the sale date, up to its expiry day included', () => {
    expect(saleTaxExempt(az, [cert], '2026-12-10')).toBe(true);
    expect(saleTaxExempt(az, [cert], '2026-12-11')).toBe(false);
    expect(saleTaxExempt(az, [{ ...cert, revokedAt: '2026-11-01T00:00:00Z' }], '2026-11-22')).toBe(false);
    expect(saleTaxExempt(az, [{ ...cert, expiresOn: null }], '2026-11-22')).toBe(false);
    expect(saleTaxExempt({ country: 'US', state: 'TX' }, [cert], '2026-11-22')).toBe(false);
    expect(saleTaxExempt(az, [], '2026-11-22')).toBe(false);
  });
  it('a certificate is expiring within 30 days, then expired', () => {
    expect(certificateStatus(cert, '2026-11-09')).toBe('valid');
    expect(certificateStatus(cert, '2026-11-10')).toBe('expiring');
    expect(certificateStatus(cert, '2026-12-11')).toBe('expired');
  });
});

describe('adminTaxRateCreate', () => {
  const base = { country: 'CA', state: 'on', effective_on: '2027-01-01' };
  it('takes GST and PST or HST for a province, STATE for a US state', () => {
    expect(
      adminTaxRateCreate.parse({ ...base, components: [{ component: 'HST', rate_basis_points: 1300 }] }).state,
    ).toBe('ON');
    expect(
      adminTaxRateCreate.safeParse({
        ...base,
        components: [
          { component: 'HST', rate_basis_points: 1300 },
          { component: 'PST', rate_basis_points: 800 },
        ],
      }).success,
    ).toBe(false);
    expect(
      adminTaxRateCreate.safeParse({ ...base, components: [{ component: 'STATE', rate_basis_points: 1300 }] }).success,
    ).toBe(false);
  });
});
