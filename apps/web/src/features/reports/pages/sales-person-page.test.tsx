import type { RepSalesHistory } from '@pos/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { errorResponse, fakeApi, type FakeRequest } from '../../../test/fake-api';
import { signInAs } from '../../../test/factories';
import { renderApp } from '../../../test/render-app';

const HISTORY = '/api/reports/sales/reps/7/tok';
const CUSTOMERS = '/api/reports/sales/reps/7/customers/tok';

const months = Array.from({ length: 24 }, (_, i) => new Date(Date.UTC(2024, 11 + i, 1)).toISOString().slice(0, 10));
const HISTORY_INFO: RepSalesHistory = {
  sales_person: {
    id: 7,
    name: 'Julie Tremblay',
    email: 'julie.tremblay@example.com',
    phone: '555-010-2000',
    sales_channel: 'Distributor',
    agent_id: 3,
    agent_name: 'Maple Distribution',
    active: true,
    customers: 30,
  },
  from_month: '2024-12-01',
  to_month: '2026-11-01',
  months: months.flatMap((m) => [
    {
      period_month: m,
      currency: 'CAD' as const,
      units: m === '2026-10-01' ? 4 : 0,
      amount_cents: m === '2026-10-01' ? 1_234_00 : 0,
    },
    {
      period_month: m,
      currency: 'USD' as const,
      units: m === '2026-11-01' ? 1 : 0,
      amount_cents: m === '2026-11-01' ? 99_00 : 0,
    },
  ]),
  totals: [
    { currency: 'CAD', units: 4, amount_cents: 1_234_00 },
    { currency: 'USD', units: 1, amount_cents: 99_00 },
  ],
};

const customer = (i: number) => ({
  customer_id: 100000 + i,
  legal_name: `Customer ${String(i).padStart(2, '0')} Ltd`,
  country: 'CA',
  currency: 'CAD',
  status: 'active',
});

function routes(role = 'Operations', extra: Record<string, unknown> = {}) {
  return {
    ...signInAs(role),
    [`GET ${HISTORY}`]: HISTORY_INFO,
    [`GET ${CUSTOMERS}`]: (r: FakeRequest) => {
      const offset = Number(r.query.get('offset') ?? 0);
      return { items: Array.from({ length: offset === 0 ? 25 : 5 }, (_, i) => customer(offset + i + 1)), total: 30 };
    },
    ...extra,
  };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('sales person page (#/sales-person/:salesPersonId)', () => {
  it("shows the rep's record, the 24 months per currency (chart and table, C$ and $) and the totals", async () => {
    fakeApi(routes());
    renderApp('#/sales-person/7');
    expect(await screen.findByRole('heading', { level: 1, name: 'Julie Tremblay' })).toBeTruthy();
    expect(screen.getByText('julie.tremblay@example.com')).toBeTruthy();
    expect(screen.getByText('Maple Distribution')).toBeTruthy();
    expect(screen.getByText('Distributor')).toBeTruthy();
    expect(screen.getByText('30')).toBeTruthy();
    expect(screen.getByRole('figure', { name: 'Monthly sales of Julie Tremblay (CAD (C$))' })).toBeTruthy();
    expect(screen.getByRole('figure', { name: 'Monthly sales of Julie Tremblay (USD ($))' })).toBeTruthy();
    const table = screen.getByRole('table', { name: 'Monthly sales of Julie Tremblay' });
    expect(within(table).getAllByRole('row')).toHaveLength(1 + 48 + 2);
    const oct = within(table)
      .getAllByText('Oct 2026')
      .map((c) => c.closest('tr')!)
      .find((r) => within(r).queryByText('CAD'))!;
    expect(within(oct).getByText('C$1,234.00')).toBeTruthy();
    const total = within(table).getByRole('rowheader', { name: 'Total (USD ($))' }).closest('tr')!;
    expect(within(total).getByText('$99.00')).toBeTruthy();
  });

  it('lists the customers, paged, each linking to its customer page; CSV downloads', async () => {
    const { calls } = fakeApi(routes());
    const user = userEvent.setup();
    renderApp('#/sales-person/7');
    const list = await screen.findByRole('table', { name: 'Customers of Julie Tremblay — 30' });
    const link = await within(list).findByRole('link', { name: 'Customer 01 Ltd' });
    expect(link.getAttribute('href')).toBe('#/customer?id=100001');
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    expect(await within(list).findByRole('link', { name: 'Customer 30 Ltd' })).toBeTruthy();
    expect(Object.fromEntries(calls.filter((c) => c.path === CUSTOMERS).at(-1)!.query)).toEqual({
      limit: '25',
      offset: '25',
    });

    await user.selectOptions(screen.getByLabelText('Sort customers by'), '-legal_name');
    await waitFor(() =>
      expect(Object.fromEntries(calls.filter((c) => c.path === CUSTOMERS).at(-1)!.query)).toEqual({
        limit: '25',
        offset: '0',
        sort: '-legal_name',
      }),
    );
    expect(window.location.hash).toBe('#/sales-person/7?sort=-legal_name');

    vi.spyOn(URL, 'createObjectURL').mockImplementation(() => 'blob:download');
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    fakeApi(
      routes('Operations', {
        [`GET ${HISTORY}`]: (r: FakeRequest) =>
          r.query.get('format') === 'csv'
            ? new Response('period_month\r\n', { headers: { 'Content-Type': 'text/csv' } })
            : HISTORY_INFO,
      }),
    );
    await user.click(screen.getByRole('button', { name: 'Download monthly sales as CSV' }));
    await waitFor(() => expect(click).toHaveBeenCalledTimes(1));
  });

  it('the customers’ sort and page are in the address', async () => {
    const { calls } = fakeApi(routes());
    renderApp('#/sales-person/7?sort=-customer_id&page=2');
    const list = await screen.findByRole('table', { name: 'Customers of Julie Tremblay — 30' });
    expect(await within(list).findByRole('link', { name: 'Customer 30 Ltd' })).toBeTruthy();
    expect(Object.fromEntries(calls.filter((c) => c.path === CUSTOMERS).at(-1)!.query)).toEqual({
      limit: '25',
      offset: '25',
      sort: '-customer_id',
    });
    expect((screen.getByLabelText('Sort customers by') as HTMLSelectElement).value).toBe('-customer_id');
  });

  it('an unknown rep: the server’s not-found message', async () => {
    fakeApi(routes('Operations', { [`GET ${HISTORY}`]: errorResponse(404, 'not_found', 'Sales person 7 not found') }));
    renderApp('#/sales-person/7');
    expect(await screen.findByText(/Sales person 7 not found/)).toBeTruthy();
  });

  it('a user without reports_edit is not let in', async () => {
    const { calls } = fakeApi(routes('Customer Service'));
    renderApp('#/sales-person/7');
    expect(await screen.findByText(/Access denied/i)).toBeTruthy();
    expect(calls.some((c) => c.path === HISTORY)).toBe(false);
  });
});
