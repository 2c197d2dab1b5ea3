import { notifications } from '@mantine/notifications';
import type { FailedPaymentItem, RecoveryReport } from '@pos/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { errorResponse, fakeApi, type FakeRequest } from '../../../test/fake-api';
import { jsonResponse, signInAs } from '../../../test/factories';
import { renderApp } from '../../../test/render-app';

const LIST = '/api/payments/failed/tok';
const RECOVERY = '/api/payments/recovery/tok';
const SNS = '/api/customers/transactions/sns/tok';
const JOB_ID = '0b6f4c2e-1111-4c8e-9a51-0d0e5a7c0001';

function makeItem(overrides: Partial<FailedPaymentItem> = {}): FailedPaymentItem {
  return {
    transaction_id: 71,
    customer_id: 100005,
    legal_name: 'Bluebird Diner LLC',
    store_id: 500010,
    doing_business_as: 'Bluebird Diner',
    country: 'US',
    invoice_id: 9001,
    invoice_number: 'INV-2026-009001',
    amount_cents: 79_00,
    currency: 'USD',
    attempted_at: '2026-11-05T15:00:00.000Z',
    instrument_label: 'Visa ending 0341',
    decline_code: 'insufficient_funds',
    decline_label: 'Insufficient funds',
    decline_kind: 'soft',
    failure_reason: 'Insufficient funds',
    failed_attempts: 2,
    next_retry_on: '2026-11-09',
    dunning_state: 'retrying',
    fee_state: 'pending',
    fee_cents: 25_00,
    ...overrides,
  };
}

const RECOVERY_REPORT: RecoveryReport = {
  month: '2026-11',
  by_currency: [
    {
      currency: 'CAD',
      failed_attempts: 1,
      failed_count: 1,
      failed_cents: 50_00,
      recovered_count: 0,
      recovered_cents: 0,
      recovery_rate: 0,
    },
    {
      currency: 'USD',
      failed_attempts: 3,
      failed_count: 2,
      failed_cents: 199_00,
      recovered_count: 1,
      recovered_cents: 120_00,
      recovery_rate: 120_00 / 199_00,
    },
  ],
  by_reason: [
    {
      decline_code: 'processing_error',
      decline_label: 'Processing error',
      decline_kind: 'soft',
      currency: 'CAD',
      failed_count: 1,
      failed_cents: 50_00,
      recovered_count: 0,
      recovered_cents: 0,
    },
    {
      decline_code: 'expired_card',
      decline_label: 'Expired card',
      decline_kind: 'hard',
      currency: 'USD',
      failed_count: 1,
      failed_cents: 120_00,
      recovered_count: 1,
      recovered_cents: 120_00,
    },
  ],
};

const lastList = (calls: FakeRequest[]) => Object.fromEntries(calls.filter((c) => c.path === LIST).at(-1)!.query);

function routes(extra: Record<string, unknown> = {}) {
  return {
    ...signInAs('AR Team'),
    [`GET ${LIST}`]: {
      items: [
        makeItem(),
        makeItem({
          transaction_id: 72,
          customer_id: 100009,
          legal_name: 'Maple Leaf Hardware Ltd',
          doing_business_as: 'Maple Coffee Bar',
          country: 'CA',
          currency: 'CAD',
          amount_cents: 50_00,
          decline_code: 'expired_card',
          decline_label: 'Expired card',
          decline_kind: 'hard',
          invoice_number: 'INV-2026-009002',
          next_retry_on: null,
          dunning_state: 'collection',
          fee_state: null,
          fee_cents: null,
        }),
      ],
      total: 2,
      total_capped: false,
    },
    [`GET ${RECOVERY}`]: RECOVERY_REPORT,
    [`POST ${SNS}`]: () => jsonResponse(202, { info: { jobId: JOB_ID } }),
    [`GET /api/jobs/${JOB_ID}/tok`]: {
      id: JOB_ID,
      queue: 'transactions',
      state: 'completed',
      retryCount: 0,
      retryLimit: 3,
      createdOn: '2026-11-22T12:00:00.000Z',
      startedOn: '2026-11-22T12:00:00.000Z',
      completedOn: '2026-11-22T12:00:01.000Z',
      output: {
        action: 'reprocess',
        results: [{ transaction_id: 71, ok: true, result: 'Charged again: paid', new_transaction_id: 80 }],
      },
      error: null,
      deadLetterQueue: null,
    },
    ...extra,
  };
}

