import { ORDER_STATUS, type OrderSearchRecord } from '@pos/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { errorResponse, fakeApi } from '../../../test/fake-api';
import { renderApp } from '../../../test/render-app';
import { signInAs } from '../../../test/factories';

const CHANGE = '/api/customers/ordernotes/tok';
const DOCUMENT = '/api/customers/orderinfo/tok';

function makeOrder(overrides: Partial<OrderSearchRecord> = {}): OrderSearchRecord {
  return {
    id: 700001,
    unified_order_id: 'UO-2026-0001',
    status: ORDER_STATUS.INSTALLATION,
    status_label: 'Installation',
    flow: 'AR',
    order_type: 'P',
    legal_name: 'Zephyr Foods LLC',
    dba_name: 'Zephyr Deli',
    sales_rep: 'Dana Whitfield',
    agent_id: null,
    agent: null,
    country: 'US',
    currency: 'USD',
    total_sale_cents: 149950,
    order_date: '2026-03-01T12:00:00.000Z',
    updated_at: '2026-03-02T12:00:00.000Z',
    version: 7,
    ...overrides,
  };
}

function documentOf(json: Record<string, unknown>) {
  return {
    order: {
      orderInfoId: 700001,
      unifiedOrderId: 'UO-2026-0001',
      status: ORDER_STATUS.INSTALLATION,
      flow: 'AR',
      order_type: 'P',
      sales_rep: 'Dana Whitfield',
      agent_id: null,
      customer_id: null,
      version: 7,
      updated_at: '2026-03-02T12:00:00.000Z',
      json,
    },
  };
}

function routes(extra: Record<string, unknown> = {}) {
  return {
    ...signInAs('Operations'),
    'GET /api/customers/orders/search/tok': { items: [makeOrder()], total: 1, total_capped: false },
    'GET /api/customers/orders/700001/tok': { order: makeOrder() },
    'GET /api/customers/orderstatus/history/700001/tok': { history: [] },
    'GET /api/customers/ordernotes/700001/tok': { notes: [] },
    'GET /api/customers/orderinfo/700001/customermatch/tok': { match: null },
    [`GET ${DOCUMENT}`]: documentOf({ orderType: 'P', noOfTerminals: 3 }),
    ...extra,
  };
}

const completed = {
  order: {
    id: 700001,
    status: ORDER_STATUS.COMPLETE,
    version: 8,
    submitted_at: '2026-03-01T12:00:00.000Z',
    completed_at: '2026-03-03T12:00:00.000Z',
    updated_at: '2026-03-03T12:00:00.000Z',
  },
  history: {
    id: 9,
    order_id: 700001,
    from_status: ORDER_STATUS.INSTALLATION,
    to_status: ORDER_STATUS.COMPLETE,
    status_reason_id: null,
    reason: null,
    note: null,
    changed_by_email: 'ops@example.com',
    changed_at: '2026-03-03T12:00:00.000Z',
  },
};

async function openChangeStatus() {
  renderApp('#/order?id=700001');
  const drawer = await screen.findByRole('region', { name: 'Order UO-2026-0001' });
  return within(drawer).getByRole('form', { name: 'Change status' });
}

