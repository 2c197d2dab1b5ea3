import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '../../../test/factories';
import { fakeApi, type FakeRequest } from '../../../test/fake-api';
import { renderApp } from '../../../test/render-app';
import { customerRoutes, makeCustomer, makeSearchRecord, makeStore, signInAs } from '../lib/test-support';

const SEARCH = '/api/customers/tok/all';

describe('customer search (#/customer)', () => {
  it('says which kind it searches and asks the server for exactly that kind', async () => {
    const { calls } = fakeApi({
      ...signInAs('Customer Support'),
      [`GET ${SEARCH}`]: { items: [makeSearchRecord()], total: 1, total_capped: false },
    });
    const user = userEvent.setup();
    const { router } = renderApp('#/customer');

    const box = await screen.findByRole('searchbox', { name: 'Search customers' });
    await user.type(box, 'S500002');
    expect(screen.getByText('Will search store id 500002')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Search' }));

    expect(await screen.findByText('Searching store id 500002 — 1 match')).toBeTruthy();
    expect(router.state.location.search).toBe('?q=S500002');
    const call = calls.find((c) => c.path === SEARCH)!;
    expect(Object.fromEntries(call.query)).toEqual({ storeid: '500002', limit: '25', offset: '0' });
    const table = screen.getByRole('table', { name: /Matching stores/ });
    expect(within(table).getByRole('link', { name: 'Corner Deli - 1 Main St' }).getAttribute('href')).toBe(
      '#/customer?id=100001&store=500002&q=S500002',
    );
  });

  it('free text under 3 characters is not sent; the box says why', async () => {
    const { calls } = fakeApi({ ...signInAs('Customer Support') });
    const user = userEvent.setup();
    renderApp('#/customer');
    await user.type(await screen.findByRole('searchbox', { name: 'Search customers' }), 'ab{Enter}');
    expect(await screen.findByText(/Type at least 3 characters/)).toBeTruthy();
    expect(calls.some((c) => c.path === SEARCH)).toBe(false);
  });

  it('a header sorts on the server and the address keeps the sort', async () => {
    const { calls } = fakeApi({
      ...signInAs('Customer Support'),
      [`GET ${SEARCH}`]: { items: [makeSearchRecord()], total: 1, total_capped: false },
    });
    const user = userEvent.setup();
    const { router } = renderApp('#/customer?q=deli');
    await screen.findByRole('table', { name: /Matching stores/ });
    await user.click(screen.getByRole('button', { name: 'DBA' }));
    await waitFor(() => expect(calls.at(-1)?.query.get('sort')).toBe('doing_business_as'));
    expect(calls.at(-1)?.query.get('search')).toBe('deli');
    expect(router.state.location.search).toBe('?q=deli&sort=doing_business_as');
    expect(screen.getByRole('columnheader', { name: /DBA/ }).getAttribute('aria-sort')).toBe('ascending');
    await user.click(screen.getByRole('button', { name: 'DBA' }));
    await waitFor(() => expect(calls.at(-1)?.query.get('sort')).toBe('-doing_business_as'));
  });

  it('Export CSV downloads every matching row as the server writes it (format=csv)', async () => {
    const csv = 'customer_id,legal_name\r\n100001,Corner Deli LLC\r\n100002,Deli Two\r\n';
    const { calls } = fakeApi({
      ...signInAs('Customer Support'),
      [`GET ${SEARCH}`]: (r: FakeRequest) =>
        r.query.get('format') === 'csv'
          ? new Response(csv, { status: 200, headers: { 'Content-Type': 'text/csv' } })
          : { items: [makeSearchRecord()], total: 2, total_capped: false },
    });
    vi.spyOn(URL, 'createObjectURL').mockImplementation(() => 'blob:customers');
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    const user = userEvent.setup();
    renderApp('#/customer?q=deli&page=1&sort=-legal_name');
    await screen.findByRole('table', { name: /Matching stores/ });
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(await screen.findByText(/Exported 2 rows to customers-\d{4}-\d{2}-\d{2}\.csv\./)).toBeTruthy();
    const exportCall = calls.find((c) => c.query.get('format') === 'csv')!;
    expect(Object.fromEntries(exportCall.query)).toEqual({ search: 'deli', sort: '-legal_name', format: 'csv' });
    expect(click).toHaveBeenCalledTimes(1);
  });
  it('more matches than the server counts: "1,000+ matches", a note to narrow the term, and 40 pages of the first 1,000', async () => {
    const page = (offset: number) =>
      Array.from({ length: 25 }, (_, i) =>
        makeSearchRecord({ store_id: 600000 + offset + i, store_name: `Mart ${offset + i + 1}` }),
      );
    const { calls } = fakeApi({
      ...signInAs('Customer Support'),
      [`GET ${SEARCH}`]: (r: FakeRequest) => ({
        items: page(Number(r.query.get('offset'))),
        total: 1000,
        total_capped: true,
      }),
    });
    const user = userEvent.setup();
    const { router } = renderApp('#/customer?q=mar');
    expect(await screen.findByText('Searching text “mar” — 1,000+ matches')).toBeTruthy();
    expect(screen.getByRole('note').textContent).toMatch(
      /More than 1,000 matches: the list holds the first 1,000 found/,
    );
    const pages = screen.getByRole('navigation', { name: 'Result pages' });
    expect(screen.getByText('Showing 1–25 of 1000')).toBeTruthy();
    expect(within(pages).getByRole('button', { name: 'Previous page' }).hasAttribute('disabled')).toBe(true);
    await user.click(within(pages).getByRole('button', { name: 'Page 40' }));
    expect(await screen.findByText('Showing 976–1000 of 1000')).toBeTruthy();
    expect(calls.filter((c) => c.path === SEARCH).map((c) => c.query.get('offset'))).toEqual(['0', '975']);
    expect(router.state.location.search).toContain('page=40');
    expect(within(pages).getByRole('button', { name: 'Next page' }).hasAttribute('disabled')).toBe(true);
  });
});

describe('customer details (#/customer?id=…)', () => {
  it('shows the header: legal name, DBA, country, currency as C$, status, account manager, sales person; the Canadian flag in the app header', async () => {
    const customer = makeCustomer({ country: 'CA', currency: 'CAD' });
    fakeApi({ ...signInAs('AR Team'), ...customerRoutes(customer) });
    renderApp('#/customer?id=100001&tab=notes');
    const header = await screen.findByRole('region', { name: 'Corner Deli LLC' });
    const fact = (label: string) => within(header).getByText(label, { selector: 'dt' }).nextElementSibling?.textContent;
    expect(fact('DBA')).toBe('Corner Deli');
    expect(fact('Country')).toBe('Canada');
    expect(fact('Currency')).toBe('CAD (C$)');
    expect(fact('Status')).toBe('Active');
    expect(fact('Account manager')).toBe('is');
    await waitFor(() => expect(fact('Sales person')).toContain('Jordan Reyes (IS)'));
    expect(within(screen.getByRole('banner')).getByRole('img', { name: 'Canada' })).toBeTruthy();
  });

  it('with reports_edit the sales person opens the sales person page (decision 129); without, the name is plain text', async () => {
    fakeApi({ ...signInAs('AR Team'), ...customerRoutes(makeCustomer()) });
    const view = renderApp('#/customer?id=100001&tab=notes');
    const header = await screen.findByRole('region', { name: 'Corner Deli LLC' });
    const link = await within(header).findByRole('link', { name: 'Jordan Reyes' });
    expect(link.getAttribute('href')).toBe('#/sales-person/1');
    view.unmount();

    fakeApi({ ...signInAs('Customer Support'), ...customerRoutes(makeCustomer()) });
    renderApp('#/customer?id=100001&tab=notes');
    const plain = await screen.findByRole('region', { name: 'Corner Deli LLC' });
    await waitFor(() => expect(within(plain).getAllByText(/Jordan Reyes/).length).toBeGreaterThan(0));
    expect(within(plain).queryByRole('link', { name: 'Jordan Reyes' })).toBeNull();
  });

  it('shows what the customer owes (the ledger) and its oldest overdue due date; each store its open balance', async () => {
    const customer = makeCustomer({
      country: 'CA',
      currency: 'CAD',
      open_balances: [{ currency: 'CAD', open_cents: 154_00 }],
      oldest_overdue_on: '2026-09-15',
      stores: [makeStore({ country: 'CA', open_balance_cents: 154_00 })],
    });
    fakeApi({ ...signInAs('AR Team'), ...customerRoutes(customer) });
    renderApp('#/customer?id=100001&tab=notes');
    const header = await screen.findByRole('region', { name: 'Corner Deli LLC' });
    const fact = (label: string) => within(header).getByText(label, { selector: 'dt' }).nextElementSibling?.textContent;
    expect(fact('Open balance')).toBe('C$154.00');
    expect(fact('Oldest overdue')).toMatch(/^Due .*2026/);
    const stores = await screen.findByRole('table', { name: /Select a store/ });
    expect(within(stores).getByText('C$154.00')).toBeTruthy();
  });

  it('a customer who owes nothing: $0.00 and nothing overdue', async () => {
    fakeApi({ ...signInAs('AR Team'), ...customerRoutes(makeCustomer()) });
    renderApp('#/customer?id=100001&tab=notes');
    const header = await screen.findByRole('region', { name: 'Corner Deli LLC' });
    const fact = (label: string) => within(header).getByText(label, { selector: 'dt' }).nextElementSibling?.textContent;
    expect([fact('Open balance'), fact('Oldest overdue')]).toEqual(['$0.00', 'Nothing overdue']);
  });

  it('a US customer shows no flag', async () => {
    fakeApi({ ...signInAs('AR Team'), ...customerRoutes(makeCustomer()) });
    renderApp('#/customer?id=100001&tab=notes');
    await screen.findByRole('region', { name: 'Corner Deli LLC' });
    expect(within(screen.getByRole('banner')).queryByRole('img', { name: 'Canada' })).toBeNull();
  });

  it('with customer_details_edit the edit buttons and the note form show', async () => {
    fakeApi({ ...signInAs('Customer Support'), ...customerRoutes(makeCustomer()) });
    renderApp('#/customer?id=100001&tab=notes');
    await screen.findByRole('region', { name: 'Corner Deli LLC' });
    for (const name of [
      'Edit customer',
      'Edit store',
      'Edit address',
      'Send payment-update link',
      'Push license',
      'Validate MID',
    ]) {
      expect(await screen.findByRole('button', { name })).toBeTruthy();
    }
    for (const name of ['Edit payment method', 'Edit payment plan', 'Edit features']) {
      expect(screen.getByRole('link', { name })).toBeTruthy();
    }
    expect(screen.getByRole('link', { name: 'Edit payment method' }).getAttribute('href')).toBe(
      '#/editpayment?customer=100001&store=500002',
    );
    expect(screen.getByRole('textbox', { name: 'Note' })).toBeTruthy();
  });

  it('a view-only user (AR Team) sees no edit button, link or form', async () => {
    fakeApi({ ...signInAs('AR Team'), ...customerRoutes(makeCustomer()) });
    renderApp('#/customer?id=100001&tab=notes');
    await screen.findByRole('region', { name: 'Corner Deli LLC' });
    await screen.findByText('No notes yet.');
    expect(
      screen.queryAllByRole('button', { name: /^Edit|Push license|Validate MID|Send payment-update link|Add note/ }),
    ).toEqual([]);
    expect(screen.queryAllByRole('link', { name: /^Edit/ })).toEqual([]);
    expect(screen.queryByRole('textbox', { name: 'Note' })).toBeNull();
  });

  it('"Filter stores" applies from 3 characters, any case, across bracct, sales rep, store name and DBA', async () => {
    const stores = [
      makeStore({
        store_id: 500002,
        store_name: 'Corner Deli - Main',
        doing_business_as: 'Corner Deli',
        bracct: 'BR-1',
        sales_rep: 'Jordan Reyes',
      }),
      makeStore({
        store_id: 500003,
        store_name: 'Bagel Barn - Elm',
        doing_business_as: 'Bagel Barn',
        bracct: 'XQ-77',
        sales_rep: 'Sandra Lee',
      }),
      makeStore({
        store_id: 500004,
        store_name: 'Fuel Stop - Oak',
        doing_business_as: 'Fuel Stop',
        bracct: 'BR-2',
        sales_rep: 'Sandra Lee',
      }),
    ];
    fakeApi({ ...signInAs('AR Team'), ...customerRoutes(makeCustomer({ stores })) });
    const user = userEvent.setup();
    renderApp('#/customer?id=100001&tab=notes');
    const table = await screen.findByRole('table', { name: /Select a store/ });
    const names = () =>
      within(table)
        .queryAllByRole('button')
        .map((b) => b.textContent);
    expect(names()).toHaveLength(3);
    const filter = screen.getByRole('searchbox', { name: 'Filter stores' });
    await user.type(filter, 'ba');
    expect(names()).toHaveLength(3);
    await user.type(filter, 'g');
    expect(names()).toEqual(['Bagel Barn - Elm']);
    await user.clear(filter);
    await user.type(filter, 'SANDRA');
    expect(names()).toEqual(['Bagel Barn - Elm', 'Fuel Stop - Oak']);
    await user.clear(filter);
    await user.type(filter, 'xq-7');
    expect(names()).toEqual(['Bagel Barn - Elm']);
    expect(screen.getByText('1 of 3 stores match “xq-7”.')).toBeTruthy();
  });

  it('selecting a store and a tab updates the address', async () => {
    const stores = [makeStore({ store_id: 500002 }), makeStore({ store_id: 500003, store_name: 'Second store' })];
    fakeApi({ ...signInAs('AR Team'), ...customerRoutes(makeCustomer({ stores })) });
    const user = userEvent.setup();
    const { router } = renderApp('#/customer?id=100001&tab=notes');
    await user.click(await screen.findByRole('button', { name: 'Second store' }));
    expect(router.state.location.search).toBe('?id=100001&store=500003&tab=notes');
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Second store' }).getAttribute('aria-pressed')).toBe('true'),
    );
    await user.click(screen.getByRole('tab', { name: 'Activity' }));
    expect(router.state.location.search).toBe('?id=100001&store=500003&tab=activity');
    expect(await screen.findByText('No recorded activity yet.')).toBeTruthy();
  });

  it('an unknown customer says so', async () => {
    fakeApi({
      ...signInAs('AR Team'),
      'GET /api/customers/999999/tok': jsonResponse(404, {
        error: { code: 'not_found', message: 'Customer was not found.' },
      }),
    });
    renderApp('#/customer?id=999999');
    expect(await screen.findByText('Customer 999999 was not found. Check the id or search again.')).toBeTruthy();
  });
});
