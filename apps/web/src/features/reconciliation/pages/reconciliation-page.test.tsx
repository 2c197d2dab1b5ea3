import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReconciliationRun, ReconciliationRunDetail } from '@pos/domain';
import { describe, expect, it } from 'vitest';
import { setSession } from '../../../lib/session';
import { fakeApi } from '../../../test/fake-api';
import { makeSession } from '../../../test/factories';
import { renderApp } from '../../../test/render-app';

const RUNS = '/api/reconciliation/runs/tok';

const totals = (net: number) => ({
  charged_cents: net,
  refunded_cents: 0,
  charged_back_cents: 0,
  voided_cents: 0,
  net_cents: net,
  entries: 1,
});
const run = (over: Partial<ReconciliationRun>): ReconciliationRun => ({
  id: 1,
  day: '2026-11-20',
  currency: 'USD',
  status: 'matched',
  source: 'schedule',
  gateway: totals(120_00),
  books: totals(120_00),
  difference_count: 0,
  failure_reason: null,
  requested_by: null,
  finished_at: '2026-11-21T01:30:05.000Z',
  ...over,
});

function signInAr() {
  setSession(makeSession({ token: 'tok', role: 'AR Team', name: 'Ann AR', email: 'ar@example.com' }));
  return {
    'GET /api/auth/validate/tok': {
      maketoken: false,
      kind: 'staff',
      email: 'ar@example.com',
      name: 'Ann AR',
      role: 'AR Team',
      agent_id: null,
      account_manager_username: null,
      privileges: ['invoices', 'customer_details_view'],
      expires_at: '2030-01-01T00:00:00.000Z',
    },
  };
}