describe('failed payments (#/payments)', () => {
  // Toasts live in one store for the whole file: each test starts without the last one's.
  afterEach(() => {
    notifications.clean();
    notifications.cleanQueue();
  });

  it('shows the recovery per currency and the list with decline, dunning and money in each currency', async () => {
    const { calls } = fakeApi(routes());
    renderApp('#/payments');
    const table = await screen.findByRole('table', { name: 'Failed payments — 2 matches' });
    const row = within(table)
      .getByRole('checkbox', { name: /Select Bluebird Diner LLC/ })
      .closest('tr')!;
    expect(within(row).getByText('$79.00')).toBeTruthy();
    expect(within(row).getByText('Insufficient funds')).toBeTruthy();
    expect(within(row).getByText('Visa ending 0341')).toBeTruthy();
    expect(within(row).getByText('Retrying')).toBeTruthy();
    expect(within(table).getByText('C$50.00')).toBeTruthy();
    const usd = await screen.findByRole('region', { name: /Recovery in US/ });
    expect(within(usd).getByText('$199.00')).toBeTruthy();
    expect(within(usd).getByText('$120.00')).toBeTruthy();
    expect(within(usd).getByText('60.3 %')).toBeTruthy();
    expect(screen.getByRole('table', { name: /by decline reason \(US/ })).toBeTruthy();
    expect(lastList(calls)).toEqual({ limit: '25', offset: '0' });
  });

  it('sends the filters (amounts in cents) and the sort; refuses a bad amount on the spot', async () => {
    const { calls } = fakeApi(routes());
    const user = userEvent.setup();
    renderApp('#/payments');
    await screen.findByRole('table', { name: /Failed payments — / });
    await user.selectOptions(screen.getByRole('combobox', { name: 'Kind' }), 'hard');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Country' }), 'CA');
    await user.type(screen.getByRole('textbox', { name: 'Amount from' }), '12.x');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    expect(await screen.findByText('Enter an amount such as 25 or 25.50.')).toBeTruthy();
    await user.clear(screen.getByRole('textbox', { name: 'Amount from' }));
    await user.type(screen.getByRole('textbox', { name: 'Amount from' }), '12.50');
    await user.type(screen.getByRole('textbox', { name: 'Failed within (days)' }), '30');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    await waitFor(() =>
      expect(lastList(calls)).toEqual({
        kind: 'hard',
        country: 'CA',
        amount_min: '1250',
        age: '30',
        limit: '25',
        offset: '0',
      }),
    );
    await user.click(screen.getByRole('button', { name: /^Amount/ }));
    await waitFor(() => expect(lastList(calls).sort).toBe('amount_cents'));
  });

  it('keeps the filters and sort in the address; an address with filters fills the fields and sends them', async () => {
    const { calls } = fakeApi(routes());
    const user = userEvent.setup();
    renderApp('#/payments?kind=soft&amount_max=100&age=7&sort=-amount_cents');
    const table = await screen.findByRole('table', { name: /Failed payments — / });
    const filters = screen.getByRole('search', { name: 'Filter failed payments' });
    expect((within(filters).getByRole('combobox', { name: 'Kind' }) as HTMLSelectElement).value).toBe('soft');
    expect((within(filters).getByRole('textbox', { name: 'Amount to' }) as HTMLInputElement).value).toBe('100');
    expect((within(filters).getByRole('textbox', { name: 'Failed within (days)' }) as HTMLInputElement).value).toBe(
      '7',
    );
    expect(lastList(calls)).toEqual({
      kind: 'soft',
      amount_max: '10000',
      age: '7',
      sort: '-amount_cents',
      limit: '25',
      offset: '0',
    });
    expect(within(table).getAllByRole('link', { name: 'Customer 100005' })[0]!.getAttribute('href')).toBe(
      '#/customer?id=100005',
    );
    expect(within(table).getByRole('link', { name: 'INV-2026-009001' }).getAttribute('href')).toBe(
      '#/view-invoices?id=9001',
    );

    await user.selectOptions(within(filters).getByRole('combobox', { name: 'Reason' }), 'expired_card');
    await user.click(within(filters).getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(window.location.hash).toContain('reason=expired_card'));
    expect(window.location.hash).toContain('kind=soft');
    await waitFor(() => expect(lastList(calls).reason).toBe('expired_card'));
  });

  it('Retry now on a row queues a reprocess, says so, follows the job and refreshes the list', async () => {
    const { calls } = fakeApi(routes());
    const user = userEvent.setup();
    renderApp('#/payments');
    await screen.findByRole('table', { name: /Failed payments — / });
    const before = calls.filter((c) => c.path === LIST).length;
    await user.click(screen.getByRole('button', { name: /^Retry now: Bluebird Diner LLC/ }));
    expect(await screen.findByText('Retry requested…')).toBeTruthy();
    expect(calls.find((c) => c.path === SNS)!.body).toEqual({
      customer_id: 100005,
      transaction_ids: [71],
      action: 'reprocess',
    });
    expect(await screen.findByText('Retry finished')).toBeTruthy();
    expect(screen.getAllByText(/#71: Charged again: paid/).length).toBeGreaterThan(0);
    await waitFor(() => expect(calls.filter((c) => c.path === LIST).length).toBeGreaterThan(before));
  });

  it('bulk: confirms, then one call per merchant; an error toast says what to do', async () => {
    const { calls } = fakeApi(
      routes({
        [`POST ${SNS}`]: (r: FakeRequest) =>
          (r.body as { customer_id: number }).customer_id === 100009
            ? errorResponse(409, 'conflict', 'Transaction 72 is not a failed charge')
            : jsonResponse(202, { info: { jobId: JOB_ID } }),
      }),
    );
    const user = userEvent.setup();
    renderApp('#/payments');
    await screen.findByRole('table', { name: /Failed payments — / });
    await user.click(screen.getByRole('checkbox', { name: 'Select every failed payment on this page' }));
    await user.click(screen.getByRole('button', { name: 'Stop retries (2)' }));
    const dialog = await screen.findByRole('dialog', { name: 'Stop retries: 2 failed payments' });
    expect(within(dialog).getByText(/of 2 merchants/)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Stop retries' }));
    expect(await screen.findByText(/Stop retries did not go through/)).toBeTruthy();
    expect(screen.getAllByText(/select them and try again/).length).toBeGreaterThan(0);
    const posted = calls.filter((c) => c.path === SNS).map((c) => c.body);
    expect(posted).toEqual([
      { customer_id: 100005, transaction_ids: [71], action: 'stop_retries' },
      { customer_id: 100009, transaction_ids: [72], action: 'stop_retries' },
    ]);
  });

  it('says which payments the worker could not act on, and what to do', async () => {
    fakeApi(
      routes({
        [`GET /api/jobs/${JOB_ID}/tok`]: {
          id: JOB_ID,
          queue: 'transactions',
          state: 'completed',
          retryCount: 0,
          retryLimit: 3,
          createdOn: '2026-11-22T12:00:00.000Z',
          startedOn: '2026-11-22T12:00:00.000Z',
          completedOn: '2026-11-22T12:00:01.000Z',
          output: { action: 'waive_fee', results: [{ transaction_id: 71, ok: false, result: 'No fee to waive.' }] },
          error: null,
          deadLetterQueue: null,
        },
      }),
    );
    const user = userEvent.setup();
    renderApp('#/payments');
    await screen.findByRole('table', { name: /Failed payments — / });
    await user.click(screen.getByRole('button', { name: /^Waive fee: Bluebird Diner LLC/ }));
    expect(await screen.findByText('Waive fee: 1 of 1 did not go through')).toBeTruthy();
    expect(screen.getAllByText(/#71: No fee to waive\. Check those payments/).length).toBeGreaterThan(0);
  });

  it('exports the filtered set as CSV (no paging)', async () => {
    vi.spyOn(URL, 'createObjectURL').mockImplementation(() => 'blob:download');
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    const { calls } = fakeApi(
      routes({
        [`GET ${LIST}`]: (r: FakeRequest) =>
          r.query.get('format') === 'csv'
            ? new Response('\uFEFFtransaction_id\r\n71\r\n', { headers: { 'Content-Type': 'text/csv' } })
            : { items: [makeItem()], total: 1, total_capped: false },
      }),
    );
    renderApp('#/payments');
    await screen.findByRole('table', { name: 'Failed payments — 1 match' });
    await userEvent.setup().click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(click).toHaveBeenCalledTimes(1));
    const csv = calls.find((c) => c.query.get('format') === 'csv')!;
    expect([csv.query.get('limit'), csv.query.get('offset')]).toEqual([null, null]);
  });
});
