import { blankOrder, ORDER_STATUS, type CataloguePromotion, type OrderDocument } from '@pos/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { signInAs } from '../../../test/factories';
import { fakeApi, type FakeRequest } from '../../../test/fake-api';
import { renderApp } from '../../../test/render-app';

/*
 * The kind of sale of an existing customer's order (decision 163): asked at Store information ("Kind of sale", E by
 * default, saved in the document's additionalInfo.saleKind), never for a new merchant; SELECT HARDWARE applies a
 * transfers-only promotion to a transfer and refuses it on an add-on with the domain's words; the summary shows it.
 */

const ORDER = 700456;
const INFO = '/api/customers/orderinfo/tok';
const SAVE = `/api/customers/orderinfo/${ORDER}/tok`;
const CUSTOMER = 4242;

function record(doc: OrderDocument, customerId: number | null = null) {
  return {
    order: {
      orderInfoId: ORDER,
      unifiedOrderId: 'UO-20261124-700456',
      status: ORDER_STATUS.DRAFT,
      flow: 'AR',
      order_type: 'P',
      sales_rep: null,
      agent_id: null,
      customer_id: customerId,
      version: 1,
      updated_at: '2026-11-24T10:00:00.000Z',
      json: doc,
    },
  };
}

/** A US order; for an existing customer when `customerId` is given (as New order for a customer starts it). */
function order(customerId: number | null, saleKind?: 'E' | 'T' | 'U' | 'R'): OrderDocument {
  const d = blankOrder();
  const a = { address1: '1 Main', address2: '', city: 'Austin', state: 'TX', zip: '78701', country: 'US' as const };
  d.CustomerInfo = { ...d.CustomerInfo, firstName: 'Ana', lastName: 'Diaz', email: 'ana@shop.example' };
  d.HomeAddress = { ...a };
  d.StoreInfo = { ...d.StoreInfo, doingBusinessAs: 'Ana Mart', storeName: 'Ana Mart 1', StoreAddress: { ...a } };
  d.additionalInfo = { ...d.additionalInfo, customerID: customerId, ...(saleKind ? { saleKind } : {}) };
  return d;
}

/** The server of one order step: the order, its saves (answered as saved) in the returned list. */
function server(doc: OrderDocument, extra: Record<string, unknown> = {}, customerId: number | null = null) {
  const saves: FakeRequest[] = [];
  fakeApi({
    ...signInAs('RAM'),
    [`GET ${INFO}`]: record(doc, customerId),
    [`POST ${SAVE}`]: (r: FakeRequest) => {
      saves.push(r);
      return { orderInfoId: ORDER, unifiedOrderId: 'UO-20261124-700456', status: ORDER_STATUS.DRAFT, version: 2 };
    },
    'GET /api/products/tok/all': { currency: 'USD', products: [] },
    'GET /api/bundles/tok/all': { currency: 'USD', bundles: [] },
    ...extra,
  });
  return saves;
}

const savedDoc = async (saves: FakeRequest[]) => {
  await waitFor(() => expect(saves).toHaveLength(1));
  return (saves[0]!.body as { json: OrderDocument }).json;
};

afterEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  vi.unstubAllGlobals();
});

describe('kind of sale (decision 163)', () => {
  it('an existing customer’s order asks it: four choices, Existing store by default; Transfer is saved', async () => {
    const saves = server(order(CUSTOMER));
    const user = userEvent.setup();
    renderApp(`#/store-info/${ORDER}`);
    const select = await screen.findByRole('combobox', { name: /^Kind of sale/ });
    expect((select as HTMLSelectElement).value).toBe('E');
    expect(
      within(select)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual([
      'Existing store — add-on',
      'Transfer — the store changes owner',
      'Upgrade — better hardware or plan for a store that has ours',
      'Replacement — replaces broken or lost hardware',
    ]);
    await user.selectOptions(select, 'Transfer — the store changes owner');
    await user.click(screen.getByRole('button', { name: 'Save and continue' }));
    expect((await savedDoc(saves)).additionalInfo).toMatchObject({ customerID: CUSTOMER, saleKind: 'T' });
  });

  it('the default is saved as E; the order row’s customer is enough to ask it', async () => {
    const saves = server(order(null), {}, CUSTOMER);
    const user = userEvent.setup();
    renderApp(`#/store-info/${ORDER}`);
    await screen.findByRole('combobox', { name: /^Kind of sale/ });
    await user.click(screen.getByRole('button', { name: 'Save and continue' }));
    expect((await savedDoc(saves)).additionalInfo?.saleKind).toBe('E');
  });

  it('a new merchant’s order does not ask it and saves none', async () => {
    const saves = server(order(null));
    const user = userEvent.setup();
    renderApp(`#/store-info/${ORDER}`);
    await screen.findByRole('form', { name: 'Store information' });
    expect(screen.queryByRole('combobox', { name: /^Kind of sale/ })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Save and continue' }));
    expect((await savedDoc(saves)).additionalInfo?.saleKind).toBeUndefined();
  });

  const transfersOnly: CataloguePromotion = {
    promo_id: 31,
    code: 'MOVEIN',
    name: 'New owner welcome',
    type: 'H',
    method: 'A',
    amount_cents: 50_00,
    percent: null,
    customer_type: 'T',
    currency: 'USD',
    billing_item_id: 66,
    starts_on: null,
    expires_on: null,
    expired: false,
    usage_limit: null,
    usage_count: 0,
  };
  const lookup = { 'GET /api/customers/promotions/MOVEIN/tok': { promotions: [transfersOnly] } };

  it('SELECT HARDWARE refuses a transfers-only promotion on an add-on, in the domain’s words', async () => {
    server(order(CUSTOMER, 'E'), lookup);
    const user = userEvent.setup();
    renderApp(`#/sale-summary/${ORDER}`);
    await user.type(await screen.findByRole('textbox', { name: 'Promotion code' }), 'MOVEIN');
    await user.click(screen.getByRole('button', { name: 'Apply code' }));
    expect(
      await screen.findByText('Promotion MOVEIN is for transfers only; this order is an add-on for an existing store.'),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Remove MOVEIN' })).toBeNull();
  });

  it('SELECT HARDWARE applies the same promotion to a transfer', async () => {
    server(order(CUSTOMER, 'T'), lookup);
    const user = userEvent.setup();
    renderApp(`#/sale-summary/${ORDER}`);
    await user.type(await screen.findByRole('textbox', { name: 'Promotion code' }), 'MOVEIN');
    await user.click(screen.getByRole('button', { name: 'Apply code' }));
    expect(await screen.findByRole('button', { name: 'Remove MOVEIN' })).toBeTruthy();
  });

  it('the summary lists the kind of sale with the store', async () => {
    server(order(CUSTOMER, 'T'));
    renderApp(`#/summary/${ORDER}`);
    const store = await screen.findByRole('group', { name: 'Store' });
    expect(within(store).getByText('Kind of sale: Transfer')).toBeTruthy();
  });

  it('a new merchant’s summary says New store, whatever the document says', async () => {
    server(order(null, 'T'));
    renderApp(`#/summary/${ORDER}`);
    const store = await screen.findByRole('group', { name: 'Store' });
    expect(within(store).getByText('Kind of sale: New store')).toBeTruthy();
  });
});
