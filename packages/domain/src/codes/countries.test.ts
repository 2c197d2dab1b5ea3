import { describe, expect, it } from 'vitest';
import {
  COUNTRIES,
  COUNTRY_NAMES,
  createsProcessorCustomer,
  MERCHANT_COUNTRIES,
  MERCHANT_COUNTRY_CODES,
  isCanadian,
  isCountryCode,
  isMerchantCountry,
} from './countries';

describe('countries', () => {
  it('merchant countries carry the §3 zip rules', () => {
    expect(MERCHANT_COUNTRY_CODES).toEqual(['US', 'CA']);
    expect(MERCHANT_COUNTRIES.US).toMatchObject({ zipLength: 5, zipMask: '00000', createsProcessorCustomer: true });
    expect(MERCHANT_COUNTRIES.CA).toMatchObject({ zipLength: 7, zipMask: 'S0S 0S0', createsProcessorCustomer: false });
    expect([createsProcessorCustomer('US'), createsProcessorCustomer('CA'), createsProcessorCustomer('MEX')]).toEqual([
      true,
      false,
      false,
    ]);
    expect(MERCHANT_COUNTRIES.CA.zipMask).toHaveLength(MERCHANT_COUNTRIES.CA.zipLength);
    expect(isMerchantCountry('CA')).toBe(true);
    expect(isMerchantCountry('MEX')).toBe(false);
  });

  it('has the §9 country list in order', () => {
    expect(COUNTRIES.map((c) => c.code)).toEqual(['US', 'GT', 'CA', 'IN', 'PA', 'PAK', 'MEX', 'DR']);
    expect(COUNTRY_NAMES.GT).toBe('Guatemala');
    expect(COUNTRY_NAMES.PAK).toBe('Pakistan');
    expect(COUNTRY_NAMES.DR).toBe('Dominican Republic');
    expect(COUNTRIES.find((c) => c.code === 'MEX')?.name).toBe('Mexico');
  });

  it('recognises country codes and the Canadian variant', () => {
    expect(isCountryCode('PA')).toBe(true);
    expect(isCountryCode('FR')).toBe(false);
    expect(isCountryCode('toString')).toBe(false);
    expect(isCanadian('CA')).toBe(true);
    expect(isCanadian('US')).toBe(false);
    expect(isCanadian(undefined)).toBe(false);
  });
});
