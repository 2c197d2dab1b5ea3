import { ORDER_STATUS, type GlobalSearchResult } from '@pos/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fakeApi, type FakeRequest } from '../../test/fake-api';
import { signInAs } from '../../test/factories';
import { renderApp, withPages } from '../../test/render-app';

/* The global search (decision 106): ⌘K / Ctrl+K or the header's button, one call, results grouped, Enter opens. */

const page = (heading: string) => () => Promise.resolve({ default: () => <h1>{heading}</h1> });
const screens = withPages({ order: page('Orders page'), customer: page('Customer page') });

const answer: GlobalSearchResult = {
  q: 'numbat',
  searched: ['customer', 'store', 'terminal', 'order'],
  customers: [
    {
      customer_id: 100007,
      legal_name: 'Numbat Holdings LLC',
      federal_tax_id: '41-9900001',
      country: 'US',
      status: 'active',
    },
  ],
  stores: [
    {
      store_id: 500012,
      customer_id: 100007,
      store_name: 'Numbat Bakery - Harbour Road',
      doing_business_as: 'Sunrise Crumbs',
      bracct: 'BRX-77123',
      legal_name: 'Numbat Holdings LLC',
      city: 'Austin',
      state: 'TX',
      status: 'active',
    },
  ],
  terminals: [
    {
      terminal_id: 9,
      elmer_id: '3000063',
      serial_number: 'NT230000009',
      status: 'active',
      store_id: 500012,
      customer_id: 100007,
      store_name: 'Numbat Bakery - Harbour Road',
    },
  ],
  orders: [
    {
      order_id: 700042,
      unified_order_id: 'UO-700042',
      status: ORDER_STATUS.PENDING_AR_APPROVAL,
      status_label: 'Pending AR Approval',
      legal_name: 'Numbat Holdings LLC',
      dba_name: null,
    },
  ],
  more: false,
};

function server(role = 'Customer Support') {
  return fakeApi({
    ...signInAs(role),
    'GET /api/search/tok': (r: FakeRequest) => ({ ...answer, q: r.query.get('q') }),
  });
}

async function openWithButton() {
  await userEvent.click(await screen.findByRole('button', { name: 'Search everywhere' }));
  return screen.findByRole('textbox', { name: 'Search customers, stores, terminals and orders' });
}

/** The search dialog (the navigation has groups too). */
const dialog = () => within(screen.getByRole('dialog', { name: 'Search everywhere' }));
/** The groups of results by kind, inside the labelled "Results" list. */
const resultGroups = () => within(dialog().getByRole('group', { name: 'Results' })).queryAllByRole('group');
const groupNames = () => resultGroups().map((g) => g.getAttribute('aria-label'));

describe('global search', () => {
  it('finds records with one call, grouped by kind, each saying what it is', async () => {
    const { calls } = server();
    renderApp('#/order', screens);
    const box = await openWithButton();
    await userEvent.type(box, 'numbat');

    await screen.findByRole('group', { name: 'Stores' });
    expect(groupNames()).toEqual(['Customers', 'Stores', 'Terminals', 'Orders']);
    const stores = within(dialog().getByRole('group', { name: 'Stores' }));
    expect(stores.getByRole('button').textContent).toBe(
      'Numbat Bakery - Harbour RoadStore 500012 · DBA Sunrise Crumbs · bracct BRX-77123 · Numbat Holdings LLC',
    );
    const terminals = within(dialog().getByRole('group', { name: 'Terminals' }));
    expect(terminals.getByRole('button').textContent).toContain('Serial NT230000009');
    expect(screen.getByRole('status').textContent).toBe('4 matches.');
    // Typing pauses before asking: one call for the whole word.
    const searches = calls.filter((c) => c.path === '/api/search/tok');
    expect(searches.map((c) => c.query.get('q'))).toEqual(['numbat']);
  });

  it('Enter opens the first result (a customer → its customer page)', async () => {
    server();
    renderApp('#/order', screens);
    await userEvent.type(await openWithButton(), 'numbat');
    await screen.findByRole('group', { name: 'Customers' });
    await waitFor(() =>
      expect(screen.getByRole('button', { name: /^Numbat Holdings LLC/ }).hasAttribute('data-selected')).toBe(true),
    );
    await userEvent.keyboard('{Enter}');
    await screen.findByRole('heading', { name: 'Customer page' });
    expect(window.location.hash).toBe('#/customer?id=100007');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Search everywhere' })).toBeNull());
  });

  it('a click opens any result: a store on its customer page at the store, an order on the order list', async () => {
    server();
    renderApp('#/customer', screens);
    await userEvent.type(await openWithButton(), 'numbat');
    await userEvent.click(await screen.findByRole('button', { name: /^Numbat Bakery/ }));
    await waitFor(() => expect(window.location.hash).toBe('#/customer?id=100007&store=500012'));

    await userEvent.type(await openWithButton(), 'numbat');
    await userEvent.click(await screen.findByRole('button', { name: /^UO-700042/ }));
    await screen.findByRole('heading', { name: 'Orders page' });
    expect(window.location.hash).toBe('#/order?id=700042');
  });

  it('the arrow keys choose another result for Enter', async () => {
    server();
    renderApp('#/order', screens);
    const box = await openWithButton();
    await userEvent.type(box, 'numbat');
    await screen.findByRole('group', { name: 'Terminals' });
    await waitFor(() =>
      expect(screen.getByRole('button', { name: /^Numbat Holdings/ }).hasAttribute('data-selected')).toBe(true),
    );
    await userEvent.keyboard('{ArrowDown}{ArrowDown}{Enter}');
    await waitFor(() => expect(window.location.hash).toBe('#/customer?id=100007&store=500012'));
  });

  it('Ctrl+K opens it from anywhere, even from a text field', async () => {
    server();
    renderApp('#/order', screens);
    await screen.findByRole('button', { name: 'Search everywhere' });
    await userEvent.keyboard('{Control>}k{/Control}');
    expect(await screen.findByRole('textbox', { name: 'Search customers, stores, terminals and orders' })).toBeTruthy();
  });

  it('asks nothing for text shorter than 3 characters, and says why; an id may be short', async () => {
    const { calls } = server();
    renderApp('#/order', screens);
    const box = await openWithButton();
    await userEvent.type(box, 'nu');
    expect(screen.getByRole('status').textContent).toBe('Type at least 3 characters, or an id.');
    await new Promise((r) => setTimeout(r, 300));
    expect(calls.filter((c) => c.path === '/api/search/tok')).toEqual([]);

    await userEvent.clear(box);
    await userEvent.type(box, '7');
    await waitFor(() => expect(calls.filter((c) => c.path === '/api/search/tok')).toHaveLength(1));
  });

  it('says when nothing matched', async () => {
    fakeApi({
      ...signInAs('Customer Support'),
      'GET /api/search/tok': { ...answer, q: 'zzz', customers: [], stores: [], terminals: [], orders: [] },
    });
    renderApp('#/order', screens);
    await userEvent.type(await openWithButton(), 'zzz');
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Nothing found for “zzz”.'));
    expect(resultGroups()).toEqual([]);
  });

  it('offers only the kinds the role may search (Marketing: orders)', async () => {
    server('Marketing');
    renderApp('#/order', screens);
    await userEvent.click(await screen.findByRole('button', { name: 'Search everywhere' }));
    expect(await screen.findByRole('textbox', { name: 'Search orders' })).toBeTruthy();
  });
});
