import { ORDER_STATUS, type OrderSearchRecord } from '@pos/domain';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { errorResponse, fakeApi, type FakeRequest } from '../../../test/fake-api';
import { renderApp } from '../../../test/render-app';
import { signInAs } from '../../../test/factories';

const SEARCH = '/api/customers/orders/search/tok';
const HISTORY = '/api/customers/orderstatus/history/700001/tok';
const NOTES = '/api/customers/ordernotes/700001/tok';
const REASONS = '/api/customers/orderstatus/tok';
const CHANGE = '/api/customers/ordernotes/tok';
const ONE = (id: number) => `/api/customers/orders/${id}/tok`;

function makeOrder(overrides: Partial<OrderSearchRecord> = {}): OrderSearchRecord {
  return {
    id: 700001,
    unified_order_id: 'UO-2026-0001',
    status: ORDER_STATUS.PENDING_AR_APPROVAL,
    status_label: 'Pending AR Approval',
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
    version: 4,
    ...overrides,
  };
}

const historyRow = (over: Record<string, unknown> = {}) => ({
  id: 1,
  order_id: 700001,
  from_status: ORDER_STATUS.PENDING_CONTRACT_SIGN,
  to_status: ORDER_STATUS.PENDING_AR_APPROVAL,
  status_reason_id: null,
  reason: null,
  note: null,
  changed_by_email: 'ram@example.com',
  changed_at: '2026-03-02T12:00:00.000Z',
  ...over,
});

function orderRoutes(extra: Record<string, unknown> = {}) {
  return {
    ...signInAs('AR Team'),
    [`GET ${SEARCH}`]: { items: [makeOrder()], total: 1, total_capped: false },
    [`GET ${HISTORY}`]: { history: [historyRow()] },
    [`GET ${NOTES}`]: { notes: [] },
    [`GET ${ONE(700001)}`]: { order: makeOrder() },
    ...extra,
  };
}

const lastSearch = (calls: FakeRequest[]) => Object.fromEntries(calls.filter((c) => c.path === SEARCH).at(-1)!.query);

async function pick(label: string | RegExp, option: string, within_: HTMLElement = document.body) {
  const select = await within(within_).findByRole('combobox', { name: label });
  await waitFor(() => expect(within(select).getByRole('option', { name: option })).toBeTruthy());
  await userEvent.setup().selectOptions(select, option);
}

/** The statuses chosen in the Status dropdown, by their labels (the pills' remove buttons). */
function statusesShown(filters: HTMLElement): string[] {
  return within(filters)
    .queryAllByRole('button', { name: /^Remove / })
    .map((b) => (b.getAttribute('aria-label') ?? '').replace(/^Remove /, ''));
}

/** Take every chosen status off (no status: every status). */
async function clearStatuses(filters: HTMLElement) {
  const user = userEvent.setup();
  for (const b of within(filters).queryAllByRole('button', { name: /^Remove / })) await user.click(b);
}

/** Add a status to the Status dropdown by its label. */
async function chooseStatus(filters: HTMLElement, label: string) {
  const user = userEvent.setup();
  await user.click(within(filters).getByRole('combobox', { name: 'Status' }));
  await user.click(await within(filters).findByRole('option', { name: label }));
}

