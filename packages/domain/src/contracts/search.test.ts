import { describe, expect, it } from 'vitest';
import { GLOBAL_SEARCH_PRIVILEGES, globalSearchQuery, globalSearchTerms, searchKindsFor } from './search';
import { privilegesForRole } from '../access/roles';

describe('global search terms', () => {
  it('digits are a customer, store and order id, and text once they have 3 characters', () => {
    expect(globalSearchTerms(' 500002 ')).toEqual({
      exact: '500002',
      customerId: 500002,
      storeId: 500002,
      orderId: 500002,
      federalTaxId: null,
      text: '500002',
    });
    expect(globalSearchTerms('7')).toMatchObject({ customerId: 7, storeId: 7, orderId: 7, text: null });
  });

  it('C123 is only a customer id, S123 only a store id', () => {
    expect(globalSearchTerms('C100001')).toMatchObject({ customerId: 100001, storeId: null, orderId: null });
    expect(globalSearchTerms('s500002')).toMatchObject({ customerId: null, storeId: 500002, orderId: null });
  });

  it('a federal tax id, with or without its dash, in its canonical form', () => {
    expect(globalSearchTerms('12-3456789')?.federalTaxId).toBe('12-3456789');
    expect(globalSearchTerms('123456789')?.federalTaxId).toBe('12-3456789');
  });

  it('text needs 3 characters (spec §5); blank or shorter text without an id is nothing to search', () => {
    expect(globalSearchTerms('mar')).toMatchObject({ text: 'mar', customerId: null, exact: 'mar' });
    expect(globalSearchTerms('ab')).toBeNull();
    expect(globalSearchTerms('   ')).toBeNull();
    expect(globalSearchTerms('99999999999')).toMatchObject({ customerId: null, text: '99999999999' });
  });

  it('the query schema trims, caps at 100 and names q when there is nothing to search', () => {
    expect(globalSearchQuery.parse({ q: ' Numbat ' })).toMatchObject({ q: 'Numbat', terms: { text: 'Numbat' } });
    const short = globalSearchQuery.safeParse({ q: 'ab' });
    expect(short.success).toBe(false);
    expect(short.error?.issues[0]).toMatchObject({ path: ['q'], message: 'Type at least 3 characters, or an id.' });
    expect(globalSearchQuery.safeParse({ q: 'x'.repeat(101) }).success).toBe(false);
    expect(globalSearchQuery.safeParse({}).success).toBe(false);
  });
});

describe('search kinds by privilege', () => {
  it('customer details open customers, stores and terminals; order privileges open orders', () => {
    expect(searchKindsFor(privilegesForRole('Operations'))).toEqual(['customer', 'store', 'terminal', 'order']);
    expect(searchKindsFor(privilegesForRole('Marketing'))).toEqual(['order']);
    expect(searchKindsFor(privilegesForRole('RDC'))).toEqual(['order']);
    expect(searchKindsFor(['reports_edit'])).toEqual([]);
    expect(GLOBAL_SEARCH_PRIVILEGES).toEqual(
      expect.arrayContaining([
        'customer_details_view',
        'customer_details_edit',
        'search_orders_view',
        'create_distributor_orders',
      ]),
    );
  });
});
