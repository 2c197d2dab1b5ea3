import { describe, expect, it } from 'vitest';
import { customerPageHref, customerPageParams, editPagePath, parseCustomerPageParams, parseSort } from './url-state';

const parse = (query: string) => parseCustomerPageParams(new URLSearchParams(query));

describe('customer page address (decision 060)', () => {
  it('reads a search: q, page and sort', () => {
    expect(parse('q=acme&page=3&sort=-legal_name')).toEqual({
      q: 'acme',
      page: 3,
      sort: { column: 'legal_name', direction: 'desc' },
      customerId: null,
      storeId: null,
      tab: 'terminals',
    });
  });

  it('reads a customer with store and tab', () => {
    expect(parse('id=100001&store=500002&tab=notes')).toMatchObject({
      customerId: 100001,
      storeId: 500002,
      tab: 'notes',
    });
  });

  it('ignores what it cannot use: bad ids, pages, sorts and tabs fall back to defaults', () => {
    expect(parse('id=abc&store=-1&page=0&sort=DROP%20TABLE&tab=secret')).toEqual({
      q: '',
      page: 1,
      sort: null,
      customerId: null,
      storeId: null,
      tab: 'terminals',
    });
  });

  it('writes canonical addresses: defaults left out, search paging dropped when a customer is open', () => {
    expect(customerPageHref({})).toBe('#/customer');
    expect(customerPageHref({ q: ' acme ', page: 1, sort: null })).toBe('#/customer?q=acme');
    expect(customerPageHref({ q: 'acme', page: 2, sort: { column: 'store_name', direction: 'asc' } })).toBe(
      '#/customer?q=acme&page=2&sort=store_name',
    );
    expect(customerPageHref({ customerId: 100001, storeId: 500002, tab: 'terminals', q: 'acme', page: 4 })).toBe(
      '#/customer?id=100001&store=500002&q=acme',
    );
    expect(customerPageHref({ customerId: 100001, tab: 'activity' })).toBe('#/customer?id=100001&tab=activity');
  });

  it('round-trips', () => {
    const state = parse('id=100007&store=500010&tab=sales-history&q=deli');
    expect(parse(customerPageParams(state).toString())).toEqual(state);
  });

  it('parseSort accepts only a column name with an optional minus', () => {
    expect(parseSort('doing_business_as')).toEqual({ column: 'doing_business_as', direction: 'asc' });
    expect(parseSort('--x')).toBeNull();
    expect(parseSort('Name')).toBeNull();
  });

  it('edit page links carry customer and store', () => {
    expect(editPagePath('editpayment', 100001, 500002)).toBe('/editpayment?customer=100001&store=500002');
    expect(editPagePath('editplan', 100001, null)).toBe('/editplan?customer=100001');
  });
});
