import type {
  BillingItemCatalogue,
  BundleCatalogue,
  BundlePriceOptionList,
  CurrencyCode,
  ProductCatalogue,
  ReferralLookup,
} from '@pos/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { errorResponse, fakeApi, type FakeRequest } from '../../../test/fake-api';
import { signInAs } from '../../../test/factories';
import { renderApp } from '../../../test/render-app';

const BILLING_ITEMS = '/api/customers/billingitems/tok/all';
const CATEGORIES = '/api/customers/billingitemcategories/tok';
const TERMINALS = '/api/products/terminals/tok/all';
const BUNDLES = '/api/bundles/tok/all';
const PRICE_OPTIONS = '/api/bundles/billingitempriceoptions/tok';

const currencyOf = (r: FakeRequest): CurrencyCode => (r.query.get('currency') === 'CAD' ? 'CAD' : 'USD');

function billingItems(r: FakeRequest): BillingItemCatalogue {
  const currency = currencyOf(r);
  const item = (id: number, name: string, category: { id: number; name: string } | null, cents: number | null) => ({
    billing_item_id: id,
    name,
    category,
    feature: 'N' as const,
    charge_at_level: 'S' as const,
    recurring: true,
    active: true,
    unit_price_cents: cents,
    currency,
  });
  return {
    currency,
    billing_items: [
      item(1, 'POS software license', { id: 3, name: 'Software' }, currency === 'CAD' ? 5_999 : 4_999),
      item(2, 'Payment processing', { id: 4, name: 'Services' }, 1_250),
      item(3, 'Legacy support', null, null),
    ],
  };
}

const terminals = (r: FakeRequest): ProductCatalogue => ({
  currency: currencyOf(r),
  products: [
    {
      product_id: 1,
      name: 'Countertop terminal',
      sku: 'TERM-1',
      kind: 'terminal',
      description: 'The standard terminal',
      terminal_product: true,
      petro_product: false,
      unit_price_cents: 129_900,
      currency: currencyOf(r),
    },
    {
      product_id: 2,
      name: 'Petro terminal',
      sku: 'PETRO-2',
      kind: 'terminal',
      description: null,
      terminal_product: false,
      petro_product: true,
      unit_price_cents: null,
      currency: currencyOf(r),
    },
  ],
});

const bundles = (r: FakeRequest): BundleCatalogue => ({
  currency: currencyOf(r),
  bundles: [
    {
      bundle_id: 9,
      name: 'NRS Pay Essentials',
      description: null,
      nrs_pay: true,
      items: [],
      monthly_price_cents: 3_999,
      currency: currencyOf(r),
    },
    {
      bundle_id: 12,
      name: 'Retail Plus',
      description: null,
      nrs_pay: false,
      items: [],
      monthly_price_cents: 5_999,
      currency: currencyOf(r),
    },
  ],
});

const priceOptions = (r: FakeRequest): BundlePriceOptionList => ({
  bundle_id: Number(r.query.get('bundle_id')),
  currency: currencyOf(r),
  reference_id: r.query.get('reference_id') ? Number(r.query.get('reference_id')) : null,
  options: [
    {
      price_option_id: 70,
      billing_item_id: 1,
      billing_item_name: 'POS software license',
      reference_id: 5,
      label: 'Yearly plan',
      price_cents: 47_988,
      term: 12,
    },
  ],
});

const referral: ReferralLookup = {
  referral_id: 1,
  ref_code: 'REF-DEMO1',
  name: 'Demo Distributor LLC referral',
  agent_id: 4,
  agent_name: 'Demo Distributor LLC',
  discount_cents: 5_000,
  currency: 'USD',
};

function lookupsApi() {
  return fakeApi({
    ...signInAs('Distributor'),
    [`GET ${BILLING_ITEMS}`]: billingItems,
    [`GET ${CATEGORIES}`]: {
      categories: [
        { id: 4, name: 'Services' },
        { id: 3, name: 'Software' },
      ],
    },
    [`GET ${TERMINALS}`]: terminals,
    [`GET ${BUNDLES}`]: bundles,
    [`GET ${PRICE_OPTIONS}`]: priceOptions,
    'GET /api/customers/referrals/REF-DEMO1/tok': referral,
    'GET /api/customers/referrals/REF-NOPE/tok': errorResponse(
      404,
      'not_found',
      'No active referral has the code REF-NOPE.',
    ),
  });
}

const lastCall = (calls: FakeRequest[], path: string) => calls.filter((c) => c.path === path).at(-1);

