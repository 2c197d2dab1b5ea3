import { ORDER_STATUS, type AgentRecord, type OrderSearchRecord } from '@pos/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fakeApi, type FakeRequest } from '../../../test/fake-api';
import { jsonResponse, signInAs } from '../../../test/factories';
import { renderApp } from '../../../test/render-app';

/* Moving orders to another agent in bulk from the order list (issue 31): selection, the dialog, the job's results. */

const SEARCH = '/api/customers/orders/search/tok';
const AGENTS = '/api/customers/getagents/tok';
const SWITCH = '/api/orderinfo/agentswitch/sns/tok';
const JOB_ID = '6f1c2d3e-4b5a-4c6d-8e7f-000000000031';
const JOB = `/api/jobs/${JOB_ID}/tok`;

function makeOrder(n: number, overrides: Partial<OrderSearchRecord> = {}): OrderSearchRecord {
  return {
    id: 700000 + n,
    unified_order_id: `UO-2026-000${n}`,
    status: ORDER_STATUS.PENDING_AR_APPROVAL,
    status_label: 'Pending AR Approval',
    flow: 'AR',
    order_type: 'P',
    legal_name: `Store ${n} LLC`,
    dba_name: null,
    sales_rep: 'Dana Whitfield',
    agent_id: null,
    agent: null,
    country: 'US',
    currency: 'USD',
    total_sale_cents: 10000,
    order_date: '2026-03-01T12:00:00.000Z',
    updated_at: '2026-03-02T12:00:00.000Z',
    version: 1,
    ...overrides,
  };
}

const agent = (id: number, name: string): AgentRecord => ({
  agent_id: id,
  name,
  email: `${name.split(' ')[0]!.toLowerCase()}@example.com`,
  phone: null,
  type: 'Distributor',
  sales_channel: 'Distributor',
  sales_channel_code: 5,
  parent_agent_id: null,
  active: true,
});

const ORDERS = [makeOrder(1), makeOrder(2, { agent_id: 41, agent: 'Rita Reyes' }), makeOrder(3), makeOrder(4)];

const job = (state: string, output: unknown = null) => ({
  id: JOB_ID,
  queue: 'order-agent-switch',
  state,
  retryCount: 0,
  retryLimit: 3,
  createdOn: '2026-11-22T12:00:00.000Z',
  startedOn: '2026-11-22T12:00:00.000Z',
  completedOn: state === 'completed' ? '2026-11-22T12:00:01.000Z' : null,
  output,
  error: null,
  deadLetterQueue: null,
});

function routes(role: string, extra: Record<string, unknown> = {}) {
  let looks = 0;
  return {
    ...signInAs(role),
    [`GET ${SEARCH}`]: { items: ORDERS, total: ORDERS.length, total_capped: false },
    [`GET ${AGENTS}`]: (r: FakeRequest) => {
      const all = [agent(41, 'Rita Reyes'), agent(42, 'Sam Ortega')];
      const q = (r.query.get('search') ?? '').toLowerCase();
      const agents = all.filter((a) => a.name.toLowerCase().includes(q));
      return { agents, total: agents.length, limit: 25, offset: 0 };
    },
    [`POST ${SWITCH}`]: () => jsonResponse(202, { info: { jobId: JOB_ID } }),
    // The first look finds the job running; the next finds it done (every order asked for moved).
    [`GET ${JOB}`]: () =>
      (looks += 1) === 1 ? job('active') : job('completed', { agentId: 41, orders: [700001, 700002, 700003] }),
    ...extra,
  };
}

