import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AdminBillingItem, AdminBundle, AdminDomainDataEntry, AdminProduct } from '@pos/domain';
import { describe, expect, it } from 'vitest';
import { setSession } from '../../../lib/session';
import { fakeApi, type FakeRequest } from '../../../test/fake-api';
import { jsonResponse, makeSession } from '../../../test/factories';
import { renderApp } from '../../../test/render-app';

const B = '/api/admin/catalogue';

function signInAdmin() {
  setSession(makeSession({ token: 'tok', role: 'Admin', name: 'Ada Admin', email: 'ada@example.com' }));
  return {
    'GET /api/auth/validate/tok': {
      maketoken: false,
      kind: 'staff',
      email: 'ada@example.com',
      name: 'Ada Admin',
      role: 'Admin',
      agent_id: null,
      account_manager_username: null,
      privileges: [],
      expires_at: '2030-01-01T00:00:00.000Z',
    },
  };
}

const item = (over: Partial<AdminBillingItem>): AdminBillingItem => ({
  billing_item_id: 8,
  name: 'Monthly service fee',
  category_id: 1,
  category_name: 'Service',
  feature: 'N',
  charge_at_level: 'S',
  recurring: true,
  active: true,
  prices: { USD: 7900, CAD: 9900 },
  version: 1,
  ...over,
});

const entry = (over: Partial<AdminDomainDataEntry>): AdminDomainDataEntry => ({
  id: 1,
  type: 'retire_reason',
  code: 'DAMAGED',
  label: 'Damaged',
  sort_order: 1,
  active: true,
  in_use: 3,
  version: 1,
  ...over,
});

const rowsOf = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .slice(1)
    .map((r) => within(r).getAllByRole('cell')[1]!.textContent);