describe('#/admin/reconciliation', () => {
  it('lists runs with the filters and sort in the address; reconciles a day, toasts the outcome and opens the run', async () => {
    const differing = run({
      id: 7,
      day: '2026-11-21',
      status: 'differences',
      source: 'staff',
      requested_by: 'ar@example.com',
      gateway: totals(50_00),
      books: totals(55_00),
      difference_count: 1,
    });
    let items: ReconciliationRun[] = [
      run({ id: 1 }),
      run({ id: 2, currency: 'CAD', gateway: totals(0), books: totals(0) }),
    ];
    const detail: ReconciliationRunDetail = {
      ...differing,
      differences: [
        {
          id: 1,
          kind: 'amount_differs',
          entry_kind: 'charge',
          gateway_transaction_id: 'ch_local_abc',
          charge_reference: 'ch_local_abc',
          transaction_id: 41,
          customer_id: 9,
          customer_name: 'Corner Deli LLC',
          invoice_id: 300,
          invoice_number: 'INV-2026-000300',
          gateway_amount_cents: 50_00,
          books_amount_cents: 55_00,
          currency: 'USD',
          at: '2026-11-21T12:00:00.000Z',
        },
      ],
    };
    const { calls } = fakeApi({
      ...signInAr(),
      [`GET ${RUNS}`]: () => ({ items, total: items.length }),
      [`POST ${RUNS}`]: () => {
        items = [differing, ...items];
        return { runs: [differing] };
      },
      'GET /api/reconciliation/runs/7/tok': detail,
    });
    const user = userEvent.setup();
    renderApp('#/admin/reconciliation?currency=USD&sort=-day');
    const table = await screen.findByRole('table', { name: /Runs/ });
    expect(await within(table).findAllByText('$120.00')).toHaveLength(2);
    const listCall = calls.find((c) => c.path === RUNS && c.method === 'GET')!;
    expect(listCall.query.get('currency')).toBe('USD');
    expect(listCall.query.get('sort')).toBe('-day');

    await user.click(within(table).getByRole('button', { name: /Differences/ }));
    expect(window.location.hash).toContain('sort=-difference_count');

    const form = screen.getByRole('form', { name: 'Reconcile a day' });
    const dayInput = within(form).getByLabelText('Day (UTC)');
    await user.clear(dayInput);
    await user.type(dayInput, '2026-11-21');
    await user.selectOptions(within(form).getByLabelText('Currency'), 'USD');
    await user.click(within(form).getByRole('button', { name: 'Reconcile a day' }));
    expect(await screen.findByText('USD: 1 difference')).toBeTruthy();
    const post = calls.find((c) => c.method === 'POST')!;
    expect(post.body).toEqual({ day: '2026-11-21', currency: 'USD' });

    const panel = await screen.findByRole('region', { name: /Nov 21, 2026, USD — run 7/ });
    expect(window.location.hash).toContain('run=7');
    const differences = within(panel).getByRole('table', { name: 'Differences (1)' });
    expect(within(differences).getByText('Amount differs')).toBeTruthy();
    expect(within(differences).getByRole('link', { name: 'Transaction 41' }).getAttribute('href')).toBe(
      '#/customer?id=9',
    );
    expect(within(differences).getByRole('link', { name: 'INV-2026-000300' }).getAttribute('href')).toBe(
      '#/view-invoices?id=300',
    );
    expect(within(differences).getByText('$50.00')).toBeTruthy();
    expect(within(differences).getByText('$55.00')).toBeTruthy();
    const totalsTable = within(panel).getByRole('table', { name: 'Totals' });
    expect(within(within(totalsTable).getByRole('row', { name: /^Net/ })).getByText('$5.00')).toBeTruthy();
  });

  it('filters through the filter bar into the address; an address with filters fills the fields and sends them', async () => {
    const { calls } = fakeApi({ ...signInAr(), [`GET ${RUNS}`]: () => ({ items: [run({ id: 1 })], total: 1 }) });
    const user = userEvent.setup();
    renderApp('#/admin/reconciliation?status=differences&from=2026-11-01&page=2');
    await screen.findByRole('table', { name: 'Runs — 1 match' });
    const filters = screen.getByRole('search', { name: 'Filter runs' });
    expect((within(filters).getByLabelText('Status') as HTMLSelectElement).value).toBe('differences');
    expect((within(filters).getByLabelText('From') as HTMLInputElement).value).toBe('2026-11-01');
    const first = calls.find((c) => c.path === RUNS && c.method === 'GET')!;
    expect(Object.fromEntries(first.query)).toEqual({
      status: 'differences',
      from: '2026-11-01',
      sort: '-day',
      limit: '25',
      offset: '25',
    });

    // A day range the wrong way round is refused in the field; nothing changes.
    await user.type(within(filters).getByLabelText('To'), '2026-10-01');
    await user.click(within(filters).getByRole('button', { name: 'Apply' }));
    expect(await within(filters).findByText('The last day is before the first.')).toBeTruthy();
    expect(window.location.hash).not.toContain('to=');

    await user.clear(within(filters).getByLabelText('To'));
    await user.selectOptions(within(filters).getByLabelText('Currency'), 'CAD');
    await user.click(within(filters).getByRole('button', { name: 'Apply' }));
    expect(window.location.hash).toContain('currency=CAD');
    expect(window.location.hash).not.toContain('page=');
    await waitFor(() =>
      expect(
        calls
          .filter((c) => c.path === RUNS && c.method === 'GET')
          .at(-1)!
          .query.get('currency'),
      ).toBe('CAD'),
    );

    await user.click(within(filters).getByRole('button', { name: 'Clear filters' }));
    expect(window.location.hash).toBe('#/admin/reconciliation');
    await waitFor(() => expect((within(filters).getByLabelText('Status') as HTMLSelectElement).value).toBe(''));
  });

  it('refuses a day that has not begun before asking the server', async () => {
    const { calls } = fakeApi({ ...signInAr(), [`GET ${RUNS}`]: () => ({ items: [], total: 0 }) });
    const user = userEvent.setup();
    renderApp('#/admin/reconciliation');
    expect(await screen.findByText('No run matches these filters.')).toBeTruthy();
    const form = screen.getByRole('form', { name: 'Reconcile a day' });
    const dayInput = within(form).getByLabelText('Day (UTC)');
    await user.clear(dayInput);
    await user.type(dayInput, '2999-01-01');
    await user.click(within(form).getByRole('button', { name: 'Reconcile a day' }));
    expect(await screen.findByText('That day has not begun yet (UTC).')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST' && c.path === RUNS)).toBe(false);
  });
});
