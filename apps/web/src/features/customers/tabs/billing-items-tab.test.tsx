import type { CatalogueBillingItem, CustomerBillingItem } from '@pos/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { jsonResponse } from '../../../test/factories';
import { fakeApi, type FakeRequest } from '../../../test/fake-api';
import { renderApp } from '../../../test/render-app';
import { customerRoutes, makeCustomer, signInAs } from '../lib/test-support';
import { idempotencyKeyOf } from './test-support';

const BASE = '/api/customers/100001/tok';
const CATALOGUE = 'GET /api/customers/billingitems/tok/all';

function catalogueItem(overrides: Partial<CatalogueBillingItem> = {}): CatalogueBillingItem {
  return {
    billing_item_id: 8,
    name: 'Monthly service fee',
    category: { id: 2, name: 'Fees' },
    feature: 'N',
    charge_at_level: 'S',
    recurring: true,
    active: true,
    unit_price_cents: 107_99,
    currency: 'CAD',
    ...overrides,
  };
}

/** The server's answer for a CA store: by category, then name; uncategorised last. */
const CAD_CATALOGUE = {
  currency: 'CAD',
  billing_items: [
    catalogueItem(),
    catalogueItem({
      billing_item_id: 20,
      name: 'Shipping',
      charge_at_level: 'C',
      recurring: false,
      unit_price_cents: 20_00,
    }),
    catalogueItem({
      billing_item_id: 201,
      name: 'Advanced Data',
      category: { id: 3, name: 'Software features' },
      feature: 'Y',
      unit_price_cents: 19_99,
    }),
    catalogueItem({
      billing_item_id: 30,
      name: 'Other charges',
      category: null,
      recurring: false,
      unit_price_cents: null,
    }),
  ],
};

function addedItem(overrides: Partial<CustomerBillingItem> = {}): CustomerBillingItem {
  return {
    id: 900,
    customer_id: 100001,
    store_id: 500002,
    plan_id: null,
    billing_item_id: 8,
    name: 'Monthly service fee',
    category: 'Fees',
    feature: 'N',
    charge_at_level: 'S',
    recurring: true,
    quantity: 1,
    unit_price_cents: 107_99,
    amount_cents: 107_99,
    currency: 'CAD',
    status: 'A',
    status_label: 'Active',
    starts_on: '2026-03-04',
    ends_on: null,
    version: 1,
    ...overrides,
  };
}

function server(extra: Record<string, unknown>) {
  return fakeApi({
    ...signInAs('Customer Support'),
    ...customerRoutes(makeCustomer({ country: 'CA' })),
    [`GET ${BASE}/customerpaymentplans`]: { items: [], total: 0 },
    [`GET ${BASE}/customerbillingitems`]: { customer_billing_items: [], total: 0 },
    ...extra,
  });
}

async function openAddDialog() {
  const user = userEvent.setup();
  renderApp('#/customer?id=100001&tab=billing-items');
  await screen.findByRole('table', { name: 'Billing items of store 500002' });
  await user.click(screen.getByRole('button', { name: 'Add billing item' }));
  return { user, dialog: await screen.findByRole('dialog', { name: 'Add a billing item' }) };
}

/** A select's choices as the browser offers them: [group label, option text] (placeholder first, group ''). */
function choicesOf(select: HTMLElement): [string, string][] {
  return [...select.querySelectorAll('option')].map((o) => [
    o.parentElement instanceof HTMLOptGroupElement ? o.parentElement.label : '',
    o.textContent ?? '',
  ]);
}