describe('look-ups (#/lookups)', { timeout: 20_000 }, () => {
  it('billing items: the price in the chosen currency, filtered by a category from the categories call', async () => {
    const { calls } = lookupsApi();
    const user = userEvent.setup();
    renderApp('#/lookups');
    await screen.findByRole('heading', { name: 'Look-ups', level: 1 });
    const table = await screen.findByRole('table', { name: 'Billing items — 3 items' });
    const license = within(table).getByText('POS software license').closest('tr')!;
    expect(within(license).getByText('Software')).toBeTruthy();
    expect(within(license).getByText('$49.99')).toBeTruthy();
    const legacy = within(table).getByText('Legacy support').closest('tr')!;
    expect(within(legacy).getByText('Without a category')).toBeTruthy();
    expect(within(legacy).getByText('No USD price')).toBeTruthy();

    const filters = screen.getByRole('search', { name: 'Filter billing items' });
    const category = within(filters).getByRole('combobox', { name: 'Category' });
    await waitFor(() => expect(within(category).getByRole('option', { name: 'Services' })).toBeTruthy());
    await user.selectOptions(category, 'Software');
    const filtered = await screen.findByRole('table', { name: 'Billing items — 1 item' });
    expect(within(filtered).queryByText('Payment processing')).toBeNull();
    expect(window.location.hash).toBe('#/lookups?category=3');

    await user.selectOptions(within(filters).getByRole('combobox', { name: 'Currency' }), 'CAD');
    await within(await screen.findByRole('table', { name: 'Billing items — 1 item' })).findByText('C$59.99');
    expect(lastCall(calls, BILLING_ITEMS)?.query.get('currency')).toBe('CAD');
    expect(window.location.hash).toBe('#/lookups?currency=CAD&category=3');
  });

  it('terminal products: the tab is in the address and lists what the server answers', async () => {
    const { calls } = lookupsApi();
    const user = userEvent.setup();
    renderApp('#/lookups');
    await user.click(await screen.findByRole('tab', { name: 'Terminal products' }));
    const table = await screen.findByRole('table', { name: 'Terminal products — 2 products' });
    expect(window.location.hash).toBe('#/lookups?tab=terminals');
    const row = within(table).getByText('Countertop terminal').closest('tr')!;
    expect(within(row).getByText('TERM-1')).toBeTruthy();
    expect(within(row).getByText('$1,299.00')).toBeTruthy();
    expect(within(row).getByText('Terminal product')).toBeTruthy();
    expect(within(within(table).getByText('Petro terminal').closest('tr')!).getByText('No USD price')).toBeTruthy();
    expect(lastCall(calls, TERMINALS)?.query.get('currency')).toBe('USD');
  });

  it('terminal products that cannot be read: an alert says what happened and what to do', async () => {
    fakeApi({ ...signInAs('Distributor'), [`GET ${TERMINALS}`]: errorResponse(500, 'internal', 'Server error') });
    renderApp('#/lookups?tab=terminals');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Server problem');
    expect(alert.textContent).toContain('Try again in a moment');
  });

  it('bundle prices: a bundle must be chosen; then its price options, with the optional reference id', async () => {
    const { calls } = lookupsApi();
    const user = userEvent.setup();
    renderApp('#/lookups?tab=bundle-prices');
    const filters = await screen.findByRole('search', { name: 'Choose a bundle' });
    expect(screen.getByText('Choose a currency and a bundle, then press Show price options.')).toBeTruthy();
    await user.click(within(filters).getByRole('button', { name: 'Show price options' }));
    expect(await within(filters).findByText('Choose a bundle.')).toBeTruthy();
    expect(calls.some((c) => c.path === PRICE_OPTIONS)).toBe(false);

    const bundle = within(filters).getByRole('combobox', { name: 'Bundle' });
    await waitFor(() => expect(within(bundle).getByRole('option', { name: 'Retail Plus' })).toBeTruthy());
    await user.selectOptions(bundle, 'Retail Plus');
    await user.type(within(filters).getByRole('textbox', { name: /Reference id/ }), '5');
    await user.click(within(filters).getByRole('button', { name: 'Show price options' }));

    const table = await screen.findByRole('table', { name: 'Price options of Retail Plus in USD — 1 option' });
    const row = within(table).getByText('Yearly plan').closest('tr')!;
    expect(within(row).getByText('POS software license')).toBeTruthy();
    expect(within(row).getByText('Reference 5')).toBeTruthy();
    expect(within(row).getByText('12 months')).toBeTruthy();
    expect(within(row).getByText('$479.88')).toBeTruthy();
    expect(Object.fromEntries(lastCall(calls, PRICE_OPTIONS)!.query)).toEqual({
      bundle_id: '12',
      currency: 'USD',
      reference_id: '5',
    });
    expect(window.location.hash).toBe('#/lookups?tab=bundle-prices&bundle_id=12&reference_id=5');
  });

  it('referral: Look up shows its fields; a code nobody has is said in words', async () => {
    lookupsApi();
    const user = userEvent.setup();
    renderApp('#/lookups?tab=referral');
    const form = await screen.findByRole('search', { name: 'Look up a referral' });
    await user.type(within(form).getByRole('textbox', { name: /Referral id/ }), 'REF-DEMO1');
    await user.click(within(form).getByRole('button', { name: 'Look up' }));
    const details = await screen.findByRole('table', { name: 'Referral REF-DEMO1' });
    expect(within(details).getByText('Demo Distributor LLC referral')).toBeTruthy();
    expect(within(details).getByText('Demo Distributor LLC (agent 4)')).toBeTruthy();
    expect(within(details).getByText('$50.00')).toBeTruthy();
    expect(window.location.hash).toBe('#/lookups?tab=referral&ref=REF-DEMO1');

    const field = within(form).getByRole('textbox', { name: /Referral id/ });
    await user.clear(field);
    await user.type(field, 'REF-NOPE');
    await user.click(within(form).getByRole('button', { name: 'Look up' }));
    const missing = await screen.findByRole('alert');
    expect(missing.textContent).toContain('No referral REF-NOPE');
    expect(missing.textContent).toContain('No active referral has the code or id REF-NOPE.');
    expect(screen.queryByRole('table', { name: 'Referral REF-DEMO1' })).toBeNull();
  });

  it('a copied address opens the referral it names', async () => {
    lookupsApi();
    renderApp('#/lookups?tab=referral&ref=REF-DEMO1');
    expect(await screen.findByRole('table', { name: 'Referral REF-DEMO1' })).toBeTruthy();
    expect(screen.getByRole('textbox', { name: /Referral id/ })).toHaveProperty('value', 'REF-DEMO1');
  });
});
