import { describe, expect, it } from 'vitest';
import { STORE_FILTER_FIELDS, filterStores, storeFilterApplies } from './store-filter';

const stores = [
  { bracct: 'BR1001', sales_rep: 'Jane Smith', store_name: 'Corner Market', doing_business_as: 'Jane Corner' },
  { bracct: 'BR2002', sales_rep: 'Omar Ali', store_name: 'Fuel Stop', doing_business_as: 'Quick Gas' },
  { bracct: 3003, sales_rep: null, store_name: 'Deli Ten', doing_business_as: undefined },
];

describe('store filter', () => {
  it('applies from 3 characters, white space not counted', () => {
    expect(storeFilterApplies('ab')).toBe(false);
    expect(storeFilterApplies('abc')).toBe(true);
    expect(storeFilterApplies('  ab  ')).toBe(false);
    expect(storeFilterApplies('')).toBe(false);
    expect(storeFilterApplies(undefined)).toBe(false);
  });

  it('2-character text does not filter', () => {
    const out = filterStores(stores, 'zz');
    expect(out).toEqual(stores);
    expect(out).not.toBe(stores);
  });

  it('matches each field, case-insensitively', () => {
    expect(STORE_FILTER_FIELDS).toEqual(['bracct', 'sales_rep', 'store_name', 'doing_business_as']);
    expect(filterStores(stores, 'br2').map((s) => s.bracct)).toEqual(['BR2002']);
    expect(filterStores(stores, 'OMAR').map((s) => s.bracct)).toEqual(['BR2002']);
    expect(filterStores(stores, 'corner').map((s) => s.bracct)).toEqual(['BR1001']);
    expect(filterStores(stores, 'quick gas').map((s) => s.bracct)).toEqual(['BR2002']);
    expect(filterStores(stores, '300').map((s) => s.bracct)).toEqual([3003]);
  });

  it('matches any field and keeps order', () => {
    expect(filterStores(stores, 'jane').map((s) => s.bracct)).toEqual(['BR1001']);
    // 'mar' is in store_name 'Corner Market' and in sales_rep 'Omar Ali'
    expect(filterStores(stores, ' MAR ').map((s) => s.bracct)).toEqual(['BR1001', 'BR2002']);
    // trimmed to 2 characters: no filtering at all
    expect(filterStores(stores, ' br ').map((s) => s.bracct)).toEqual(['BR1001', 'BR2002', 3003]);
    expect(filterStores(stores, 'nothing like it')).toEqual([]);
  });
});
