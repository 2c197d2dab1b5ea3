import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { focusManager } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { errorResponse, fakeApi, type FakeRequest } from '../../../test/fake-api';
import { jsonResponse } from '../../../test/factories';
import { renderApp } from '../../../test/render-app';
import { JOB_REFRESH_MS } from '../api/jobs';
import { makeJob, signInAdmin } from '../test-support';

const LIST = '/api/admin/jobs/tok';
const FAILED_ID = '11111111-1111-4111-8111-111111111111';
const ACTIVE_ID = '22222222-2222-4222-8222-222222222222';

const jobs = [
  makeJob({ id: ACTIVE_ID, queue: 'store-info', state: 'active', completed_on: null }),
  makeJob({
    id: FAILED_ID,
    queue: 'notify-update-payment',
    state: 'failed',
    retry_count: 3,
    retry_limit: 3,
    dead_lettered: true,
    output: {
      name: 'PermanentJobError',
      code: 'not_found',
      message: 'Terminal 999 does not exist.',
      stack: 'Error: at secret.ts:1',
    },
  }),
  makeJob({
    id: '33333333-3333-4333-8333-333333333333',
    queue: 'push-license',
    state: 'completed',
    output: { storeId: 5 },
  }),
];
const queues = [
  { queue: 'notify-update-payment', counts: { failed: 1, completed: 4 } },
  { queue: 'store-info', counts: { active: 1 } },
  { queue: 'notify-update-payment__dead', counts: { created: 1 } },
];

function server(extra: Record<string, unknown> = {}) {
  return fakeApi({
    ...signInAdmin(),
    [`GET ${LIST}`]: { items: jobs, total: 3, total_capped: false, queues },
    ...extra,
  });
}

async function jobsTable() {
  return screen.findByRole('table', { name: 'Recent jobs, newest first' });
}

function rowOf(table: HTMLElement, id: string): HTMLElement {
  const row = within(table).getByText(id).closest('tr');
  if (!row) throw new Error(`no row for ${id}`);
  return row;
}