describe('#/admin/catalogue', () => {
  it('lists billing items with prices through the money formatter; filter and sort; edits the USD price in cents', async () => {
    let items = [
      item({}),
      item({
        billing_item_id: 20,
        name: 'Shipping',
        category_name: null,
        category_id: null,
        prices: { USD: 2500, CAD: null },
      }),
      item({ billing_item_id: 53, name: 'Cash check fee', prices: { USD: 500, CAD: 650 }, active: false }),
    ];
    const { calls } = fakeApi({
      ...signInAdmin(),
      [`GET ${B}/billingitems/tok`]: () => ({ items, categories: [{ id: 1, name: 'Service', item_count: 2 }] }),
      [`PUT ${B}/billingitems/20/tok`]: (r: FakeRequest) => {
        const body = r.body as AdminBillingItem;
        items = items.map((i) =>
          i.billing_item_id === 20 ? { ...i, prices: { USD: body.prices.USD, CAD: body.prices.CAD }, version: 2 } : i,
        );
        return items.find((i) => i.billing_item_id === 20);
      },
    });
    const user = userEvent.setup();
    renderApp('#/admin/catalogue');
    const table = await screen.findByRole('table', { name: 'Billing items' });
    const shipping = within(table).getByText('Shipping').closest('tr')!;
    expect(within(shipping).getByText('$25.00')).toBeTruthy();
    expect(within(table).getByText('C$99.00')).toBeTruthy();

    await user.click(within(table).getByRole('button', { name: 'Name' }));
    expect(rowsOf(table)).toEqual(['Cash check feeRecurring', 'Monthly service feeRecurring', 'ShippingRecurring']);
    await user.click(within(table).getByRole('button', { name: 'Name' }));
    expect(rowsOf(table)[0]).toBe('ShippingRecurring');
    await user.type(screen.getByLabelText('Filter billing items'), 'ship');
    expect(rowsOf(table)).toEqual(['ShippingRecurring']);

    await user.click(within(table).getByRole('button', { name: 'Edit Shipping' }));
    const dialog = await screen.findByRole('dialog');
    const usd = within(dialog).getByLabelText('USD ($) price');
    expect((usd as HTMLInputElement).value).toBe('25.00');
    await user.clear(usd);
    await user.type(usd, '27.50');
    await user.click(within(dialog).getByRole('button', { name: 'Save billing item' }));
    expect(await screen.findByText('Billing item Shipping saved.')).toBeTruthy();
    const put = calls.find((c) => c.method === 'PUT')!;
    expect(put.body).toMatchObject({ prices: { USD: 2750, CAD: null }, version: 1, active: true });
    expect(await within(table).findByText('$27.50')).toBeTruthy();
  });

  it('refuses a price that is not an amount next to the field, without calling the server', async () => {
    const { calls } = fakeApi({
      ...signInAdmin(),
      [`GET ${B}/billingitems/tok`]: { items: [item({})], categories: [] },
    });
    const user = userEvent.setup();
    renderApp('#/admin/catalogue');
    await user.click(await screen.findByRole('button', { name: 'Edit Monthly service fee' }));
    const dialog = await screen.findByRole('dialog');
    const cad = within(dialog).getByLabelText('CAD (C$) price');
    await user.clear(cad);
    await user.type(cad, 'ten');
    await user.click(within(dialog).getByRole('button', { name: 'Save billing item' }));
    expect(
      await within(dialog).findByText('Enter the CAD price as an amount, e.g. 12.50, or leave it empty.'),
    ).toBeTruthy();
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
  });

  it('a stale version says someone else changed it and to reload', async () => {
    fakeApi({
      ...signInAdmin(),
      [`GET ${B}/billingitems/tok`]: { items: [item({})], categories: [] },
      [`PUT ${B}/billingitems/8/tok`]: () =>
        jsonResponse(409, {
          error: {
            code: 'version_conflict',
            message: 'Billing item 8 was changed by someone else since you opened it (you sent version 1).',
          },
        }),
    });
    const user = userEvent.setup();
    renderApp('#/admin/catalogue');
    await user.click(await screen.findByRole('button', { name: 'Edit Monthly service fee' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Save billing item' }));
    expect(await screen.findByText('Changed elsewhere')).toBeTruthy();
    expect(screen.getByText(/Reload the page to see the latest data/)).toBeTruthy();
  });

  it('Lists: adds a retire reason; an entry in use shows its count; other lists by the List select', async () => {
    let entries = [entry({})];
    const { calls } = fakeApi({
      ...signInAdmin(),
      [`GET ${B}/billingitems/tok`]: { items: [], categories: [] },
      [`GET ${B}/domaindata/tok`]: (r: FakeRequest) => ({
        type: r.query.get('type'),
        items: r.query.get('type') === 'retire_reason' ? entries : [],
      }),
      [`POST ${B}/domaindata/tok`]: (r: FakeRequest) => {
        const body = r.body as { code: string; label: string };
        const created = entry({ id: 2, code: body.code, label: body.label, sort_order: 2, in_use: 0 });
        entries = [...entries, created];
        return created;
      },
    });
    const user = userEvent.setup();
    renderApp('#/admin/catalogue?tab=lists');
    const table = await screen.findByRole('table', { name: 'Retire reasons' });
    expect(within(table).getByText('3 records')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Add entry' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText(/^Code/), 'FLOOD');
    await user.type(within(dialog).getByLabelText(/^Label/), 'Flood damage');
    await user.click(within(dialog).getByRole('button', { name: 'Save entry' }));
    expect(await within(table).findByText('Flood damage')).toBeTruthy();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      type: 'retire_reason',
      code: 'FLOOD',
      label: 'Flood damage',
    });
  });
  it('Bundles: reprices a price option under the bundle version; the new price shows in C$', async () => {
    let bundle: AdminBundle = {
      bundle_id: 3,
      name: 'Café bundle',
      description: null,
      nrs_pay: false,
      active: true,
      version: 4,
      options: [
        {
          id: 11,
          billing_item_id: 8,
          billing_item_name: 'Monthly service fee',
          currency: 'CAD',
          reference_id: null,
          label: 'Monthly',
          price_cents: 5900,
          term: 1,
        },
      ],
    };
    const { calls } = fakeApi({
      ...signInAdmin(),
      [`GET ${B}/billingitems/tok`]: { items: [item({})], categories: [] },
      [`GET ${B}/bundles/tok`]: () => ({ items: [bundle] }),
      [`PUT ${B}/bundles/3/options/11/tok`]: (r: FakeRequest) => {
        const body = r.body as { price_cents: number };
        bundle = { ...bundle, version: 5, options: [{ ...bundle.options[0]!, price_cents: body.price_cents }] };
        return bundle;
      },
    });
    const user = userEvent.setup();
    renderApp('#/admin/catalogue?tab=bundles');
    await user.click(await screen.findByRole('button', { name: 'Edit Café bundle' }));
    const dialog = await screen.findByRole('dialog');
    const options = within(dialog).getByRole('table', { name: 'Price options' });
    expect(within(options).getByText('C$59.00')).toBeTruthy();
    await user.click(within(options).getByRole('button', { name: 'Edit option Monthly CAD Monthly service fee' }));
    const price = within(dialog).getByLabelText('Price (CAD)');
    await user.clear(price);
    await user.type(price, '64.50');
    await user.click(within(dialog).getByRole('button', { name: 'Save price option' }));
    expect(await within(options).findByText('C$64.50')).toBeTruthy();
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({
      billing_item_id: 8,
      currency: 'CAD',
      reference_id: null,
      label: 'Monthly',
      price_cents: 6450,
      term: 1,
      version: 4,
    });
  });

  it('Products & terminals: adds a terminal model with a USD price only', async () => {
    let products: AdminProduct[] = [];
    const { calls } = fakeApi({
      ...signInAdmin(),
      [`GET ${B}/billingitems/tok`]: { items: [], categories: [] },
      [`GET ${B}/products/tok`]: () => ({ items: products }),
      [`POST ${B}/products/tok`]: (r: FakeRequest) => {
        const body = r.body as AdminProduct;
        products = [{ ...body, product_id: 9, active: true, version: 1, prices: { USD: body.prices.USD, CAD: null } }];
        return products[0];
      },
    });
    const user = userEvent.setup();
    renderApp('#/admin/catalogue?tab=products');
    const table = await screen.findByRole('table', { name: 'Products and terminal models' });
    expect(within(table).getByText('None yet.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Add product' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText(/^Name/), 'PX-9 terminal');
    await user.type(within(dialog).getByLabelText(/^SKU/), 'PX-9');
    await user.type(within(dialog).getByLabelText('USD ($) price'), '1,299.00');
    await user.click(within(dialog).getByRole('button', { name: 'Save product' }));
    const row = (await within(table).findByText('PX-9 terminal')).closest('tr')!;
    expect(within(row).getByText('Terminal model')).toBeTruthy();
    expect(within(row).getByText('$1,299.00')).toBeTruthy();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      name: 'PX-9 terminal',
      sku: 'PX-9',
      kind: 'terminal',
      description: null,
      prices: { USD: 129900, CAD: null },
    });
  });
});
