import { ORDER_STATUS } from '@pos/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { jsonResponse } from '../../../test/factories';
import { fakeApi, type FakeRequest } from '../../../test/fake-api';
import { renderApp } from '../../../test/render-app';
import { customerRoutes, makeCustomer, makeStore, signInAs } from '../lib/test-support';

const order = (overrides: Record<string, unknown> = {}) => ({
  order_id: 9001,
  unified_order_id: 'U-9001',
  status: ORDER_STATUS.PENDING_AR_APPROVAL,
  status_label: 'whatever the server says',
  flow: 'AR',
  order_type: 'P',
  store_id: 500002,
  store_name: 'Corner Deli - 1 Main St',
  sales_rep: 'Jordan Reyes',
  order_date: '2026-02-10T15:00:00.000Z',
  submitted_at: null,
  completed_at: null,
  updated_at: '2026-02-10T15:00:00.000Z',
  total_sale_cents: 123456,
  currency: 'CAD',
  ...overrides,
});

describe('the core tabs of a store', () => {
  it('Orders: status words from the §4 codes, money in the order currency, store scope and sort in the query', async () => {
    const { calls } = fakeApi({
      ...signInAs('AR Team'),
      ...customerRoutes(makeCustomer()),
      'GET /api/customers/100001/tok/customerorders': {
        items: [
          order(),
          order({
            order_id: 9002,
            status: ORDER_STATUS.COMPLETE,
            order_type: 'N',
            total_sale_cents: 500,
            currency: 'USD',
          }),
        ],
        total: 2,
      },
    });
    const user = userEvent.setup();
    renderApp('#/customer?id=100001&tab=orders');
    const table = await screen.findByRole('table', { name: 'Orders of store 500002' });
    const rows = within(table).getAllByRole('row');
    expect(
      within(rows[1]!)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual([
      '9001U-9001',
      'Feb 10, 2026',
      'Pending AR Approval',
      'POS · AR',
      'Corner Deli - 1 Main St',
      'Jordan Reyes',
      'C$1,234.56',
    ]);
    expect(within(rows[2]!).getByText('Complete')).toBeTruthy();
    expect(within(rows[2]!).getByText('Non-POS · AR')).toBeTruthy();
    expect(Object.fromEntries(calls.filter((c) => c.path.endsWith('/customerorders')).at(-1)!.query)).toEqual({
      storeid: '500002',
      limit: '20',
      offset: '0',
      sort: '-order_date',
    });

    await user.click(screen.getByRole('checkbox', { name: 'Show orders of every store' }));
    await waitFor(() =>
      expect(
        calls
          .filter((c) => c.path.endsWith('/customerorders'))
          .at(-1)!
          .query.has('storeid'),
      ).toBe(false),
    );
    await user.click(screen.getByRole('button', { name: 'Total' }));
    await waitFor(() => expect(calls.at(-1)!.query.get('sort')).toBe('total_sale_cents'));
  });

  it('Sales history: an SVG chart with an accessible title, and the same numbers in a table with totals', async () => {
    const months = Array.from({ length: 24 }, (_, i) => ({
      period_month: `${2024 + Math.floor((i + 3) / 12)}-${String(((i + 3) % 12) + 1).padStart(2, '0')}-01`,
      units: i,
      amount_cents: i * 1000,
      currency: 'CAD',
    }));
    const { calls } = fakeApi({
      ...signInAs('AR Team'),
      ...customerRoutes(makeCustomer({ country: 'CA', currency: 'CAD' })),
      'GET /api/saleshistory/100001/tok': {
        customer_id: 100001,
        store_id: 500002,
        currency: 'CAD',
        from_month: months[0]!.period_month,
        to_month: months[23]!.period_month,
        months,
        totals: [{ currency: 'CAD', units: 276, amount_cents: 276000 }],
      },
    });
    renderApp('#/customer?id=100001&tab=sales-history');
    const chart = await screen.findByRole('img', { name: 'Monthly sales of store 500002 in CAD' });
    expect(chart.tagName.toLowerCase()).toBe('svg');
    expect(chart.querySelectorAll('rect')).toHaveLength(24);
    const table = screen.getByRole('table', { name: 'Monthly sales of store 500002' });
    const rows = within(table).getAllByRole('row');
    expect(
      within(rows[1]!)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['Mar 2026', '23', 'C$230.00']);
    expect(within(rows.at(-1)!).getByRole('rowheader').textContent).toBe('Total (CAD)');
    expect(
      within(rows.at(-1)!)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['276', 'C$2,760.00']);
    expect(calls.find((c) => c.path === '/api/saleshistory/100001/tok')!.query.get('storeid')).toBe('500002');
  });

  it('Activity: who, when, what, and only the fields that changed', async () => {
    fakeApi({
      ...signInAs('AR Team'),
      ...customerRoutes(makeCustomer()),
      'GET /api/customers/100001/audit/tok': {
        items: [
          {
            id: 2,
            at: '2026-03-04T09:05:12.000Z',
            actor_type: 'staff',
            actor_email: 'support@example.com',
            action: 'store_address_update',
            entity: 'store',
            entity_id: '500002',
            before: { customer_id: 100001, store_id: 500002, address: { city: 'Regina', zip: 'S4P 3Y2' } },
            after: { customer_id: 100001, store_id: 500002, address: { city: 'Regina', zip: 'S0S 0S0' } },
          },
          {
            id: 1,
            at: '2026-03-03T09:05:12.000Z',
            actor_type: 'system',
            actor_email: null,
            action: 'retire',
            entity: 'terminal',
            entity_id: '7',
            before: null,
            after: { customer_id: 100001, status: 'retired' },
          },
        ],
        total: 2,
      },
    });
    renderApp('#/customer?id=100001&tab=activity');
    const list = await screen.findByRole('list', { name: 'Activity, newest first' });
    const entries = within(list).getAllByRole('listitem');
    expect(entries[0]!.getAttribute('aria-label')).toBe('Address update · store 500002 by support@example.com');
    const changes = within(entries[0]!)
      .getAllByRole('row')
      .map((r) =>
        within(r)
          .queryAllByRole('cell')
          .map((c) => c.textContent),
      );
    expect(changes.slice(1)).toEqual([['Address › zip', 'S4P 3Y2', 'S0S 0S0']]);
    expect(entries[1]!.getAttribute('aria-label')).toBe('Retire · terminal 7 by System');
    expect(within(entries[1]!).getByText('retired')).toBeTruthy();
  });

  it('E-mails: the store and customer addresses and what was sent to them', async () => {
    fakeApi({
      ...signInAs('AR Team'),
      ...customerRoutes(makeCustomer()),
      'GET /api/customers/stores/500002/tok/emails': {
        store_id: 500002,
        customer_id: 100001,
        emails: [
          { id: 3, email: 'billing@cornerdeli.example', kind: 'billing', is_primary: true, source: 'store' },
          { id: null, email: 'owner@cornerdeli.example', kind: 'customer', is_primary: false, source: 'customer' },
        ],
        sent: [
          {
            id: 8,
            to: 'billing@cornerdeli.example',
            subject: 'Update your payment method',
            template: 'payment_update_link',
            status: 'stored',
            created_at: '2026-03-04T09:05:12.000Z',
            sent_at: null,
          },
        ],
      },
    });
    renderApp('#/customer?id=100001&tab=emails');
    const addresses = await screen.findByRole('table', { name: 'E-mail addresses of store 500002' });
    expect(
      within(addresses)
        .getAllByRole('row')
        .slice(1)
        .map((r) =>
          within(r)
            .getAllByRole('cell')
            .map((c) => c.textContent),
        ),
    ).toEqual([
      ['billing@cornerdeli.example Primary', 'Billing', 'Store'],
      ['owner@cornerdeli.example ', 'Customer', 'Customer record'],
    ]);
    expect(
      within(screen.getByRole('table', { name: /Messages sent/ })).getByText('Update your payment method'),
    ).toBeTruthy();
  });
});

describe('store actions', () => {
  it('Send payment-update link offers the store terminals that are not retired and sends the chosen one', async () => {
    const terminal = (id: number, elmer: string, status: string) => ({
      id,
      elmer_id: elmer,
      serial_number: `SN${id}`,
      pos_cc_processor_serial_number: null,
      customer_id: 100001,
      store_id: 500002,
      product: null,
      order_id: null,
      plan_id: null,
      under_transfer: false,
      status,
      status_label: status === 'retired' ? 'Retired' : 'Active',
      installed_at: null,
      retired_at: null,
      retire_reason: null,
      version: 1,
    });
    const { calls } = fakeApi({
      ...signInAs('Customer Support'),
      ...customerRoutes(makeCustomer({ stores: [makeStore()] })),
      'GET /api/customers/100001/tok/customerterminals': {
        items: [terminal(1, '3000008', 'retired'), terminal(2, '3000016', 'active'), terminal(3, '3000024', 'active')],
        total: 3,
      },
      'POST /api/customers/notifications/updatepayment/tok': () =>
        jsonResponse(202, { info: { jobId: '11111111-1111-4111-8111-111111111111' } }),
    });
    const user = userEvent.setup();
    renderApp('#/customer?id=100001&tab=notes');
    await user.click(await screen.findByRole('button', { name: 'Send payment-update link' }));
    const dialog = await screen.findByRole('dialog', { name: 'Send payment-update link' });
    const select = await within(dialog).findByRole('combobox', { name: /Terminal/ });
    await waitFor(() =>
      expect(
        within(select)
          .getAllByRole('option')
          .map((o) => o.textContent),
      ).toEqual(['3000016 (Active)', '3000024 (Active)']),
    );
    await user.selectOptions(select, '3000024');
    await user.click(within(dialog).getByRole('button', { name: 'Send link' }));
    expect(
      await screen.findByText(/payment-update link for store 500002 is queued: the merchant is e-mailed/),
    ).toBeTruthy();
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({ elmer_id: '3000024' });
    expect(Object.fromEntries(calls.find((c) => c.path.endsWith('/customerterminals'))!.query)).toEqual({
      storeid: '500002',
      limit: '100',
    });
  });

  it('Push license asks first, then queues the push for the store', async () => {
    const { calls } = fakeApi({
      ...signInAs('Customer Support'),
      ...customerRoutes(makeCustomer()),
      'POST /api/customers/stores/tok/500002/pushlicense': (r: FakeRequest) =>
        r.body === undefined
          ? jsonResponse(202, { info: { jobId: '22222222-2222-4222-8222-222222222222' } })
          : jsonResponse(400, {}),
    });
    const user = userEvent.setup();
    renderApp('#/customer?id=100001&tab=notes');
    await user.click(await screen.findByRole('button', { name: 'Push license' }));
    const dialog = await screen.findByRole('dialog', { name: 'Push license' });
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    await user.click(within(dialog).getByRole('button', { name: 'Push license' }));
    expect(await screen.findByText(/license push for store 500002 is queued/)).toBeTruthy();
  });
});