describe('order panel: Change status to Complete at Installation (decision 150)', () => {
  it('asks one required serial number per terminal and sends them as terminal_serials', async () => {
    const { calls } = fakeApi(routes({ [`PUT ${CHANGE}`]: completed }));
    const user = userEvent.setup();
    const form = await openChangeStatus();
    // Not asked before Complete is chosen.
    expect(within(form).queryByRole('textbox', { name: /Serial number/ })).toBeNull();
    await user.selectOptions(within(form).getByRole('combobox', { name: 'New status' }), 'Complete');
    const first = await within(form).findByRole('textbox', { name: 'Serial number, terminal 1 of 3' });
    const fields = within(form).getAllByRole('textbox', { name: /^Serial number, terminal \d of 3$/ });
    expect(fields).toHaveLength(3);
    expect(fields.every((f) => f.hasAttribute('required'))).toBe(true);
    expect(calls.find((c) => c.path === DOCUMENT)!.query.get('id')).toBe('700001');
    const button = within(form).getByRole('button', { name: 'Change status' });
    expect(button.hasAttribute('disabled')).toBe(true);

    // Two alike: said at the field, nothing sent.
    await user.type(first, 'SN-A1');
    await user.type(fields[1]!, 'sn-a1');
    await user.type(fields[2]!, 'SN-A3');
    await user.click(button);
    expect(await within(form).findByText('The same as terminal 1.')).toBeTruthy();
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);

    await user.clear(fields[1]!);
    await user.type(fields[1]!, 'SN-A2');
    await user.type(within(form).getByRole('textbox', { name: 'Status note' }), 'Installed.');
    await user.click(button);
    expect(await screen.findByText('Now Complete.')).toBeTruthy();
    expect(calls.find((c) => c.method === 'PUT')!.body).toEqual({
      order_id: 700001,
      status: ORDER_STATUS.COMPLETE,
      note: 'Installed.',
      version: 7,
      terminal_serials: ['SN-A1', 'SN-A2', 'SN-A3'],
    });
  });

  it('shows the serials already on the order, and the server’s 409 in the dialog as it is', async () => {
    const refusal =
      'Order UO-2026-0001 cannot be completed: terminal 2 of 2 has no serial number. Enter the serial numbers at Installation.';
    const { calls } = fakeApi(
      routes({
        [`GET ${DOCUMENT}`]: documentOf({ orderType: 'P', noOfTerminals: 2, TerminalSerials: ['SN-OLD-1'] }),
        [`PUT ${CHANGE}`]: errorResponse(409, 'conflict', refusal),
      }),
    );
    const user = userEvent.setup();
    const form = await openChangeStatus();
    await user.selectOptions(within(form).getByRole('combobox', { name: 'New status' }), 'Complete');
    const first = await within(form).findByRole('textbox', { name: 'Serial number, terminal 1 of 2' });
    expect((first as HTMLInputElement).value).toBe('SN-OLD-1');
    await user.type(within(form).getByRole('textbox', { name: 'Serial number, terminal 2 of 2' }), 'SN-NEW-2');
    await user.click(within(form).getByRole('button', { name: 'Change status' }));
    const alert = await within(form).findByRole('alert');
    expect(alert.textContent).toContain(refusal);
    expect((calls.find((c) => c.method === 'PUT')!.body as { terminal_serials: string[] }).terminal_serials).toEqual([
      'SN-OLD-1',
      'SN-NEW-2',
    ]);
    // The order stays at Installation: the fields keep what was typed.
    expect(
      (within(form).getByRole('textbox', { name: 'Serial number, terminal 2 of 2' }) as HTMLInputElement).value,
    ).toBe('SN-NEW-2');
  });

  it('a non-POS order has no terminals: Complete asks no serial numbers and sends none', async () => {
    const { calls } = fakeApi(
      routes({
        [`GET ${DOCUMENT}`]: documentOf({ orderType: 'N', noOfTerminals: 0 }),
        [`PUT ${CHANGE}`]: completed,
      }),
    );
    const user = userEvent.setup();
    const form = await openChangeStatus();
    await user.selectOptions(within(form).getByRole('combobox', { name: 'New status' }), 'Complete');
    await waitFor(() => expect(calls.some((c) => c.path === DOCUMENT)).toBe(true));
    const button = within(form).getByRole('button', { name: 'Change status' });
    await waitFor(() => expect(button.hasAttribute('disabled')).toBe(false));
    expect(within(form).queryByRole('textbox', { name: /Serial number/ })).toBeNull();
    await user.click(button);
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    expect(calls.find((c) => c.method === 'PUT')!.body).toEqual({
      order_id: 700001,
      status: ORDER_STATUS.COMPLETE,
      version: 7,
    });
  });
});
