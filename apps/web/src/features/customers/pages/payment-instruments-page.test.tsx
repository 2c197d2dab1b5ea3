import type { ExpiringCard } from '@pos/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { jsonResponse } from '../../../test/factories';
import { fakeApi, type FakeRequest } from '../../../test/fake-api';
import { renderApp } from '../../../test/render-app';
import { customerRoutes, makeCustomer, makeSearchRecord, signInAs } from '../lib/test-support';
import { makeCardInstrument } from '../tabs/test-support';
import { sendLinkBlocked } from './payment-instruments-page';

const INSTRUMENTS = '/api/customers/100001/tok/paymentinstruments';
const EXPIRING = '/api/customers/paymentinstruments/expiring/tok';
const PLANS = '/api/customers/100001/tok/customerpaymentplans';

function expiringCard(overrides: Partial<ExpiringCard> = {}): ExpiringCard {
  return {
    instrument_id: 31,
    customer_id: 100001,
    customer_name: 'Corner Deli LLC',
    store_id: 500002,
    store_name: 'Corner Deli - 1 Main St',
    brand: 'mastercard',
    last4: '5454',
    exp_month: 11,
    exp_year: 2026,
    expires_on: '2026-11-30',
    is_default: false,
    elmer_id: '97000019',
    ...overrides,
  };
}

const DEFAULT_CARD = makeCardInstrument({ id: 12, is_default: true, version: 3 });
const OTHER_CARD = makeCardInstrument({
  id: 13,
  is_default: false,
  version: 1,
  card: { brand: 'mastercard', last4: '5454', exp_month: 11, exp_year: 2026, expired: false },
});

function server(options: { activePlans?: number; role?: string } = {}) {
  let items = [DEFAULT_CARD, OTHER_CARD];
  return fakeApi({
    ...signInAs(options.role ?? 'Customer Support'),
    ...customerRoutes(makeCustomer()),
    'GET /api/customers/tok/all': { items: [makeSearchRecord()], total: 1, total_capped: false },
    [`GET ${INSTRUMENTS}`]: () => ({ items, total: items.length }),
    [`GET ${PLANS}`]: { items: [], total: options.activePlans ?? 0 },
    [`GET ${EXPIRING}`]: {
      items: [expiringCard(), expiringCard({ instrument_id: 32, last4: '1111', store_id: 500003, elmer_id: null })],
      total: 2,
    },
    'GET /api/customers/paymentinstruments/gateway/tok': { provider: 'local', tokenize_url: '/x', available: true },
    [`PUT ${INSTRUMENTS}/13`]: () => {
      items = [
        { ...OTHER_CARD, is_default: true, version: 2 },
        { ...DEFAULT_CARD, is_default: false, version: 4 },
      ];
      return items[0];
    },
    [`DELETE ${INSTRUMENTS}/13`]: () => {
      items = [DEFAULT_CARD, { ...OTHER_CARD, status: 'inactive' }];
      return items[1];
    },
    'POST /api/customers/notifications/updatepayment/tok': () => jsonResponse(202, { info: { jobId: 'job-7' } }),
  });
}

describe('Payment instruments (#/payment/instruments)', () => {
  it('finds a customer and lists its instruments masked: kind, brand, last4, expiry, store, default, status', async () => {
    server();
    const user = userEvent.setup();
    renderApp('#/payment/instruments');
    await user.type(await screen.findByRole('searchbox', { name: 'Search customers' }), '100001');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    const results = await screen.findByRole('region', { name: 'Results' });
    await user.click(await within(results).findByRole('link', { name: 'Corner Deli LLC' }));
    const table = await screen.findByRole('table', { name: /Payment instruments/ });
    const row = await within(table).findByRole('row', { name: 'Mastercard ending 5454' });
    expect(within(row).getByText('Card')).toBeTruthy();
    expect(within(row).getByText('11/2026')).toBeTruthy();
    expect(within(row).getByText('Active')).toBeTruthy();
    expect(within(row).getByText(/Corner Deli/)).toBeTruthy();
    const defaultRow = within(table).getByRole('row', { name: 'Visa ending 4242' });
    expect(within(defaultRow).getByText('Default')).toBeTruthy();
    expect(screen.getByRole('form', { name: 'Card' })).toBeTruthy();
  });

  it('makes a card the default with its version', async () => {
    const { calls } = server();
    const user = userEvent.setup();
    renderApp('#/payment/instruments?customer=100001');
    await user.click(await screen.findByRole('button', { name: 'Make Mastercard ending 5454 the default' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    expect(calls.find((c) => c.method === 'PUT')!.body).toEqual({ is_default: true, version: 1 });
    const row = await screen.findByRole('row', { name: 'Mastercard ending 5454' });
    expect(await within(row).findByText('Default')).toBeTruthy();
  });

  it('removes after confirming; the default cannot be removed while a plan is active, and says why', async () => {
    const { calls } = server({ activePlans: 2 });
    const user = userEvent.setup();
    renderApp('#/payment/instruments?customer=100001');
    const blocked = await screen.findByRole('button', { name: 'Remove Visa ending 4242' });
    await waitFor(() => expect((blocked as HTMLButtonElement).disabled).toBe(true));
    expect(screen.getByText(/The default pays active payment plans: make another one the default first/)).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Remove Mastercard ending 5454' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove payment instrument' });
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE')).toBe(true));
    const del = calls.find((c) => c.method === 'DELETE')!;
    expect(Number(del.query.get('version'))).toBe(OTHER_CARD.version);
    const row = await screen.findByRole('row', { name: 'Mastercard ending 5454' });
    expect(await within(row).findByText('Removed')).toBeTruthy();
  });

  it('lists expiring cards; Send update link posts the terminal; a store without one says why', async () => {
    const { calls } = server();
    const user = userEvent.setup();
    renderApp('#/payment/instruments');
    const section = await screen.findByRole('region', { name: 'Expiring cards (30 days)' });
    const send = await within(section).findByRole('button', {
      name: 'Send update link for Mastercard ending 5454 of Corner Deli LLC',
    });
    await user.click(send);
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'POST' && c.path.includes('updatepayment'))?.body).toEqual({
        elmer_id: '97000019',
      }),
    );
    const noTerminal = within(section).getByRole('button', {
      name: 'Send update link for Mastercard ending 1111 of Corner Deli LLC',
    });
    expect((noTerminal as HTMLButtonElement).disabled).toBe(true);
    expect(within(section).getByText(/This store has no terminal in use/)).toBeTruthy();
  });

  it('a user without the customer privilege is refused by the guard, and nothing is asked of the server', async () => {
    const { calls } = server({ role: 'Marketing' });
    renderApp('#/payment/instruments');
    // The route is guarded by customer details (decision 154): the page itself never loads.
    expect(await screen.findByRole('heading', { name: 'Access denied' })).toBeTruthy();
    expect(calls.some((c: FakeRequest) => c.path === EXPIRING)).toBe(false);
  });

  it('sendLinkBlocked: the reasons', () => {
    expect(sendLinkBlocked({ elmer_id: '97000019', store_id: 500002 }, true)).toBeNull();
    expect(sendLinkBlocked({ elmer_id: '97000019', store_id: 500002 }, false)).toMatch(/privilege/);
    expect(sendLinkBlocked({ elmer_id: null, store_id: null }, true)).toMatch(/No store of this customer/);
  });
});
