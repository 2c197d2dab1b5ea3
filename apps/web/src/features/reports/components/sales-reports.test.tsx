import {
  ORDER_STATUS,
  type OrdersReport as OrdersReportInfo,
  type OrdersReportItem,
  type SalesReport as SalesReportInfo,
} from '@pos/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, type FakeRequest } from '../../../test/fake-api';
import { jsonResponse, signInAs } from '../../../test/factories';
import { renderApp } from '../../../test/render-app';

/*
 * The Orders and Sales tabs of #/reports (decision 129): figures per currency with $ / C$, the drill-down to the
 * orders with links, the filters sent and kept in the address, the CSV calls, a rep's name linking to
 * #/sales-person/{id}.
 */

const ORDERS = '/api/reports/orders/tok';
const ORDERS_LIST = '/api/reports/orders/list/tok';
const SALES = '/api/reports/sales/tok';

const REPORT: OrdersReportInfo = {
  from: '2025-11-23',
  to: '2026-11-22',
  date_basis: 'created',
  by_status: [
    {
      key: ORDER_STATUS.PENDING_AR_APPROVAL,
      label: 'Pending AR Approval',
      currency: 'USD',
      count: 3,
      amount_cents: 1_500_00,
    },
    { key: ORDER_STATUS.COMPLETE, label: 'Complete', currency: 'CAD', count: 2, amount_cents: 800_00 },
  ],
  by_flow: [
    { key: 'AR', label: 'AR flow', currency: 'USD', count: 3, amount_cents: 1_500_00 },
    { key: 'AR', label: 'AR flow', currency: 'CAD', count: 2, amount_cents: 800_00 },
  ],
  by_channel: [
    { key: 'RAM', label: 'RAM', currency: 'USD', count: 3, amount_cents: 1_500_00 },
    { key: 'none', label: 'No channel', currency: 'CAD', count: 2, amount_cents: 800_00 },
  ],
  totals: [
    { currency: 'CAD', count: 2, amount_cents: 800_00 },
    { currency: 'USD', count: 3, amount_cents: 1_500_00 },
  ],
};

const ORDER: OrdersReportItem = {
  order_id: 700123,
  unified_order_id: 'UO-1',
  status: ORDER_STATUS.COMPLETE,
  status_label: 'Complete',
  flow: 'AR',
  channel: 'none',
  customer_id: 100001,
  legal_name: 'Maple Hardware Ltd',
  dba_name: 'Maple',
  sales_rep: 'Julie Tremblay',
  country: 'CA',
  currency: 'CAD',
  total_sale_cents: 400_00,
  order_date: '2026-10-02T12:00:00.000Z',
  submitted_at: null,
};

const SALES_REPORT: SalesReportInfo = {
  group: 'rep',
  from_month: '2026-10-01',
  to_month: '2026-11-01',
  months: ['2026-10-01', '2026-11-01'],
  month_totals: [
    { period_month: '2026-10-01', currency: 'USD', units: 2, amount_cents: 2_000_00 },
    { period_month: '2026-11-01', currency: 'USD', units: 1, amount_cents: 500_00 },
  ],
  rows: [
    {
      id: 7,
      name: 'Rita Ramos',
      sales_channel: 'RAM',
      currency: 'USD',
      units: 3,
      amount_cents: 2_500_00,
      months: [
        { period_month: '2026-10-01', units: 2, amount_cents: 2_000_00 },
        { period_month: '2026-11-01', units: 1, amount_cents: 500_00 },
      ],
    },
  ],
  total: 1,
  totals: [{ currency: 'USD', units: 3, amount_cents: 2_500_00 }],
};

function routes(extra: Record<string, unknown> = {}) {
  return {
    ...signInAs('Operations'),
    [`GET ${ORDERS}`]: (r: FakeRequest) => (r.query.get('format') === 'csv' ? csv('dimension,key\r\n') : REPORT),
    [`GET ${ORDERS_LIST}`]: { items: [ORDER], total: 1 },
    [`GET ${SALES}`]: (r: FakeRequest) => (r.query.get('format') === 'csv' ? csv('id,name\r\n') : SALES_REPORT),
    ...extra,
  };
}

