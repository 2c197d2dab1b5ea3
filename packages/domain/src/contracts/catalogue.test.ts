import { describe, expect, it } from 'vitest';
import { billingItemCatalogue, billingItemCatalogueQuery } from './catalogue';
import { fieldsFromZodError } from './common';

describe('billingItemCatalogueQuery', () => {
  it('leaves both optional (the server resolves the currency), normalises the currency, and drops empty values', () => {
    expect(billingItemCatalogueQuery.parse({})).toEqual({});
    expect(billingItemCatalogueQuery.parse({ custstoreid: '500002', currency: ' cad ' })).toEqual({
      custstoreid: 500002,
      currency: 'CAD',
    });
    expect(billingItemCatalogueQuery.parse({ custstoreid: '', currency: '' })).toEqual({
      custstoreid: undefined,
      currency: undefined,
    });
  });

  it('names the field of each mistake', () => {
    const r = billingItemCatalogueQuery.safeParse({ custstoreid: '0', currency: 'EUR' });
    expect(r.success).toBe(false);
    expect(fieldsFromZodError(r.error!)).toEqual({
      custstoreid: 'The store id is a positive number.',
      currency: 'Choose USD or CAD.',
    });
  });
});

describe('billingItemCatalogue', () => {
  it('accepts an item without a category or a price, and refuses an unknown feature flag', () => {
    const item = {
      billing_item_id: 30,
      name: 'Other charges',
      category: null,
      feature: 'N',
      charge_at_level: 'S',
      recurring: false,
      active: true,
      unit_price_cents: null,
      currency: 'USD',
    };
    expect(billingItemCatalogue.safeParse({ currency: 'USD', billing_items: [item] }).success).toBe(true);
    expect(
      billingItemCatalogue.safeParse({ currency: 'USD', billing_items: [{ ...item, feature: 'X' }] }).success,
    ).toBe(false);
  });
});
