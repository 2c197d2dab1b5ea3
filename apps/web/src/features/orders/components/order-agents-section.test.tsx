import { cleanNotifications } from '@mantine/notifications';
import { ORDER_STATUS, type AgentOrderAssignments, type AgentRecord, type OrderSearchRecord } from '@pos/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { errorResponse, fakeApi, type FakeRequest } from '../../../test/fake-api';
import { signInAs } from '../../../test/factories';
import { renderApp } from '../../../test/render-app';
import { formatDateTime } from '../../../lib/format';

/* "Agents on this order" in the order panel (decision 162): the list, Add agent…, Make sole agent, Remove. */

const ORDER_ID = 700001;
const READ = `/api/customers/agentorders/${ORDER_ID}/tok`;
const ADD = '/api/customers/agentorders/tok/add';
const SOLE = '/api/customers/agentorders/tok/updateagentid';
const DELETE = '/api/customers/agentorders/tok/delete';
const AGENTS = '/api/customers/getagents/tok';

function makeOrder(overrides: Partial<OrderSearchRecord> = {}): OrderSearchRecord {
  return {
    id: ORDER_ID,
    unified_order_id: 'UO-2026-0001',
    status: ORDER_STATUS.PENDING_AR_APPROVAL,
    status_label: 'Pending AR Approval',
    flow: 'AR',
    order_type: 'P',
    legal_name: 'Zephyr Foods LLC',
    dba_name: 'Zephyr Deli',
    sales_rep: 'Dana Whitfield',
    agent_id: 41,
    agent: 'Rita Reyes',
    country: 'US',
    currency: 'USD',
    total_sale_cents: 149950,
    order_date: '2026-03-01T12:00:00.000Z',
    updated_at: '2026-03-02T12:00:00.000Z',
    version: 7,
    ...overrides,
  };
}

const RITA = {
  agent_id: 41,
  name: 'Rita Reyes',
  type: 'Distributor',
  assigned_by_email: 'ops@example.com',
  assigned_at: '2026-03-01T15:30:00.000Z',
};
const SAM = {
  agent_id: 42,
  name: 'Sam Ortega',
  type: 'REFP',
  assigned_by_email: 'support@example.com',
  assigned_at: '2026-11-22T12:00:00.000Z',
};

const assignments = (agents: AgentOrderAssignments['agents'], agentId = 41, version = 7): AgentOrderAssignments => ({
  order_id: ORDER_ID,
  agent_id: agentId,
  version,
  agents,
});

const agent = (id: number, name: string, type: AgentRecord['type']): AgentRecord => ({
  agent_id: id,
  name,
  email: `${name.split(' ')[0]!.toLowerCase()}@example.com`,
  phone: null,
  type,
  sales_channel: 'Distributor',
  sales_channel_code: 5,
  parent_agent_id: null,
  active: true,
});

function routes(role: string, extra: Record<string, unknown> = {}) {
  return {
    ...signInAs(role),
    'GET /api/customers/orders/search/tok': { items: [makeOrder()], total: 1, total_capped: false },
    [`GET /api/customers/orders/${ORDER_ID}/tok`]: { order: makeOrder() },
    [`GET /api/customers/orderstatus/history/${ORDER_ID}/tok`]: { history: [] },
    [`GET /api/customers/ordernotes/${ORDER_ID}/tok`]: { notes: [] },
    [`GET /api/customers/orderinfo/${ORDER_ID}/customermatch/tok`]: { match: null },
    [`GET /api/customers/contracts/${ORDER_ID}/tok`]: { contracts: [] },
    [`GET ${READ}`]: assignments([RITA]),
    [`GET ${AGENTS}`]: (r: FakeRequest) => {
      const all = [agent(41, 'Rita Reyes', 'Distributor'), agent(42, 'Sam Ortega', 'REFP')];
      const q = (r.query.get('search') ?? '').toLowerCase();
      const agents = all.filter((a) => a.name.toLowerCase().includes(q));
      return { agents, total: agents.length, limit: 50, offset: 0 };
    },
    ...extra,
  };
}

