import { describe, expect, it } from 'vitest';
import { fieldsFromZodError } from './common';
import {
  customerSearchQuery,
  parseSort,
  storeAddressRequest,
  updateCustomerRequest,
  updateStoreRequest,
} from './customers';

const fieldsOf = (r: { success: boolean; error?: unknown }) =>
  r.success ? null : fieldsFromZodError(r.error as Parameters<typeof fieldsFromZodError>[0]);

describe('customerSearchQuery', () => {
  it('resolves the one search kind and normalises its value', () => {
    expect(customerSearchQuery.parse({ search: '  Sun  ' })).toEqual({
      kind: 'search',
      value: 'Sun',
      limit: 50,
      offset: 0,
      sort: undefined,
      format: 'json',
    });
    expect(customerSearchQuery.parse({ federaltaxid: '123456789', format: 'csv' })).toMatchObject({
      kind: 'federaltaxid',
      value: '12-3456789',
      format: 'csv',
    });
    expect(customerSearchQuery.parse({ customerid: '00100001', limit: '10', sort: '-legal_name' })).toMatchObject({
      kind: 'customerid',
      value: '100001',
      limit: 10,
      sort: '-legal_name',
    });
    // Blank kinds are ignored, as resolveCustomerSearchQuery does.
    expect(customerSearchQuery.parse({ storeid: '5', search: '' })).toMatchObject({ kind: 'storeid', value: '5' });
  });

  it.each([
    [{}, { _: 'Give one of customerid, search, storeid, federaltaxid.' }],
    [
      { search: 'sun', storeid: '5' },
      { search: expect.stringMatching(/one kind at a time/), storeid: expect.stringMatching(/one kind at a time/) },
    ],
    [{ name: 'sun' }, { name: expect.stringMatching(/Unknown search kind: name/) }],
    [{ search: 'su' }, { search: 'Search with 3 to 100 characters.' }],
    [{ search: 'x'.repeat(101) }, { search: 'Search with 3 to 100 characters.' }],
    [{ storeid: '99999999999' }, { storeid: 'A store id is a positive whole number.' }],
    [{ customerid: '0' }, { customerid: 'A customer id is a positive whole number.' }],
    [{ federaltaxid: '12-345' }, { federaltaxid: 'A federal tax id is NN-NNNNNNN or 9 digits.' }],
    [{ search: 'sun', sort: 'secret' }, { sort: expect.stringMatching(/^Sort by one of customer_id/) }],
  ])('refuses %j', (query, fields) => {
    expect(fieldsOf(customerSearchQuery.safeParse(query))).toEqual(fields);
  });
});

describe('parseSort', () => {
  it('splits the direction from the field, with a fallback', () => {
    expect(parseSort('-legal_name', 'customer_id')).toEqual({ field: 'legal_name', desc: true });
    expect(parseSort('store_id', 'customer_id')).toEqual({ field: 'store_id', desc: false });
    expect(parseSort(undefined, 'customer_id')).toEqual({ field: 'customer_id', desc: false });
  });
});

describe('edit requests', () => {
  const sk = { address1: '1 Main St', city: 'Regina', state: 'SK', zip: 's4p3y2', country: 'CA' };

  it('a store address edit needs the version; a new store needs its DBA; the postal code is normalised', () => {
    expect(storeAddressRequest.parse({ customer_store_id: 5, version: 3, address: sk }).address.zip).toBe('S4P 3Y2');
    expect(fieldsOf(storeAddressRequest.safeParse({ customer_store_id: 5, address: sk }))).toEqual({
      version: 'Send the version of the store you edited.',
    });
    expect(fieldsOf(storeAddressRequest.safeParse({ address: sk }))).toEqual({
      doing_business_as: 'A new store needs its DBA name.',
    });
    expect(
      fieldsOf(storeAddressRequest.safeParse({ address: { ...sk, zip: '12345' }, doing_business_as: 'X' })),
    ).toEqual({
      'address.zip': 'Canadian postal code must look like A1A 1A1.',
    });
  });

  it('store and customer edits need a version and at least one field; blank optional text clears it', () => {
    expect(fieldsOf(updateStoreRequest.safeParse({ version: 1 }))).toEqual({ _: 'Send at least one field to change.' });
    expect(updateStoreRequest.parse({ version: 1, mobile_phone: '', kind_of_business: ' ' })).toEqual({
      version: 1,
      mobile_phone: null,
      kind_of_business: null,
    });
    expect(fieldsOf(updateCustomerRequest.safeParse({ legal_name: 'X' }))).toEqual({
      version: 'Send the version you edited (a whole number).',
    });
    expect(updateCustomerRequest.parse({ version: 2, federal_tax_id: '987654321' }).federal_tax_id).toBe('98-7654321');
    expect(fieldsOf(updateCustomerRequest.safeParse({ version: 2, phone: '12' }))).toEqual({
      phone: expect.stringMatching(/phone number/),
    });
  });
});
