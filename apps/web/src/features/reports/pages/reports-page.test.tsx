import type { AgingInvoices, AgingReport, FailedPaymentReport, RevenueReport } from '@pos/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fakeApi, type FakeRequest } from '../../../test/fake-api';
import { signInAs } from '../../../test/factories';
import { renderApp } from '../../../test/render-app';

const AGING = '/api/reports/aging/tok';
const DRILL = '/api/reports/aging/invoices/tok';
const REVENUE = '/api/reports/revenue/tok';
const FAILED = '/api/reports/failed-payments/tok';

const figures = {
  current_cents: 100_00,
  days_1_30_cents: 150_00,
  days_31_60_cents: 200_00,
  days_61_90_cents: 0,
  days_90_plus_cents: 0,
  total_cents: 450_00,
  invoice_count: 3,
};

const AGING_REPORT: AgingReport = {
  as_of: '2026-11-22',
  totals: [
    { currency: 'USD', ...figures },
    {
      currency: 'CAD',
      current_cents: 0,
      days_1_30_cents: 0,
      days_31_60_cents: 150_00,
      days_61_90_cents: 0,
      days_90_plus_cents: 0,
      total_cents: 150_00,
      invoice_count: 1,
    },
  ],
  customers: {
    items: [
      { customer_id: 100005, legal_name: 'Bluebird Diner LLC', country: 'US', currency: 'USD', ...figures },
      {
        customer_id: 100009,
        legal_name: 'Café Érable Inc.',
        country: 'CA',
        currency: 'CAD',
        current_cents: 0,
        days_1_30_cents: 0,
        days_31_60_cents: 150_00,
        days_61_90_cents: 0,
        days_90_plus_cents: 0,
        total_cents: 150_00,
        invoice_count: 1,
      },
    ],
    total: 2,
  },
};

const DRILL_ANSWER: AgingInvoices = {
  as_of: '2026-11-22',
  bucket: '31-60',
  items: [
    {
      invoice_id: 9001,
      invoice_number: 'INV-2026-009001',
      customer_id: 100009,
      legal_name: 'Café Érable Inc.',
      store_id: 500020,
      doing_business_as: 'Café Érable',
      country: 'CA',
      currency: 'CAD',
      issued_on: '2026-09-29',
      due_on: '2026-10-13',
      days_past_due: 40,
      bucket: '31-60',
      total_cents: 150_00,
      open_cents: 150_00,
    },
  ],
  total: 1,
  totals: [{ currency: 'CAD', open_cents: 150_00, count: 1 }],
};

const REVENUE_REPORT: RevenueReport = {
  from: '2025-12-01',
  to: '2026-11-22',
  rows: [
    {
      month: '2026-10',
      type: 'M',
      type_label: 'Monthly recurring charge',
      currency: 'USD',
      invoice_count: 4,
      invoiced_cents: 316_00,
      reversed_cents: 0,
      collected_cents: 237_00,
    },
    {
      month: '2026-10',
      type: 'M',
      type_label: 'Monthly recurring charge',
      currency: 'CAD',
      invoice_count: 1,
      invoiced_cents: 90_00,
      reversed_cents: 0,
      collected_cents: 90_00,
    },
  ],
  totals: [
    { currency: 'USD', invoice_count: 4, invoiced_cents: 316_00, reversed_cents: 0, collected_cents: 237_00 },
    { currency: 'CAD', invoice_count: 1, invoiced_cents: 90_00, reversed_cents: 0, collected_cents: 90_00 },
  ],
};

const FAILED_REPORT: FailedPaymentReport = {
  from: '2025-12-01',
  to: '2026-11-22',
  rows: [
    {
      month: '2026-10',
      currency: 'CAD',
      attempts: 8,
      attempted_cents: 720_00,
      failed_attempts: 2,
      failed_attempt_cents: 180_00,
      failure_rate: 0.25,
      failed_invoices: 1,
      failed_cents: 90_00,
      recovered_invoices: 1,
      recovered_cents: 90_00,
      recovery_rate: 1,
    },
  ],
};