async function openSection() {
  renderApp(`#/order?id=${ORDER_ID}`);
  const panel = await screen.findByRole('region', { name: 'Order UO-2026-0001' }, { timeout: 10_000 });
  const section = within(panel).getByRole('region', { name: 'Agents on this order' });
  await within(section).findByRole('table', { name: 'Agents on this order' });
  return section;
}

const rowOf = (section: HTMLElement, name: string) =>
  within(section).getByRole('link', { name }).closest('tr') as HTMLElement;

describe('order panel: Agents on this order (decision 162)', { timeout: 30_000 }, () => {
  // Toasts live in one store for the whole file: a test starts with none, so its own are not queued behind others.
  beforeEach(() => cleanNotifications());

  it('lists the agents: a link to the agent, type, who added it and when; the main agent marked', async () => {
    fakeApi(
      routes('Operations', {
        [`GET ${READ}`]: assignments([RITA, SAM]),
      }),
    );
    const section = await openSection();
    const link = within(section).getByRole('link', { name: 'Rita Reyes' });
    expect(link.getAttribute('href')).toBe('#/view-agent-stores/41/Rita%20Reyes');
    const rita = rowOf(section, 'Rita Reyes');
    expect(within(rita).getByText('Main')).toBeTruthy();
    expect(within(rita).getByText('Distributor')).toBeTruthy();
    expect(within(rita).getByText('ops@example.com')).toBeTruthy();
    expect(within(rita).getByText(formatDateTime(RITA.assigned_at))).toBeTruthy();
    const sam = rowOf(section, 'Sam Ortega');
    expect(within(sam).getByText('REFP')).toBeTruthy();
    expect(within(sam).queryByText('Main')).toBeNull();
    expect(within(section).getAllByRole('row')).toHaveLength(3);
  });

  it('says when the order has no agents', async () => {
    fakeApi(routes('Operations', { [`GET ${READ}`]: assignments([], 41) }));
    renderApp(`#/order?id=${ORDER_ID}`);
    const panel = await screen.findByRole('region', { name: 'Order UO-2026-0001' }, { timeout: 10_000 });
    const section = within(panel).getByRole('region', { name: 'Agents on this order' });
    expect(await within(section).findByText('No agents on this order yet.')).toBeTruthy();
  });

  it('Add agent…: picks an agent (those already on it not offered), sends add, shows the new row', async () => {
    const { calls } = fakeApi(routes('Operations', { [`POST ${ADD}`]: assignments([RITA, SAM]) }));
    const user = userEvent.setup();
    const section = await openSection();
    await user.click(within(section).getByRole('button', { name: 'Add agent…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add an agent to order UO-2026-0001' });
    const picker = within(dialog).getByRole('combobox', { name: 'Agent' });
    await within(picker).findByRole('option', { name: 'Sam Ortega (REFP)' });
    const taken = within(picker).getByRole('option', { name: 'Rita Reyes (Distributor) — already on this order' });
    expect((taken as HTMLOptionElement).disabled).toBe(true);
    const add = within(dialog).getByRole('button', { name: 'Add agent' });
    expect(add.hasAttribute('disabled')).toBe(true);
    await user.selectOptions(picker, 'Sam Ortega (REFP)');
    await user.click(add);

    expect(await screen.findByText('Sam Ortega is now on order UO-2026-0001.')).toBeTruthy();
    expect(calls.find((c) => c.method === 'POST' && c.path === ADD)!.body).toEqual({
      order_id: ORDER_ID,
      agent_id: 42,
    });
    expect(await within(section).findByRole('link', { name: 'Sam Ortega' })).toBeTruthy();
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Add an agent to order UO-2026-0001' })).toBeNull(),
    );
  });

  it('Add agent…: a refusal says what happened and what to do, the dialog stays open', async () => {
    fakeApi(
      routes('Operations', {
        [`POST ${ADD}`]: errorResponse(409, 'conflict', 'Agent Sam Ortega is already on order 700001.'),
      }),
    );
    const user = userEvent.setup();
    const section = await openSection();
    await user.click(within(section).getByRole('button', { name: 'Add agent…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add an agent to order UO-2026-0001' });
    const picker = within(dialog).getByRole('combobox', { name: 'Agent' });
    await within(picker).findByRole('option', { name: 'Sam Ortega (REFP)' });
    await user.selectOptions(picker, 'Sam Ortega (REFP)');
    await user.click(within(dialog).getByRole('button', { name: 'Add agent' }));
    expect(
      await screen.findByText('Agent Sam Ortega is already on order 700001. Check the record and try again.'),
    ).toBeTruthy();
    expect(screen.getByRole('dialog', { name: 'Add an agent to order UO-2026-0001' })).toBeTruthy();
  });

  it('Make sole agent sends the order version; a 409 version conflict says to reload', async () => {
    const { calls } = fakeApi(
      routes('Operations', {
        [`GET ${READ}`]: assignments([RITA, SAM], 41, 7),
        [`PUT ${SOLE}`]: errorResponse(409, 'version_conflict', 'Order 700001 was changed by someone else.'),
      }),
    );
    const user = userEvent.setup();
    const section = await openSection();
    expect(
      within(rowOf(section, 'Rita Reyes'))
        .getByRole('button', { name: 'Make Rita Reyes the sole agent' })
        .hasAttribute('disabled'),
    ).toBe(false);
    await user.click(
      within(rowOf(section, 'Sam Ortega')).getByRole('button', { name: 'Make Sam Ortega the sole agent' }),
    );
    expect(await screen.findByText(/Reload the page to see the order as it is now/)).toBeTruthy();
    expect(calls.find((c) => c.method === 'PUT' && c.path === SOLE)!.body).toEqual({
      order_id: ORDER_ID,
      agent_id: 42,
      version: 7,
    });
  });

  it('Make sole agent: the others are taken off and the order has the new main agent', async () => {
    fakeApi(
      routes('Operations', {
        [`GET ${READ}`]: assignments([RITA, SAM], 41, 7),
        [`PUT ${SOLE}`]: assignments([{ ...SAM }], 42, 8),
      }),
    );
    const user = userEvent.setup();
    const section = await openSection();
    await user.click(
      within(rowOf(section, 'Sam Ortega')).getByRole('button', { name: 'Make Sam Ortega the sole agent' }),
    );
    expect(
      await screen.findByText('Sam Ortega is now the only agent on order UO-2026-0001; 1 other agent was taken off.'),
    ).toBeTruthy();
    await waitFor(() => expect(within(section).queryByRole('link', { name: 'Rita Reyes' })).toBeNull());
    expect(within(rowOf(section, 'Sam Ortega')).getByText('Main')).toBeTruthy();
  });

  it('Remove asks first, then takes the agent off', async () => {
    const { calls } = fakeApi(
      routes('Operations', {
        [`GET ${READ}`]: assignments([RITA, SAM]),
        [`DELETE ${DELETE}`]: assignments([RITA]),
      }),
    );
    const user = userEvent.setup();
    const section = await openSection();
    await user.click(within(rowOf(section, 'Sam Ortega')).getByRole('button', { name: 'Remove Sam Ortega' }));
    const confirm = await screen.findByRole('dialog', { name: 'Remove the agent from this order?' });
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    await user.click(within(confirm).getByRole('button', { name: 'Remove agent' }));
    expect(await screen.findByText('Sam Ortega is no longer on order UO-2026-0001.')).toBeTruthy();
    expect(calls.find((c) => c.method === 'DELETE')!.body).toEqual({ order_id: ORDER_ID, agent_id: 42 });
    await waitFor(() => expect(within(section).queryByRole('link', { name: 'Sam Ortega' })).toBeNull());
  });

  it('a user who may only view orders sees the agents but no actions', async () => {
    fakeApi(routes('Marketing', { [`GET ${READ}`]: assignments([RITA, SAM]) }));
    const section = await openSection();
    expect(within(section).getByRole('link', { name: 'Sam Ortega' })).toBeTruthy();
    expect(within(section).queryByRole('button')).toBeNull();
    expect(within(section).queryByRole('columnheader', { name: 'Actions' })).toBeNull();
  });
});