describe('order list (#/order)', () => {
  it("opens on the caller's queue, says so, and asks the server for that status", async () => {
    const { calls } = fakeApi(orderRoutes());
    renderApp('#/order');
    expect(await screen.findByText('Your queue: Pending AR Approval')).toBeTruthy();
    const table = await screen.findByRole('table', { name: /Orders — 1 match/ });
    expect(within(table).getByText('Zephyr Foods LLC')).toBeTruthy();
    expect(within(table).getByText('$1,499.50')).toBeTruthy();
    expect(lastSearch(calls)).toEqual({ status: ORDER_STATUS.PENDING_AR_APPROVAL, limit: '25', offset: '0' });
  });

  it('a queue with more orders than the server counts says "1,000+ matches" and pages on until a short page', async () => {
    const rows = (offset: number) =>
      Array.from({ length: offset === 0 ? 25 : 4 }, (_, i) =>
        makeOrder({ id: 800000 + offset + i, unified_order_id: `UO-BULK-${offset + i + 1}` }),
      );
    const { calls } = fakeApi(
      orderRoutes({
        [`GET ${SEARCH}`]: (r: FakeRequest) => ({
          items: rows(Number(r.query.get('offset'))),
          total: 1000,
          total_capped: true,
        }),
      }),
    );
    const user = userEvent.setup();
    renderApp('#/order');
    expect(await screen.findByRole('table', { name: 'Orders — 1,000+ matches' })).toBeTruthy();
    expect(screen.getByText('Showing 1–25 of 1,000+')).toBeTruthy();
    const pages = screen.getByRole('navigation', { name: 'Order pages' });
    await user.click(within(pages).getByRole('button', { name: 'Next page' }));
    // The page is in the address: the whole routed view renders again (25 rows, slow on a busy test machine).
    expect(await screen.findByText('Showing 26–29 of 1,000+', undefined, { timeout: 10_000 })).toBeTruthy();
    expect(screen.getByText('UO-BULK-29')).toBeTruthy();
    expect(lastSearch(calls).offset).toBe('25');
    expect(within(pages).getByRole('button', { name: 'Next page' }).hasAttribute('disabled')).toBe(true);
  });

  it('a Canadian order shows C$ (the domain’s money format) in the list and its panel, never CA$', async () => {
    fakeApi(
      orderRoutes({
        [`GET ${SEARCH}`]: { items: [makeOrder({ country: 'CA', currency: 'CAD' })], total: 1, total_capped: false },
        // The open order is read again (live: decision 156) — the same Canadian order.
        [`GET ${ONE(700001)}`]: { order: makeOrder({ country: 'CA', currency: 'CAD' }) },
      }),
    );
    const user = userEvent.setup();
    renderApp('#/order');
    const table = await screen.findByRole('table', { name: /Orders — 1 match/ });
    expect(within(table).getByText('C$1,499.50')).toBeTruthy();
    expect(within(table).getByText('Mar 1, 2026')).toBeTruthy();
    await user.click(screen.getByRole('link', { name: 'Open order UO-2026-0001' }));
    const summary = await screen.findByRole('region', { name: 'Order summary' });
    expect(summary.textContent).toContain('C$1,499.50');
    expect(document.body.textContent).not.toContain('CA$');
  });

  it('sends the labelled filters, refuses search text under 3 characters, and sorts on the server', async () => {
    const { calls } = fakeApi(orderRoutes());
    const user = userEvent.setup();
    renderApp('#/order');
    await screen.findByRole('table', { name: /Orders — 1 match/ });
    await pick('Flow', 'RAM');
    await user.type(screen.getByRole('textbox', { name: 'Sales rep' }), 'whit');
    await user.type(screen.getByLabelText('Order date from'), '2026-03-01');
    await user.type(screen.getByRole('textbox', { name: /Search text/ }), 'ze');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    expect(await screen.findByText('Type at least 3 characters.')).toBeTruthy();
    expect(lastSearch(calls).flow).toBeUndefined();
    await user.type(screen.getByRole('textbox', { name: /Search text/ }), 'p');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    await waitFor(() =>
      expect(lastSearch(calls)).toMatchObject({
        status: ORDER_STATUS.PENDING_AR_APPROVAL,
        flow: 'RAM',
        sales_rep: 'whit',
        date_from: '2026-03-01',
        q: 'zep',
      }),
    );
    await user.click(screen.getByRole('button', { name: /Legal name/ }));
    await waitFor(() => expect(lastSearch(calls).sort).toBe('legal_name'));
    await user.click(screen.getByRole('button', { name: /Legal name/ }));
    await waitFor(() => expect(lastSearch(calls).sort).toBe('-legal_name'));
  });

  it('the filters, sort and page are in the address; a link with them shows them in the fields and asks the server for them', async () => {
    const { calls } = fakeApi(orderRoutes());
    const user = userEvent.setup();
    renderApp('#/order');
    await screen.findByRole('table', { name: /Orders — 1 match/ });
    const filters = screen.getByRole('search', { name: 'Filter orders' });
    await clearStatuses(filters);
    await user.type(within(filters).getByRole('textbox', { name: 'Sales rep' }), 'whit');
    await user.click(within(filters).getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(window.location.hash).toBe('#/order?status=&sales_rep=whit'));
    await waitFor(() => expect(lastSearch(calls)).toMatchObject({ sales_rep: 'whit' }));
    await user.click(screen.getByRole('button', { name: /Legal name/ }));
    await waitFor(() => expect(window.location.hash).toBe('#/order?status=&sales_rep=whit&sort=legal_name'));
    await waitFor(() =>
      expect(screen.getByRole('columnheader', { name: /Legal name/ }).getAttribute('aria-sort')).toBe('ascending'),
    );
    // Opening an order keeps the view; Back closes it and the filters stay.
    await user.click(screen.getByRole('link', { name: 'Open order UO-2026-0001' }));
    await screen.findByRole('region', { name: 'Order UO-2026-0001' });
    expect(window.location.hash).toBe('#/order?status=&sales_rep=whit&sort=legal_name&id=700001');
    window.history.back();
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Order UO-2026-0001' })).toBeNull());
    expect((within(filters).getByRole('textbox', { name: 'Sales rep' }) as HTMLInputElement).value).toBe('whit');
    // "My queue" goes back to the role's queue.
    await user.click(within(filters).getByRole('button', { name: 'My queue' }));
    await waitFor(() => expect(window.location.hash).toBe('#/order?sort=legal_name'));
    await waitFor(() =>
      expect(statusesShown(filters)).toEqual([`Pending AR Approval (${ORDER_STATUS.PENDING_AR_APPROVAL})`]),
    );
    expect(lastSearch(calls)).toEqual({
      status: ORDER_STATUS.PENDING_AR_APPROVAL,
      sort: 'legal_name',
      limit: '25',
      offset: '0',
    });
  });

  it('keeps the current order status for the tab (§3): the Orders link opens on it; My queue goes back', async () => {
    const { calls } = fakeApi(orderRoutes());
    const user = userEvent.setup();
    const { router } = renderApp('#/order');
    await screen.findByRole('table', { name: /Orders — / });
    const filters = screen.getByRole('search', { name: 'Filter orders' });
    await clearStatuses(filters);
    await user.click(within(filters).getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(window.location.hash).toBe('#/order?status='));
    expect(window.sessionStorage.getItem('currentOrderStatus')).toBe('');
    // Elsewhere and back by the navigation's address (no status in it): the list shows every status again.
    await act(() => router.navigate('/approvals'));
    await waitFor(() => expect(screen.queryByRole('search', { name: 'Filter orders' })).toBeNull());
    await act(() => router.navigate('/order'));
    await waitFor(() => expect(window.location.hash).toBe('#/order?status='));
    await waitFor(() => expect(lastSearch(calls).status).toBeUndefined());
    await user.click(
      within(screen.getByRole('search', { name: 'Filter orders' })).getByRole('button', { name: 'My queue' }),
    );
    await waitFor(() => expect(window.location.hash).toBe('#/order'));
    expect(window.sessionStorage.getItem('currentOrderStatus')).toBe(ORDER_STATUS.PENDING_AR_APPROVAL);
  });

  it('filters on several statuses at once: the address and the server get the comma list', async () => {
    const { calls } = fakeApi(orderRoutes());
    const user = userEvent.setup();
    renderApp('#/order');
    await screen.findByRole('table', { name: /Orders — / });
    const filters = screen.getByRole('search', { name: 'Filter orders' });
    await chooseStatus(filters, `AR Contract Regenerated (${ORDER_STATUS.AR_CONTRACT_REGENERATED})`);
    expect(statusesShown(filters)).toEqual([
      `Pending AR Approval (${ORDER_STATUS.PENDING_AR_APPROVAL})`,
      `AR Contract Regenerated (${ORDER_STATUS.AR_CONTRACT_REGENERATED})`,
    ]);
    await user.click(within(filters).getByRole('button', { name: 'Apply' }));
    await waitFor(() =>
      expect(window.location.hash).toBe(
        `#/order?status=${ORDER_STATUS.PENDING_AR_APPROVAL}%2C${ORDER_STATUS.AR_CONTRACT_REGENERATED}`,
      ),
    );
    await waitFor(() =>
      expect(lastSearch(calls).status).toBe(
        `${ORDER_STATUS.PENDING_AR_APPROVAL},${ORDER_STATUS.AR_CONTRACT_REGENERATED}`,
      ),
    );
  });

  it('a copied address opens the same view: its filters in the fields, sent to the server, from its page', async () => {
    const { calls } = fakeApi(orderRoutes());
    renderApp('#/order?status=&flow=RAM&date_from=2026-03-01&q=zep&sort=-total_sale_cents&page=2');
    await screen.findByRole('table', { name: /Orders — 1 match/ });
    const filters = screen.getByRole('search', { name: 'Filter orders' });
    expect(statusesShown(filters)).toEqual([]);
    expect((within(filters).getByRole('combobox', { name: 'Flow' }) as HTMLSelectElement).value).toBe('RAM');
    expect((within(filters).getByLabelText('Order date from') as HTMLInputElement).value).toBe('2026-03-01');
    expect((within(filters).getByRole('textbox', { name: /Search text/ }) as HTMLInputElement).value).toBe('zep');
    expect(screen.getByRole('columnheader', { name: /Total/ }).getAttribute('aria-sort')).toBe('descending');
    expect(lastSearch(calls)).toEqual({
      flow: 'RAM',
      date_from: '2026-03-01',
      q: 'zep',
      sort: '-total_sale_cents',
      limit: '25',
      offset: '25',
    });
  });

  it('Export CSV asks for all rows as CSV with the same filters', async () => {
    const { calls } = fakeApi({
      ...orderRoutes(),
      [`GET ${SEARCH}`]: (r: FakeRequest) =>
        r.query.get('format') === 'csv'
          ? new Response('\uFEFFid\r\n700001\r\n', { headers: { 'Content-Type': 'text/csv' } })
          : { items: [makeOrder()], total: 1, total_capped: false },
    });
    const user = userEvent.setup();
    vi.spyOn(URL, 'createObjectURL').mockImplementation(() => 'blob:orders');
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    renderApp('#/order');
    await screen.findByRole('table', { name: /Orders — 1 match/ });
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(calls.some((c) => c.path === SEARCH && c.query.get('format') === 'csv')).toBe(true));
    const csv = calls.find((c) => c.query.get('format') === 'csv')!;
    expect(csv.query.get('status')).toBe(ORDER_STATUS.PENDING_AR_APPROVAL);
    expect(csv.query.get('limit')).toBeNull();
    await waitFor(() => expect(click).toHaveBeenCalledTimes(1));
    expect(await screen.findByText('1 row saved as CSV.')).toBeTruthy();
  });

  it('a row opens the details: summary, history and notes; a note is posted', async () => {
    const { calls } = fakeApi(
      orderRoutes({
        [`POST ${NOTES}`]: (r: FakeRequest) => ({
          note: {
            id: 9,
            order_id: 700001,
            note_type: 'order_note',
            status_reason_id: null,
            reason: null,
            body: (r.body as { note: string }).note,
            created_by_email: 'support@example.com',
            created_at: '2026-03-03T09:00:00.000Z',
          },
        }),
      }),
    );
    const user = userEvent.setup();
    renderApp('#/order');
    await user.click(await screen.findByRole('link', { name: 'Open order UO-2026-0001' }));
    const drawer = await screen.findByRole('region', { name: 'Order UO-2026-0001' });
    expect(within(drawer).getByRole('region', { name: 'Order summary' }).textContent).toContain('Zephyr Deli');
    expect(await within(drawer).findByText('ram@example.com')).toBeTruthy();
    expect(within(drawer).getByText('No notes yet.')).toBeTruthy();
    await user.type(within(drawer).getByRole('textbox', { name: 'Note' }), 'Called the merchant.');
    await user.click(within(drawer).getByRole('button', { name: 'Add note' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.path === NOTES)).toBe(true));
    expect(calls.find((c) => c.method === 'POST' && c.path === NOTES)!.body).toEqual({ note: 'Called the merchant.' });
  });

  it("offers only the role's allowed next statuses; Rejected needs a reason; the PUT carries the order's version", async () => {
    let changed = false;
    const { calls } = fakeApi(
      orderRoutes({
        [`GET ${REASONS}`]: {
          statuses: [
            {
              status: ORDER_STATUS.REJECTED,
              label: 'Rejected',
              reasons: [{ id: 31, reason: 'Incomplete documents', sort_order: 0 }],
            },
          ],
        },
        [`PUT ${CHANGE}`]: () => {
          changed = true;
          return {
            order: {
              id: 700001,
              status: ORDER_STATUS.REJECTED,
              version: 5,
              submitted_at: null,
              completed_at: null,
              updated_at: '2026-03-03T10:00:00.000Z',
            },
            history: historyRow({
              id: 2,
              from_status: ORDER_STATUS.PENDING_AR_APPROVAL,
              to_status: ORDER_STATUS.REJECTED,
              status_reason_id: 31,
              reason: 'Incomplete documents',
            }),
          };
        },
        [`GET ${HISTORY}`]: () => ({
          history: changed
            ? [
                historyRow({
                  id: 2,
                  from_status: ORDER_STATUS.PENDING_AR_APPROVAL,
                  to_status: ORDER_STATUS.REJECTED,
                  reason: 'Incomplete documents',
                  changed_by_email: 'ar@example.com',
                }),
                historyRow(),
              ]
            : [historyRow()],
        }),
      }),
    );
    const user = userEvent.setup();
    renderApp('#/order');
    await user.click(await screen.findByRole('link', { name: 'Open order UO-2026-0001' }));
    const drawer = await screen.findByRole('region', { name: 'Order UO-2026-0001' });
    const select = within(drawer).getByRole('combobox', { name: 'New status' });
    expect(
      within(select)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Choose…', 'Incomplete', 'Rejected', 'AR Contract Regenerated', 'AR Submitted']);
    await user.selectOptions(select, 'Rejected');
    expect(within(drawer).getByRole('button', { name: 'Change status' }).hasAttribute('disabled')).toBe(true);
    await pick(/Reason/, 'Incomplete documents', drawer);
    await user.click(within(drawer).getByRole('button', { name: 'Change status' }));
    await waitFor(() => expect(changed).toBe(true));
    expect(calls.find((c) => c.method === 'PUT')!.body).toEqual({
      order_id: 700001,
      status: ORDER_STATUS.REJECTED,
      status_reason_id: 31,
      version: 4,
    });
    expect(calls.find((c) => c.path === REASONS)!.query.get('status')).toBe(ORDER_STATUS.REJECTED);
    expect(await within(drawer).findByText('ar@example.com')).toBeTruthy();
    expect(await screen.findByText('Now Rejected.')).toBeTruthy();
  });

  it('a 409 version conflict says so and reloads the list', async () => {
    const { calls } = fakeApi(orderRoutes({ [`PUT ${CHANGE}`]: errorResponse(409, 'version_conflict', 'Stale.') }));
    const user = userEvent.setup();
    renderApp('#/order');
    await user.click(await screen.findByRole('link', { name: 'Open order UO-2026-0001' }));
    const drawer = await screen.findByRole('region', { name: 'Order UO-2026-0001' });
    const before = calls.filter((c) => c.path === SEARCH).length;
    await pick('New status', 'AR Submitted', drawer);
    await user.click(within(drawer).getByRole('button', { name: 'Change status' }));
    expect(await screen.findByText('Changed by someone else')).toBeTruthy();
    await waitFor(() => expect(calls.filter((c) => c.path === SEARCH).length).toBeGreaterThan(before));
  });

  it('opening an order puts it in the address (#/order?id=…); closing takes it out', async () => {
    fakeApi(orderRoutes());
    const user = userEvent.setup();
    renderApp('#/order');
    await user.click(await screen.findByRole('link', { name: 'Open order UO-2026-0001' }));
    const drawer = await screen.findByRole('region', { name: 'Order UO-2026-0001' });
    expect(window.location.hash).toBe('#/order?id=700001');
    await user.click(within(drawer).getByRole('button', { name: 'Close order details' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Order UO-2026-0001' })).toBeNull());
    expect(window.location.hash).toBe('#/order');
  });

  it("a link to one order (#/order?id=…) opens that order's panel, even when the list does not show it", async () => {
    const other = makeOrder({
      id: 700002,
      unified_order_id: 'UO-2026-0002',
      dba_name: 'Harbor Gas',
      status: ORDER_STATUS.PENDING_CONTRACT_SIGN,
    });
    const { calls } = fakeApi(
      orderRoutes({
        [`GET ${ONE(700002)}`]: { order: other },
        ['GET /api/customers/orderstatus/history/700002/tok']: { history: [] },
        ['GET /api/customers/ordernotes/700002/tok']: { notes: [] },
      }),
    );
    renderApp('#/order?id=700002');
    const drawer = await screen.findByRole('region', { name: 'Order UO-2026-0002' });
    expect(within(drawer).getByRole('region', { name: 'Order summary' }).textContent).toContain('Harbor Gas');
    expect(calls.some((c) => c.path === ONE(700002))).toBe(true);
  });

  it("a link to an order that is not found — missing, or another agent's (404) — says so on the page and keeps the session", async () => {
    fakeApi(
      orderRoutes({
        [`GET ${ONE(700009)}`]: errorResponse(404, 'not_found', 'Order 700009 was not found.'),
      }),
    );
    renderApp('#/order?id=700009');
    const alert = (await screen.findByText('Not found')).closest<HTMLElement>('[role="alert"]')!;
    expect(alert.textContent).toContain('Order 700009 was not found. Check the link or search again.');
    expect(screen.queryByRole('region', { name: /^Order UO-/ })).toBeNull();
    // Still signed in, on the order list (a 403 would have ended the session).
    expect(await screen.findByRole('table', { name: /Orders — 1 match/ })).toBeTruthy();
    expect(window.location.hash).toBe('#/order?id=700009');
  });

  it('a link whose id is not an order id says so', async () => {
    const { calls } = fakeApi(orderRoutes());
    renderApp('#/order?id=abc');
    const alert = (await screen.findByText('Not an order')).closest<HTMLElement>('[role="alert"]')!;
    expect(alert.textContent).toContain('This address does not name an order.');
    expect(calls.some((c) => c.path.startsWith('/api/customers/orders/') && !c.path.includes('/search/'))).toBe(false);
  });

  describe('an existing-customer match (decision 142)', () => {
    const MATCH = '/api/customers/orderinfo/700001/customermatch/tok';
    const pending = {
      order_id: 700001,
      status: 'pending',
      federal_tax_id: '74-2700001',
      customer: { customer_id: 100123, legal_name: 'Harbor Foods LLC', email: 'ap@harbor.example', country: 'US' },
      flagged_at: '2026-03-02T12:00:00.000Z',
      flagged_by_email: 'dist@agent.example',
      decided_at: null,
      decided_by_email: null,
    };

    it('staff with customer_details_edit see the pending match and confirm it, or onboard as a new customer', async () => {
      let current: Record<string, unknown> = pending;
      const { calls } = fakeApi({
        ...orderRoutes(),
        ...signInAs('Customer Service'),
        [`GET ${MATCH}`]: () => ({ match: current }),
        [`POST ${MATCH}`]: (r: FakeRequest) => {
          const decision = (r.body as { decision: string }).decision;
          current = {
            ...pending,
            status: decision === 'confirm' ? 'confirmed' : 'rejected',
            decided_at: '2026-03-03T09:00:00.000Z',
            decided_by_email: 'support@example.com',
          };
          return { match: current };
        },
      });
      const user = userEvent.setup();
      renderApp('#/order?id=700001');
      const section = await screen.findByRole('region', { name: 'Existing customer match' });
      expect(section.textContent).toContain('Federal tax id 74-2700001');
      expect(section.textContent).toContain('Harbor Foods LLC (#100123');
      expect(section.textContent).toContain('Waiting for a staff confirmation');
      await user.click(within(section).getByRole('button', { name: 'Confirm match' }));
      await waitFor(() => expect(section.textContent).toContain('Confirmed by support@example.com'));
      expect(calls.find((c) => c.method === 'POST' && c.path === MATCH)!.body).toEqual({
        customer_id: 100123,
        decision: 'confirm',
      });
      expect((within(section).getByRole('button', { name: 'Confirm match' }) as HTMLButtonElement).disabled).toBe(true);
      await user.click(within(section).getByRole('button', { name: 'Onboard as new customer' }));
      await waitFor(() => expect(section.textContent).toContain('onboarding makes a new customer'));
      expect(calls.filter((c) => c.method === 'POST' && c.path === MATCH).at(-1)!.body).toEqual({
        customer_id: 100123,
        decision: 'reject',
      });
    });

    it('without customer_details_edit (AR Team) the match is shown without the buttons', async () => {
      fakeApi({ ...orderRoutes(), [`GET ${MATCH}`]: { match: pending } });
      renderApp('#/order?id=700001');
      const section = await screen.findByRole('region', { name: 'Existing customer match' });
      expect(section.textContent).toContain('Waiting for a staff confirmation');
      expect(within(section).queryByRole('button')).toBeNull();
    });

    it('no match: no section', async () => {
      fakeApi({ ...orderRoutes(), [`GET ${MATCH}`]: { match: null } });
      renderApp('#/order?id=700001');
      await screen.findByRole('region', { name: 'Order UO-2026-0001' });
      expect(await screen.findByText('ram@example.com')).toBeTruthy();
      expect(screen.queryByRole('region', { name: 'Existing customer match' })).toBeNull();
    });
  });
});
