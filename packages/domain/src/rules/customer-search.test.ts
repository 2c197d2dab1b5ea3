import { describe, expect, it } from 'vitest';
import {
  CUSTOMER_SEARCH_KINDS,
  guessCustomerSearchKind,
  isMerchantSearchReady,
  MERCHANT_SEARCH_HINT,
  normalizeFederalTaxId,
  resolveCustomerSearchQuery,
} from './customer-search';

describe('customer search query', () => {
  it('knows the four kinds', () => {
    expect(CUSTOMER_SEARCH_KINDS).toEqual(['customerid', 'search', 'storeid', 'federaltaxid']);
  });

  it('returns the single kind with its trimmed value', () => {
    expect(resolveCustomerSearchQuery({ storeid: ' 55 ' })).toEqual({ ok: true, kind: 'storeid', value: '55' });
    expect(resolveCustomerSearchQuery({ federaltaxid: '12-3456789', limit: '20', offset: 0 })).toEqual({
      ok: true,
      kind: 'federaltaxid',
      value: '12-3456789',
    });
    expect(resolveCustomerSearchQuery({ search: 'deli', customerid: '' })).toMatchObject({ ok: true, kind: 'search' });
  });

  it('refuses zero kinds', () => {
    expect(resolveCustomerSearchQuery({})).toMatchObject({ ok: false, code: 'no_kind' });
    expect(resolveCustomerSearchQuery({ search: '   ', limit: 5 })).toMatchObject({ ok: false, code: 'no_kind' });
  });

  it('refuses several kinds', () => {
    const r = resolveCustomerSearchQuery({ customerid: '1', storeid: '2' });
    expect(r).toMatchObject({ ok: false, code: 'several_kinds' });
    if (!r.ok) expect(r.message).toBe('Search by one kind at a time, not customerid and storeid.');
  });

  it('refuses unknown kinds', () => {
    const r = resolveCustomerSearchQuery({ email: 'a@b.co' });
    expect(r).toMatchObject({ ok: false, code: 'unknown_kind' });
    if (!r.ok) expect(r.message).toContain('email');
    expect(resolveCustomerSearchQuery({ storeid: '1', limit: '5' }, [])).toMatchObject({ code: 'unknown_kind' });
  });
});

describe('guessing the kind from the search box', () => {
  it.each([
    ['12345', 'customerid', '12345'],
    ['C123', 'customerid', '123'],
    ['c7', 'customerid', '7'],
    ['1234567890', 'customerid', '1234567890'],
    ['S123', 'storeid', '123'],
    ['s9', 'storeid', '9'],
    ['12-3456789', 'federaltaxid', '12-3456789'],
    ['123456789', 'federaltaxid', '12-3456789'],
    ['Corner Market', 'search', 'Corner Market'],
    ['  SuperMart  ', 'search', 'SuperMart'],
    ['C12a', 'search', 'C12a'],
    ['1-23456789', 'search', '1-23456789'],
  ] as const)('%s → %s %s', (text, kind, value) => {
    expect(guessCustomerSearchKind(text)).toEqual({ kind, value });
  });

  it('blank text is nothing to search', () => {
    expect(guessCustomerSearchKind('   ')).toBeNull();
  });

  it('normalises federal tax ids', () => {
    expect(normalizeFederalTaxId(' 987654321 ')).toBe('98-7654321');
    expect(normalizeFederalTaxId('98-765432')).toBeNull();
  });
});

describe('isMerchantSearchReady (issue 30)', () => {
  it('an id at once, text from the search call’s minimum', () => {
    expect(isMerchantSearchReady('7')).toBe(true);
    expect(isMerchantSearchReady(' ma ')).toBe(false);
    expect(isMerchantSearchReady('mar')).toBe(true);
    expect(MERCHANT_SEARCH_HINT).toBe('an id, or at least 3 letters of the name');
  });
});