describe('Billing items tab: the catalogue', () => {
  it('reads the catalogue once for the store (its currency), and the filter offers its items by category', async () => {
    const { calls } = server({ [CATALOGUE]: CAD_CATALOGUE });
    const user = userEvent.setup();
    renderApp('#/customer?id=100001&tab=billing-items');
    await screen.findByRole('table', { name: 'Billing items of store 500002' });
    const filter = screen.getByRole('combobox', { name: 'Billing item' });
    await waitFor(() => expect(filter.querySelectorAll('option')).toHaveLength(5));
    expect(choicesOf(filter)).toEqual([
      ['', 'Any billing item'],
      ['Fees', 'Monthly service fee'],
      ['Fees', 'Shipping'],
      ['Software features', 'Advanced Data (feature)'],
      ['Without a category', 'Other charges'],
    ]);
    const catalogueCalls = calls.filter((c) => c.path === '/api/customers/billingitems/tok/all');
    expect(catalogueCalls.map((c) => Object.fromEntries(c.query))).toEqual([{ custstoreid: '500002' }]);

    await user.selectOptions(filter, 'Advanced Data (feature)');
    await waitFor(() =>
      expect(
        calls.some((c) => c.path === `${BASE}/customerbillingitems` && c.query.get('billingitemid') === '201'),
      ).toBe(true),
    );

    // The Add dialog uses the same read (no second call).
    await user.click(screen.getByRole('button', { name: 'Add billing item' }));
    await screen.findByRole('dialog', { name: 'Add a billing item' });
    expect(calls.filter((c) => c.path === '/api/customers/billingitems/tok/all')).toHaveLength(1);
  });

  it('Add billing item lists name, category and price (CAD as C$), says what the chosen item is, and adds it at the catalogue price', async () => {
    const posts: FakeRequest[] = [];
    const { fetchMock } = server({
      [CATALOGUE]: CAD_CATALOGUE,
      [`POST ${BASE}/customerbillingitems`]: (r: FakeRequest) => {
        posts.push(r);
        return jsonResponse(201, { info: addedItem() });
      },
    });
    const { user, dialog } = await openAddDialog();
    const select = within(dialog).getByRole('combobox', { name: /Billing item/ });
    await waitFor(() => expect((select as HTMLSelectElement).disabled).toBe(false));
    expect(choicesOf(select)).toEqual([
      ['', 'Choose a billing item'],
      ['Fees', 'Monthly service fee — C$107.99 (id 8)'],
      ['Fees', 'Shipping — C$20.00 (id 20)'],
      ['Software features', 'Advanced Data — C$19.99 (id 201)'],
      ['Without a category', 'Other charges — no catalogue price (id 30)'],
    ]);

    await user.selectOptions(select, 'Monthly service fee — C$107.99 (id 8)');
    expect(within(dialog).getByText('Fees · charged per store · C$107.99')).toBeTruthy();
    expect(within(dialog).getByText('Empty: the catalogue price (C$107.99)')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Add billing item' }));
    await waitFor(() => expect(posts).toHaveLength(1));
    expect(posts[0]!.body).toMatchObject({ billing_item_id: 8, store_id: 500002, plan_id: null, quantity: 1 });
    expect(posts[0]!.body).not.toHaveProperty('unit_price_cents');
    const call = fetchMock.mock.calls.find(
      ([url, init]) => String(url).endsWith('/customerbillingitems') && init?.method === 'POST',
    )!;
    expect(idempotencyKeyOf(call[1])).toMatch(/^[0-9a-f-]{36}$/);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Add a billing item' })).toBeNull());
    expect(await screen.findByText('Monthly service fee (C$107.99) was added.')).toBeTruthy();
  });

  it('an item without a catalogue price needs a unit price before anything is sent', async () => {
    const posts: FakeRequest[] = [];
    server({
      [CATALOGUE]: CAD_CATALOGUE,
      [`POST ${BASE}/customerbillingitems`]: (r: FakeRequest) => {
        posts.push(r);
        return jsonResponse(201, {
          info: addedItem({
            billing_item_id: 30,
            name: 'Other charges',
            category: null,
            unit_price_cents: 12_50,
            amount_cents: 12_50,
          }),
        });
      },
    });
    const { user, dialog } = await openAddDialog();
    const select = within(dialog).getByRole('combobox', { name: /Billing item/ });
    await waitFor(() => expect((select as HTMLSelectElement).disabled).toBe(false));
    await user.selectOptions(select, 'Other charges — no catalogue price (id 30)');
    expect(within(dialog).getByText('Without a category · charged per store · no catalogue price')).toBeTruthy();
    expect(within(dialog).getByText('No catalogue price in CAD: enter one')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Add billing item' }));
    expect(
      await within(dialog).findByText('Other charges has no catalogue price in CAD; enter the unit price.'),
    ).toBeTruthy();
    expect(posts).toHaveLength(0);

    await user.type(within(dialog).getByRole('textbox', { name: 'Unit price' }), '12.50');
    await user.click(within(dialog).getByRole('button', { name: 'Add billing item' }));
    await waitFor(() => expect(posts).toHaveLength(1));
    expect(posts[0]!.body).toMatchObject({ billing_item_id: 30, unit_price_cents: 12_50 });
  });

  it('a failed catalogue read is said in the dialog, and Try again reads it again', async () => {
    let fail = true;
    server({
      [CATALOGUE]: () =>
        fail ? jsonResponse(500, { error: { code: 'internal', message: 'Something went wrong.' } }) : CAD_CATALOGUE,
    });
    const { user, dialog } = await openAddDialog();
    expect(await within(dialog).findByText('The billing items could not be loaded.')).toBeTruthy();
    const select = within(dialog).getByRole('combobox', { name: /Billing item/ }) as HTMLSelectElement;
    expect(select.disabled).toBe(true);
    fail = false;
    await user.click(within(dialog).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(select.disabled).toBe(false));
    expect(within(dialog).queryByText('The billing items could not be loaded.')).toBeNull();
    expect(choicesOf(select)).toHaveLength(5);
  });
});