/** The CSV download's object URL and anchor click, stubbed; answers the click spy. */
function stubDownload() {
  vi.spyOn(URL, 'createObjectURL').mockImplementation(() => 'blob:download');
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
  return vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
}
const csv = (text: string) => new Response(text, { headers: { 'Content-Type': 'text/csv' } });

afterEach(() => {
  vi.restoreAllMocks();
});

const last = (calls: FakeRequest[], path: string) =>
  Object.fromEntries(calls.filter((c) => c.path === path).at(-1)!.query);

describe('OrdersReport', () => {
  it('shows the figures per status, flow and channel, each in its currency, and a chart per currency', async () => {
    fakeApi(routes());
    renderApp('#/reports?tab=orders');
    const status = await screen.findByRole('table', { name: 'Orders by status' });
    const row = within(status).getByRole('rowheader', { name: 'Pending AR Approval' }).closest('tr')!;
    expect(within(row).getByText('$1,500.00')).toBeTruthy();
    expect(within(row).getByRole('link', { name: 'Show the 3 Pending AR Approval orders in USD' })).toBeTruthy();
    const flow = screen.getByRole('table', { name: 'Orders by flow' });
    expect(within(flow).getByText('C$800.00')).toBeTruthy();
    const channel = screen.getByRole('table', { name: 'Orders by sales channel' });
    expect(within(channel).getByText('No channel')).toBeTruthy();
    expect(screen.getByRole('figure', { name: 'Order amounts by status (USD ($))' })).toBeTruthy();
    expect(screen.getByRole('figure', { name: 'Order amounts by status (CAD (C$))' })).toBeTruthy();
    expect(screen.getByText(/3 for \$1,500\.00/)).toBeTruthy();
  });

  it('sends the filters; a count opens the orders behind it, each linking to the order; CSV of the figures', async () => {
    const { calls } = fakeApi(routes());
    const user = userEvent.setup();
    renderApp('#/reports?tab=orders');
    await screen.findByRole('table', { name: 'Orders by status' });
    await user.type(screen.getByLabelText('From'), '2026-01-01');
    await user.type(screen.getByLabelText('To'), '2026-06-30');
    await user.selectOptions(screen.getByLabelText('Date'), 'submitted');
    await user.selectOptions(screen.getByLabelText('Country', { selector: 'select' }), 'CA');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    await waitFor(() =>
      expect(last(calls, ORDERS)).toEqual({
        from: '2026-01-01',
        to: '2026-06-30',
        date_basis: 'submitted',
        country: 'CA',
      }),
    );

    expect(window.location.hash).toBe(
      '#/reports?tab=orders&from=2026-01-01&to=2026-06-30&date_basis=submitted&country=CA',
    );
    await user.click(await screen.findByRole('link', { name: 'Show the 2 Complete orders in CAD' }));
    expect(window.location.hash).toContain(`&drill=status.${ORDER_STATUS.COMPLETE}.CAD`);
    const drill = await screen.findByRole('region', { name: 'Complete orders in CAD' });
    const link = await within(drill).findByRole('link', { name: 'Order 700123' });
    expect(link.getAttribute('href')).toBe('#/order?id=700123');
    expect(within(drill).getByText('C$400.00')).toBeTruthy();
    expect(last(calls, ORDERS_LIST)).toMatchObject({
      status: ORDER_STATUS.COMPLETE,
      currency: 'CAD',
      country: 'CA',
      limit: '25',
    });

    await user.selectOptions(within(drill).getByLabelText('Sort orders by'), '-total_sale_cents');
    await waitFor(() => expect(last(calls, ORDERS_LIST)).toMatchObject({ sort: '-total_sale_cents', offset: '0' }));

    const click = stubDownload();
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(click).toHaveBeenCalledTimes(1));
    expect(last(calls, ORDERS)).toMatchObject({ format: 'csv', country: 'CA' });
  });

  it('shows the server’s field message for a bad range', async () => {
    fakeApi(
      routes({
        [`GET ${ORDERS}`]: (r: FakeRequest) =>
          r.query.get('from')
            ? jsonResponse(400, {
                error: {
                  code: 'validation',
                  message: 'Invalid query',
                  fields: { to: 'The last day is before the first.' },
                },
              })
            : REPORT,
      }),
    );
    const user = userEvent.setup();
    renderApp('#/reports?tab=orders');
    await screen.findByRole('table', { name: 'Orders by status' });
    await user.type(screen.getByLabelText('From'), '2026-06-01');
    await user.type(screen.getByLabelText('To'), '2026-01-01');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    expect(await screen.findByText('The last day is before the first.')).toBeTruthy();
  });

  it('a shared address shows the same filters and the open figure', async () => {
    const { calls } = fakeApi(routes());
    renderApp(`#/reports?tab=orders&from=2026-01-01&date_basis=submitted&drill=status.${ORDER_STATUS.COMPLETE}.CAD`);
    const drill = await screen.findByRole('region', { name: 'Complete orders in CAD' });
    expect(await within(drill).findByRole('link', { name: 'Order 700123' })).toBeTruthy();
    expect(last(calls, ORDERS)).toEqual({ from: '2026-01-01', date_basis: 'submitted' });
    expect(last(calls, ORDERS_LIST)).toMatchObject({
      from: '2026-01-01',
      status: ORDER_STATUS.COMPLETE,
      currency: 'CAD',
    });
    expect((screen.getByLabelText('Date') as HTMLSelectElement).value).toBe('submitted');
    expect((screen.getByLabelText('From') as HTMLInputElement).value).toBe('2026-01-01');
  });
});

