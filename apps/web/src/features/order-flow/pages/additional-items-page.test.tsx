import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { customerKeys, getCustomerQueryOptions, refreshCustomer } from '../../../api/customers';
import { makeCustomer, signInAs } from '../../../test/factories';
import { fakeApi } from '../../../test/fake-api';
import { renderApp } from '../../../test/render-app';

/*
 * #/additional-items/{customerId}/{storeId} reads the customer record through the shared query (api/customers.ts),
 * so a change to the customer from any screen refreshes it (decision 105). It used to cache the record under a key
 * of its own, which no customer edit refreshed.
 */

const CUSTOMER = '/api/customers/100001/tok';

describe('Additional items: the customer record', () => {
  it('is the customer page’s own query: a change to the customer refreshes the page', async () => {
    let legalName = 'Corner Deli LLC';
    const { calls } = fakeApi({
      ...signInAs('Customer Support'),
      [`GET ${CUSTOMER}`]: () => makeCustomer({ legal_name: legalName }),
      'GET /api/products/tok/all': { currency: 'USD', products: [] },
    });
    const { queryClient } = renderApp('#/additional-items/100001/500002');
    expect(await screen.findByText(/Corner Deli LLC · store 500002/)).toBeTruthy();
    expect(queryClient.getQueryData(getCustomerQueryOptions(100001).queryKey)?.legal_name).toBe('Corner Deli LLC');
    expect(getCustomerQueryOptions(100001).queryKey.slice(0, 3)).toEqual([...customerKeys.customer(100001)]);

    // What every customer edit does afterwards (the customer screens' useCustomerMutation).
    legalName = 'Corner Deli Holdings LLC';
    await refreshCustomer(queryClient, 100001);
    expect(await screen.findByText(/Corner Deli Holdings LLC · store 500002/)).toBeTruthy();
    expect(calls.filter((c) => c.path === CUSTOMER)).toHaveLength(2);
  });

  it('a Canadian store prices in C$', async () => {
    fakeApi({
      ...signInAs('Customer Support'),
      [`GET ${CUSTOMER}`]: makeCustomer({ country: 'CA' }),
      'GET /api/products/tok/all': {
        currency: 'CAD',
        products: [
          {
            product_id: 1,
            name: 'Terminal',
            sku: 'T-1',
            kind: 'terminal',
            description: null,
            terminal_product: true,
            petro_product: false,
            unit_price_cents: 149_900,
            currency: 'CAD',
          },
        ],
      },
    });
    renderApp('#/additional-items/100001/500002');
    const products = await screen.findByRole('table', { name: 'Hardware and products' });
    expect(products.textContent).toContain('C$1,499.00');
    expect(document.body.textContent).not.toContain('CA$');
  });
});
