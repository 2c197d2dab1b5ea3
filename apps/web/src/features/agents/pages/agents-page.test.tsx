import type { AgentDetail } from '@pos/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { errorResponse, fakeApi, type FakeRequest } from '../../../test/fake-api';
import { jsonResponse, signInAs } from '../../../test/factories';
import { renderApp } from '../../../test/render-app';

const LIST = '/api/agents/tok';

function makeAgent(overrides: Partial<AgentDetail> = {}): AgentDetail {
  return {
    agent_id: 12,
    name: 'Acme Distribution',
    email: 'acme@example.com',
    phone: '555-0100',
    type: 'Distributor',
    sales_channel: 'Distributor',
    sales_channel_code: 5,
    parent_agent_id: null,
    active: true,
    contact_name: 'Ann Acme',
    commission_percent: 12.5,
    parent_agent_name: null,
    store_count: 2,
    has_login: false,
    version: 3,
    ...overrides,
  };
}

describe('agents (#/view-agents, #/view-agent-stores, #/new-agent)', { timeout: 20_000 }, () => {
  it('lists agents and sends the filters to the server; editors see New agent and Edit', async () => {
    const { calls } = fakeApi({
      ...signInAs('Admin'),
      [`GET ${LIST}`]: { items: [makeAgent()], total: 1 },
    });
    const user = userEvent.setup();
    renderApp('#/view-agents');
    const table = await screen.findByRole('table', { name: 'Agents — 1 match' });
    const row = within(table).getByRole('link', { name: 'Stores of Acme Distribution' }).closest('tr')!;
    expect(within(row).getByText('12.5%')).toBeTruthy();
    expect(within(row).getByRole('link', { name: 'Agent 12' }).getAttribute('href')).toBe(
      '#/view-agent-stores/12/Acme%20Distribution',
    );
    expect(within(row).getByText('Ann Acme')).toBeTruthy();
    expect(within(row).getByRole('link', { name: 'Edit Acme Distribution' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'New agent' })).toBeTruthy();

    await user.selectOptions(screen.getByRole('combobox', { name: 'Type' }), 'REFP');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Sales channel' }), 'RAM');
    await user.type(screen.getByRole('textbox', { name: 'Name, e-mail or contact' }), 'acme');
    await user.click(screen.getByRole('button', { name: 'Apply filters' }));
    await waitFor(() =>
      expect(Object.fromEntries(calls.filter((c) => c.path === LIST).at(-1)!.query)).toEqual({
        type: 'REFP',
        channel: 'RAM',
        q: 'acme',
        status: 'active',
        limit: '25',
        offset: '0',
      }),
    );
  });

  it('the filters and page are in the address; a link with them fills the fields and asks the server for them', async () => {
    const { calls } = fakeApi({ ...signInAs('Admin'), [`GET ${LIST}`]: { items: [makeAgent()], total: 1 } });
    const user = userEvent.setup();
    renderApp('#/view-agents');
    await screen.findByRole('table', { name: 'Agents — 1 match' });
    const filters = screen.getByRole('search', { name: 'Filter agents' });
    await user.selectOptions(within(filters).getByRole('combobox', { name: 'Status' }), 'Active and inactive');
    await user.type(within(filters).getByRole('textbox', { name: 'Name, e-mail or contact' }), 'acme');
    await user.click(within(filters).getByRole('button', { name: 'Apply filters' }));
    await waitFor(() => expect(window.location.hash).toBe('#/view-agents?q=acme&status=all'));
    await waitFor(() =>
      expect(Object.fromEntries(calls.filter((c) => c.path === LIST).at(-1)!.query)).toMatchObject({
        q: 'acme',
        status: 'all',
      }),
    );
    await user.click(within(filters).getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(window.location.hash).toBe('#/view-agents'));
  });

  it('a copied address opens the same filtered page', async () => {
    const { calls } = fakeApi({ ...signInAs('Admin'), [`GET ${LIST}`]: { items: [makeAgent()], total: 30 } });
    renderApp('#/view-agents?type=REFP&q=acme&status=inactive&page=2');
    await screen.findByRole('table', { name: 'Agents — 30 matches' });
    const filters = screen.getByRole('search', { name: 'Filter agents' });
    expect((within(filters).getByRole('combobox', { name: 'Type' }) as HTMLSelectElement).value).toBe('REFP');
    expect((within(filters).getByRole('combobox', { name: 'Status' }) as HTMLSelectElement).value).toBe('inactive');
    expect((within(filters).getByRole('textbox', { name: 'Name, e-mail or contact' }) as HTMLInputElement).value).toBe(
      'acme',
    );
    expect(Object.fromEntries(calls.filter((c) => c.path === LIST).at(-1)!.query)).toEqual({
      type: 'REFP',
      q: 'acme',
      status: 'inactive',
      limit: '25',
      offset: '25',
    });
  });

  it('a Marketing user reads the list without New agent or Edit', async () => {
    fakeApi({ ...signInAs('Marketing'), [`GET ${LIST}`]: { items: [makeAgent()], total: 1 } });
    renderApp('#/view-agents');
    await screen.findByRole('table', { name: 'Agents — 1 match' });
    expect(screen.queryByRole('link', { name: 'New agent' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Edit Acme Distribution' })).toBeNull();
  });

  it("an agent's stores with status and open balance; invite sends the set-password link", async () => {
    const invited: FakeRequest[] = [];
    fakeApi({
      ...signInAs('Admin'),
      'GET /api/agents/12/tok/stores': {
        agent: makeAgent(),
        total: 1,
        items: [
          {
            store_id: 500010,
            store_name: 'Corner Deli',
            customer_id: 100005,
            customer_name: 'Corner Deli LLC',
            state: 'TX',
            status: 'active',
            status_label: 'Active',
            currency: 'USD',
            open_balance_cents: 99_00,
            assigned_at: '2026-10-01T00:00:00.000Z',
          },
        ],
      },
      'POST /api/agents/12/tok/invite': (r: FakeRequest) => {
        invited.push(r);
        return jsonResponse(200, { info: { agent_id: 12, email: 'acme@example.com', created: true } });
      },
    });
    const user = userEvent.setup();
    renderApp('#/view-agent-stores/12/Acme%20Distribution');
    const table = await screen.findByRole('table', { name: 'Stores of Acme Distribution — 1 store' });
    const row = within(table).getByText('Corner Deli').closest('tr')!;
    expect(within(row).getByText('$99.00')).toBeTruthy();
    expect(within(row).getByText('Active')).toBeTruthy();
    expect(within(row).getByRole('link', { name: 'Customer 100005' }).getAttribute('href')).toBe(
      '#/customer?id=100005',
    );
    await user.click(screen.getByRole('button', { name: 'Invite to distributor login' }));
    expect(await screen.findByText('A link to set the password was e-mailed to acme@example.com.')).toBeTruthy();
    expect(invited).toHaveLength(1);
  });

  it('another agent is "not found" with what to do', async () => {
    fakeApi({
      ...signInAs('Distributor'),
      'GET /api/agents/13/tok/stores': errorResponse(404, 'not_found', 'Agent 13 was not found.'),
    });
    renderApp('#/view-agent-stores/13/Bolt');
    expect(await screen.findByText(/Agent 13 was not found\..*Open an agent from the agents list\./)).toBeTruthy();
  });

  it('new agent as someone who may not edit agents: the e-mail is not checked (the server answers editors only)', async () => {
    const { calls } = fakeApi({
      ...signInAs('AR Team'),
      [`GET ${LIST}`]: { items: [makeAgent()], total: 1 },
      'POST /api/customers/agents/checkemail/tok': errorResponse(403, 'forbidden', 'Needs the Admin, RAM or IS role.'),
    });
    const user = userEvent.setup();
    renderApp('#/new-agent/0');
    await screen.findByRole('heading', { name: 'New agent' });
    expect(screen.getByText(/Only Admin, RAM and IS staff create and edit agents/)).toBeTruthy();
    await user.type(screen.getByRole('textbox', { name: /E-mail/ }), 'acme@example.com');
    await user.tab();
    await screen.findByRole('heading', { name: 'New agent' });
    expect(calls.filter((c) => c.path === '/api/customers/agents/checkemail/tok')).toEqual([]);
    expect(window.location.hash).toBe('#/new-agent/0');
  });

  it('new agent: the e-mail is checked lowercased; a taken one is marked and not saved', async () => {
    const saved: FakeRequest[] = [];
    const { calls } = fakeApi({
      ...signInAs('IS'),
      [`GET ${LIST}`]: { items: [makeAgent()], total: 1 },
      'POST /api/customers/agents/checkemail/tok': { exists: true, agent_id: 12 },
      [`POST ${LIST}`]: (r: FakeRequest) => {
        saved.push(r);
        return jsonResponse(200, { info: makeAgent({ agent_id: 40, name: 'New Co' }) });
      },
    });
    const user = userEvent.setup();
    renderApp('#/new-agent/0');
    await screen.findByRole('heading', { name: 'New agent' });
    await user.type(screen.getByRole('textbox', { name: /Agent name/ }), 'New Co');
    await user.type(screen.getByRole('textbox', { name: /E-mail/ }), 'ACME@Example.com');
    await user.tab();
    expect(await screen.findByText('Agent 12 already uses this e-mail. Use another e-mail.')).toBeTruthy();
    const check = calls.find((c) => c.path === '/api/customers/agents/checkemail/tok')!;
    expect(check.body).toEqual({ email: 'acme@example.com' });
    await user.click(screen.getByRole('button', { name: 'Create agent' }));
    expect(saved).toHaveLength(0);
  });
});