describe('SalesReport', () => {
  it('lists each rep per month with $ amounts; the name opens the rep page; filters and CSV', async () => {
    const { calls } = fakeApi(routes());
    const user = userEvent.setup();
    renderApp('#/reports?tab=sales');
    const table = await screen.findByRole('table', { name: /Sales by sales person and month — 1 line/ });
    const link = within(table).getByRole('link', { name: 'Rita Ramos' });
    expect(link.getAttribute('href')).toBe('#/sales-person/7');
    expect(within(table).getByText('$2,000.00')).toBeTruthy();
    expect(within(table).getByText('$2,500.00')).toBeTruthy();
    expect(screen.getByRole('figure', { name: 'Sales by month (USD ($))' })).toBeTruthy();

    await user.selectOptions(screen.getByLabelText('Group by'), 'agent');
    await user.selectOptions(screen.getByLabelText('Currency', { selector: 'select' }), 'USD');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    await waitFor(() =>
      expect(last(calls, SALES)).toEqual({ group: 'agent', currency: 'USD', limit: '25', offset: '0' }),
    );
    expect(window.location.hash).toBe('#/reports?tab=sales&group=agent&currency=USD');
    const click = stubDownload();
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(click).toHaveBeenCalledTimes(1));
    expect(last(calls, SALES)).toEqual({ group: 'agent', currency: 'USD', format: 'csv' });
  });

  it('opens with the filters of its address', async () => {
    const { calls } = fakeApi(routes());
    renderApp('#/reports?tab=sales&from_month=2026-01&group=agent&page=2');
    await screen.findByRole('table', { name: /Sales by agent and month/ });
    expect(last(calls, SALES)).toEqual({ from_month: '2026-01', group: 'agent', limit: '25', offset: '25' });
    expect((screen.getByLabelText('Group by') as HTMLSelectElement).value).toBe('agent');
    expect((screen.getByLabelText('From month') as HTMLInputElement).value).toBe('2026-01');
  });
});