describe('order list: move orders to another agent', () => {
  it('select 3 orders, move them to an agent: progress, one result per order, the list asked again', async () => {
    const { calls, fetchMock } = fakeApi(routes('AR Team'));
    const user = userEvent.setup();
    renderApp('#/order');
    const table = await screen.findByRole('table', { name: /Orders — 4 matches/ });
    await user.click(within(table).getByRole('checkbox', { name: 'Select order UO-2026-0001' }));
    await user.click(within(table).getByRole('checkbox', { name: 'Select order UO-2026-0002' }));
    await user.click(within(table).getByRole('checkbox', { name: 'Select order UO-2026-0003' }));
    const bar = screen.getByRole('region', { name: 'Selected orders' });
    expect(bar.textContent).toContain('3 selected');
    const searchesBefore = calls.filter((c) => c.path === SEARCH).length;

    await user.click(within(bar).getByRole('button', { name: 'Move to agent…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Move 3 orders to an agent' });
    // With no search the first agents are listed; a search narrows them.
    await user.type(within(dialog).getByRole('textbox', { name: /Find an agent/ }), 'rit');
    const picker = within(dialog).getByRole('combobox', { name: 'Agent' });
    await waitFor(() => expect(within(picker).getByRole('option', { name: 'Rita Reyes (Distributor)' })).toBeTruthy());
    expect(within(picker).queryByRole('option', { name: /Sam Ortega/ })).toBeNull();
    await user.selectOptions(picker, 'Rita Reyes (Distributor)');
    await user.click(within(dialog).getByRole('button', { name: 'Move 3 orders' }));

    expect(await within(dialog).findByText('Moving 3 orders…')).toBeTruthy();
    const results = await within(dialog).findByRole('list', { name: 'Move results' }, { timeout: 5000 });
    expect(within(dialog).getByText('3 of 3 orders moved to Rita Reyes.')).toBeTruthy();
    expect(
      within(results)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      'UO-2026-0001: moved to Rita Reyes',
      'UO-2026-0002: already with Rita Reyes',
      'UO-2026-0003: moved to Rita Reyes',
    ]);

    const post = calls.filter((c) => c.method === 'POST' && c.path === SWITCH);
    expect(post).toHaveLength(1);
    expect(post[0]!.body).toEqual({ orderInfoIds: [700001, 700002, 700003], agent_id: 41 });
    const init = fetchMock.mock.calls.find(([url]) => String(url).includes(SWITCH))![1]!;
    expect(new Headers(init.headers).get('Idempotency-Key')).toMatch(/^[0-9a-f-]{36}$/);
    // The list is asked again once the job has ended; the moved orders leave the selection.
    await waitFor(() => expect(calls.filter((c) => c.path === SEARCH).length).toBeGreaterThan(searchesBefore));
    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.queryByRole('region', { name: 'Selected orders' })).toBeNull();
  });

  it('a refused move is a result per order (not moved, with the reason)', async () => {
    fakeApi(
      routes('AR Team', {
        [`POST ${SWITCH}`]: () =>
          jsonResponse(400, { error: { code: 'validation_failed', message: 'Agent 41 is not active.' } }),
      }),
    );
    const user = userEvent.setup();
    renderApp('#/order');
    const table = await screen.findByRole('table', { name: /Orders — 4 matches/ });
    await user.click(within(table).getByRole('checkbox', { name: 'Select all orders on this page' }));
    expect(screen.getByRole('region', { name: 'Selected orders' }).textContent).toContain('4 selected');
    await user.click(screen.getByRole('button', { name: 'Move to agent…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Move 4 orders to an agent' });
    const picker = within(dialog).getByRole('combobox', { name: 'Agent' });
    await waitFor(() => expect(within(picker).getByRole('option', { name: 'Rita Reyes (Distributor)' })).toBeTruthy());
    await user.selectOptions(picker, 'Rita Reyes (Distributor)');
    await user.click(within(dialog).getByRole('button', { name: 'Move 4 orders' }));
    const results = await within(dialog).findByRole('list', { name: 'Move results' });
    expect(within(dialog).getByText('0 of 4 orders moved to Rita Reyes.')).toBeTruthy();
    expect(within(results).getAllByRole('listitem')[0]!.textContent).toBe(
      'UO-2026-0001: not moved — Agent 41 is not active.',
    );
  });

  it('the selection is dropped when the filters change', async () => {
    fakeApi(routes('AR Team'));
    const user = userEvent.setup();
    renderApp('#/order');
    const table = await screen.findByRole('table', { name: /Orders — 4 matches/ });
    await user.click(within(table).getByRole('checkbox', { name: 'Select order UO-2026-0001' }));
    expect(screen.getByRole('region', { name: 'Selected orders' })).toBeTruthy();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Flow' }), 'RAM');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Selected orders' })).toBeNull());
    await user.click(screen.getByRole('checkbox', { name: 'Select order UO-2026-0002' }));
    await user.click(screen.getByRole('button', { name: 'Clear selection' }));
    expect(screen.queryByRole('region', { name: 'Selected orders' })).toBeNull();
  });

  it('a user without search_orders_edit (Marketing) sees no checkboxes and no move', async () => {
    fakeApi(routes('Marketing'));
    renderApp('#/order');
    const table = await screen.findByRole('table', { name: /Orders — 4 matches/ });
    expect(within(table).getByText('Store 1 LLC')).toBeTruthy();
    expect(within(table).queryByRole('checkbox')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Move to agent…' })).toBeNull();
  });
});