function routes(overrides: Record<string, unknown> = {}) {
  return {
    ...signInAs('AR Team'),
    [`GET ${AGING}`]: AGING_REPORT,
    [`GET ${DRILL}`]: DRILL_ANSWER,
    [`GET ${REVENUE}`]: REVENUE_REPORT,
    [`GET ${FAILED}`]: FAILED_REPORT,
    ...overrides,
  };
}

const last = (calls: FakeRequest[], path: string) =>
  Object.fromEntries(calls.filter((c) => c.path === path).at(-1)!.query);

describe('#/reports', () => {
  it('opens on AR aging: totals per currency ($ and C$ apart), by customer, one h1', async () => {
    const { calls } = fakeApi(routes());
    renderApp('#/reports');
    expect(await screen.findByRole('heading', { name: 'Reports', level: 1 })).toBeTruthy();
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    expect(screen.getByRole('tab', { name: 'AR aging' }).getAttribute('aria-selected')).toBe('true');
    const totals = await screen.findByRole('table', { name: 'Totals per currency' });
    const usd = within(totals).getByRole('row', { name: /^USD/ });
    expect(within(usd).getByText('$450.00')).toBeTruthy();
    const cad = within(totals).getByRole('row', { name: /^CAD/ });
    expect(within(cad).getAllByText('C$150.00').length).toBeGreaterThan(0);
    const byCustomer = screen.getByRole('table', { name: /By customer — 2 rows/ });
    expect(within(byCustomer).getByRole('link', { name: 'Bluebird Diner LLC' }).getAttribute('href')).toBe(
      '#/customer?id=100005',
    );
    expect(last(calls, AGING)).toEqual({ limit: '25', offset: '0' });
  });

  it('a bucket figure opens its invoices, each linking to the customer; a customer cell drills by customer', async () => {
    const { calls } = fakeApi(routes());
    const user = userEvent.setup();
    renderApp('#/reports?tab=aging');
    await user.click(await screen.findByRole('link', { name: 'C$150.00: CAD invoices 31–60 days past due' }));
    expect(window.location.hash).toBe('#/reports?tab=aging&drill=31-60.CAD');
    expect(await screen.findByRole('heading', { name: 'Invoices 31–60 days past due', level: 2 })).toBeTruthy();
    const list = await screen.findByRole('table', { name: /Invoices 31–60 days past due — CAD/ });
    expect(within(list).getByText('INV-2026-009001')).toBeTruthy();
    expect(within(list).getByText('40')).toBeTruthy();
    expect(within(list).getByRole('link', { name: 'Café Érable Inc.' }).getAttribute('href')).toBe(
      '#/customer?id=100009',
    );
    expect(last(calls, DRILL)).toEqual({ bucket: '31-60', currency: 'CAD', limit: '25', offset: '0' });

    await user.click(
      screen.getByRole('link', { name: "$150.00: Bluebird Diner LLC's USD invoices 1–30 days past due" }),
    );
    expect(window.location.hash).toBe('#/reports?tab=aging&drill=1-30.USD.100005');
    await waitFor(() =>
      expect(last(calls, DRILL)).toEqual({
        bucket: '1-30',
        currency: 'USD',
        customer_id: '100005',
        limit: '25',
        offset: '0',
      }),
    );
    expect(await screen.findByRole('heading', { name: 'Invoices 1–30 days past due', level: 2 })).toBeTruthy();
  });

  it('sends the as-of day, country, currency and sort', async () => {
    const { calls } = fakeApi(routes());
    const user = userEvent.setup();
    renderApp('#/reports');
    await screen.findByRole('table', { name: 'Totals per currency' });
    await user.selectOptions(screen.getByRole('combobox', { name: 'Currency' }), 'USD');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Country' }), 'US');
    await user.type(screen.getByLabelText('As of'), '2026-10-31');
    expect(last(calls, AGING)).toEqual({ limit: '25', offset: '0' });
    await user.click(
      within(screen.getByRole('search', { name: 'AR aging filters' })).getByRole('button', { name: 'Apply' }),
    );
    await waitFor(() =>
      expect(last(calls, AGING)).toEqual({
        as_of: '2026-10-31',
        currency: 'USD',
        country: 'US',
        limit: '25',
        offset: '0',
      }),
    );
    await user.click(await screen.findByRole('button', { name: /^Total/ }));
    await waitFor(() =>
      expect(last(calls, AGING)).toEqual({
        as_of: '2026-10-31',
        currency: 'USD',
        country: 'US',
        sort: '-total_cents',
        limit: '25',
        offset: '0',
      }),
    );
    expect(window.location.hash).toBe('#/reports?as_of=2026-10-31&country=US&currency=USD&sort=-total_cents');
  });

  it('a shared address opens the same report view: filters in the fields, the sort, the open figure', async () => {
    const { calls } = fakeApi(routes());
    renderApp('#/reports?tab=aging&as_of=2026-10-31&currency=CAD&sort=-total_cents&drill=31-60.CAD');
    expect(await screen.findByRole('heading', { name: 'Invoices 31–60 days past due', level: 2 })).toBeTruthy();
    expect(last(calls, AGING)).toEqual({
      as_of: '2026-10-31',
      currency: 'CAD',
      sort: '-total_cents',
      limit: '25',
      offset: '0',
    });
    await waitFor(() =>
      expect(last(calls, DRILL)).toEqual({
        as_of: '2026-10-31',
        bucket: '31-60',
        currency: 'CAD',
        limit: '25',
        offset: '0',
      }),
    );
    expect((screen.getByLabelText('As of') as HTMLInputElement).value).toBe('2026-10-31');
    expect((screen.getByRole('combobox', { name: 'Currency' }) as HTMLSelectElement).value).toBe('CAD');
    const byCustomer = screen.getByRole('table', { name: /By customer/ });
    expect(
      within(byCustomer)
        .getByRole('columnheader', { name: /^Total/ })
        .getAttribute('aria-sort'),
    ).toBe('descending');
  });

  it('the revenue report of an address: its filters are asked for and shown', async () => {
    const { calls } = fakeApi(routes());
    renderApp('#/reports?tab=revenue&from=2026-02-01&type=M');
    await screen.findByRole('table', { name: 'Revenue by month and invoice type' });
    expect(last(calls, REVENUE)).toEqual({ from: '2026-02-01', type: 'M' });
    expect((screen.getByLabelText('From') as HTMLInputElement).value).toBe('2026-02-01');
    expect((screen.getByRole('combobox', { name: 'Invoice type' }) as HTMLSelectElement).value).toBe('M');
  });

  it('the tab is in the address: Revenue and Failed payments open by link, and a click updates it', async () => {
    const { calls } = fakeApi(routes());
    const user = userEvent.setup();
    renderApp('#/reports?tab=revenue');
    const table = await screen.findByRole('table', { name: 'Revenue by month and invoice type' });
    expect(within(table).getAllByText('Monthly recurring charge')).toHaveLength(2);
    const totals = screen.getByRole('table', { name: 'Revenue totals per currency' });
    expect(within(totals).getByText('$316.00')).toBeTruthy();
    expect(within(totals).getAllByText('C$90.00')).toHaveLength(2);
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeTruthy();

    await user.click(screen.getByRole('tab', { name: 'Failed payments' }));
    await waitFor(() => expect(window.location.hash).toBe('#/reports?tab=failed-payments'));
    const failed = await screen.findByRole('table', { name: 'Failed payments and recovery by month' });
    expect(within(failed).getByText('25.0 %')).toBeTruthy();
    expect(within(failed).getByText('100.0 %')).toBeTruthy();
    await user.type(screen.getByLabelText('From'), '2026-01-01');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(last(calls, FAILED)).toEqual({ from: '2026-01-01' }));
    expect(window.location.hash).toBe('#/reports?tab=failed-payments&from=2026-01-01');

    await user.click(screen.getByRole('tab', { name: 'Orders' }));
    expect(await screen.findByRole('search', { name: 'Orders report filters' })).toBeTruthy();
  });
});