describe('Job monitor page (#/admin/jobs)', () => {
  it('shows per-queue counts by state and the recent jobs from the API', async () => {
    const { calls } = server();
    renderApp('#/admin/jobs');
    expect(await screen.findByRole('heading', { name: 'Job monitor', level: 1 })).toBeTruthy();

    const counts = await screen.findByRole('table', { name: 'Jobs by queue and state' });
    expect(
      within(counts)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Queue', 'created', 'retry', 'active', 'completed', 'cancelled', 'failed']);
    const paymentRow = within(counts).getByRole('rowheader', { name: 'Payment-method update link' }).closest('tr')!;
    expect(
      within(paymentRow)
        .getAllByRole('cell')
        .map((c) => Number(c.textContent)),
    ).toEqual([0, 0, 0, 4, 0, 1]);
    expect(within(counts).getByRole('rowheader', { name: 'Payment-method update link (dead letter)' })).toBeTruthy();

    const table = await jobsTable();
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Queue', 'State', 'Retries', 'Created', 'Finished', 'Error', 'Actions']);
    const failed = rowOf(table, FAILED_ID);
    expect(within(failed).getByText('Payment-method update link')).toBeTruthy();
    expect(within(failed).getByText('failed')).toBeTruthy();
    expect(within(failed).getByText('dead letter')).toBeTruthy();
    expect(within(failed).getByText('3 of 3')).toBeTruthy();
    // The error from `output`, never its stack.
    expect(within(failed).getByText('not_found: Terminal 999 does not exist.')).toBeTruthy();
    expect(failed.textContent).not.toContain('secret.ts');
    // A completed job shows no error, and neither Retry nor Cancel.
    const completed = rowOf(table, '33333333-3333-4333-8333-333333333333');
    expect(within(completed).queryByRole('button')).toBeNull();

    expect(Object.fromEntries(calls.find((c) => c.path === LIST)!.query)).toEqual({ limit: '25', offset: '0' });
  });

  it('the queue and state filters change the query', async () => {
    const { calls } = server();
    const user = userEvent.setup();
    renderApp('#/admin/jobs');
    await jobsTable();

    await user.selectOptions(screen.getByRole('combobox', { name: 'Queue' }), 'Payment-method update link');
    await waitFor(() => expect(calls.at(-1)?.query.get('queue')).toBe('notify-update-payment'));
    await user.selectOptions(screen.getByRole('combobox', { name: 'State' }), 'failed');
    await waitFor(() =>
      expect(Object.fromEntries(calls.at(-1)!.query)).toEqual({
        queue: 'notify-update-payment',
        state: 'failed',
        limit: '25',
        offset: '0',
      }),
    );
    // Queues the server reports beyond the known ones (dead-letter queues) can be chosen too.
    await user.selectOptions(
      screen.getByRole('combobox', { name: 'Queue' }),
      'Payment-method update link (dead letter)',
    );
    await waitFor(() => expect(calls.at(-1)?.query.get('queue')).toBe('notify-update-payment__dead'));
  });

  it('Retry asks for confirmation, then posts to the job’s retry URL', async () => {
    const retried: FakeRequest[] = [];
    server({
      [`POST /api/admin/jobs/notify-update-payment/${FAILED_ID}/retry/tok`]: (r: FakeRequest) => {
        retried.push(r);
        return { id: FAILED_ID, state: 'created' };
      },
    });
    const user = userEvent.setup();
    renderApp('#/admin/jobs');
    const row = rowOf(await jobsTable(), FAILED_ID);
    expect(within(row).queryByRole('button', { name: 'Cancel' })).toBeNull();
    await user.click(within(row).getByRole('button', { name: 'Retry' }));

    const dialog = await screen.findByRole('dialog', { name: 'Retry this job?' });
    expect(retried).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Retry job' }));
    await waitFor(() => expect(retried).toHaveLength(1));
    expect(retried[0]!.method).toBe('POST');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Retry this job?' })).toBeNull());
  });

  it('Cancel asks for confirmation and can be kept as is; a 409 shows the server’s message in the toast', async () => {
    const cancelled: FakeRequest[] = [];
    server({
      [`POST /api/admin/jobs/store-info/${ACTIVE_ID}/cancel/tok`]: (r: FakeRequest) => {
        cancelled.push(r);
        return errorResponse(
          409,
          'conflict',
          'Only a job that has not finished can be cancelled; this one is completed.',
        );
      },
    });
    const user = userEvent.setup();
    renderApp('#/admin/jobs', undefined, { appQueryClient: true });
    const row = rowOf(await jobsTable(), ACTIVE_ID);
    expect(within(row).queryByRole('button', { name: 'Retry' })).toBeNull();

    await user.click(within(row).getByRole('button', { name: 'Cancel' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Cancel this job?' })).getByRole('button', {
        name: 'Keep as is',
      }),
    );
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Cancel this job?' })).toBeNull());
    expect(cancelled).toHaveLength(0);

    await user.click(within(row).getByRole('button', { name: 'Cancel' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Cancel this job?' })).getByRole('button', {
        name: 'Cancel job',
      }),
    );
    expect(await screen.findByText(/this one is completed\./)).toBeTruthy();
    expect(cancelled).toHaveLength(1);
  });

  it('sends an update-payment link by terminal id and shows the job id it got', async () => {
    const sent: FakeRequest[] = [];
    const jobId = '44444444-4444-4444-8444-444444444444';
    const { calls } = server({
      'POST /api/customers/notifications/updatepayment/tok': (r: FakeRequest) => {
        sent.push(r);
        return jsonResponse(202, { info: { jobId } });
      },
    });
    const user = userEvent.setup();
    renderApp('#/admin/jobs');
    await jobsTable();
    const panel = screen.getByRole('region', { name: 'Send update-payment link' });

    // The domain contract checks the field first.
    await user.click(within(panel).getByRole('button', { name: 'Send link' }));
    expect(await within(panel).findByText('Enter the terminal id (elmer_id).')).toBeTruthy();
    expect(sent).toHaveLength(0);

    const listCalls = calls.filter((c) => c.path === LIST).length;
    await user.type(within(panel).getByRole('textbox', { name: 'Terminal id' }), ' 3000008 ');
    await user.click(within(panel).getByRole('button', { name: 'Send link' }));
    const status = await within(panel).findByRole('status');
    expect(status.textContent).toBe(`Queued as job ${jobId}`);
    expect(sent[0]!.body).toEqual({ elmer_id: '3000008' });
    // The job list refreshes, so the new job shows.
    await waitFor(() => expect(calls.filter((c) => c.path === LIST).length).toBeGreaterThan(listCalls));
  });

  it('an unknown terminal: the server’s field message shows at the field', async () => {
    server({
      'POST /api/customers/notifications/updatepayment/tok': jsonResponse(404, {
        error: {
          code: 'not_found',
          message: 'Terminal NOPE was not found.',
          fields: { elmer_id: 'Terminal NOPE was not found.' },
        },
      }),
    });
    const user = userEvent.setup();
    renderApp('#/admin/jobs');
    await jobsTable();
    const panel = screen.getByRole('region', { name: 'Send update-payment link' });
    await user.type(within(panel).getByRole('textbox', { name: 'Terminal id' }), 'NOPE');
    await user.click(within(panel).getByRole('button', { name: 'Send link' }));
    expect(await within(panel).findByText('Terminal NOPE was not found.')).toBeTruthy();
    expect(within(panel).queryByRole('status')).toBeNull();
  });

  it(`refreshes itself every ${JOB_REFRESH_MS / 1000} s while the page is visible`, async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { calls } = server();
    renderApp('#/admin/jobs');
    await jobsTable();
    const count = () => calls.filter((c) => c.path === LIST).length;
    const before = count();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(JOB_REFRESH_MS);
    });
    await waitFor(() => expect(count()).toBe(before + 1));
    await act(async () => {
      await vi.advanceTimersByTimeAsync(JOB_REFRESH_MS);
    });
    await waitFor(() => expect(count()).toBe(before + 2));

    // A hidden tab does not refresh (TanStack pauses the interval while the document is not focused).
    act(() => focusManager.setFocused(false));
    await act(async () => {
      await vi.advanceTimersByTimeAsync(3 * JOB_REFRESH_MS);
    });
    expect(count()).toBe(before + 2);
    act(() => focusManager.setFocused(undefined));
  });

  it('a capped total reads "1,000+" with open-ended paging', async () => {
    server({ [`GET ${LIST}`]: { items: jobs, total: 1000, total_capped: true, queues } });
    renderApp('#/admin/jobs');
    await jobsTable();
    expect(await screen.findByText(/of 1,000\+$/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Last page' })).toBeNull();
  });
});
