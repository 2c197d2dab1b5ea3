import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { BillingRunInfo } from '@pos/domain';
import { describe, expect, it } from 'vitest';
import { fakeApi, type FakeRequest } from '../../../test/fake-api';
import { jsonResponse } from '../../../test/factories';
import { renderApp } from '../../../test/render-app';
import { signInAdmin } from '../test-support';

const RUNS = '/api/billing/runs/tok';

const run = (over: Partial<BillingRunInfo>): BillingRunInfo => ({
  run_id: 1,
  as_of: '2026-11-25',
  status: 'done',
  requested_by: 'schedule',
  plans_due: 40,
  plans_done: 40,
  invoices_created: 40,
  skipped: 0,
  licenses_lapsed: 0,
  created_at: '2026-11-25T07:00:00.000Z',
  started_at: '2026-11-25T07:00:01.000Z',
  finished_at: '2026-11-25T07:00:04.000Z',
  error: null,
  ...over,
});

describe('#/admin/billing', () => {
  it('starts a run as of a date and shows it queued, then its progress and figures as it goes', async () => {
    let items: BillingRunInfo[] = [run({ run_id: 1 })];
    const { calls } = fakeApi({
      ...signInAdmin(),
      [`GET ${RUNS}`]: () => ({ items, total: items.length }),
      [`POST ${RUNS}`]: (r: FakeRequest) => {
        items = [
          run({
            run_id: 2,
            as_of: (r.body as { as_of?: string }).as_of ?? '2026-11-25',
            status: 'running',
            requested_by: 'admin@example.com',
            plans_due: 12,
            plans_done: 3,
            invoices_created: 3,
            finished_at: null,
          }),
          ...items,
        ];
        return { run_id: 2, job_id: 'job-2' };
      },
    });
    const user = userEvent.setup();
    renderApp('#/admin/billing');
    const table = await screen.findByRole('table', { name: 'Recent runs' });
    expect(within(table).getByText('Daily schedule')).toBeTruthy();
    await user.type(screen.getByLabelText('Bill as of'), '2026-12-01');
    await user.click(screen.getByRole('button', { name: 'Run billing now' }));
    expect(await screen.findByText('Billing run 2 started.')).toBeTruthy();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ as_of: '2026-12-01' });
    const row = (await within(table).findByText('admin@example.com')).closest('tr')!;
    expect(within(row).getByText('Running')).toBeTruthy();
    expect(within(row).getByText('3 of 12 plans')).toBeTruthy();
    expect(within(row).getByRole('progressbar', { name: 'Run 2: 3 of 12 plans billed' })).toBeTruthy();
  });

  it('shows the server’s refusal of the date next to the field', async () => {
    fakeApi({
      ...signInAdmin(),
      [`GET ${RUNS}`]: { items: [], total: 0 },
      [`POST ${RUNS}`]: () =>
        jsonResponse(400, {
          error: {
            code: 'validation_failed',
            message: 'In production a billing run bills today only.',
            fields: { as_of: 'In production a billing run bills today only (2026-11-25, America/New_York).' },
          },
        }),
    });
    const user = userEvent.setup();
    renderApp('#/admin/billing');
    expect(await screen.findByText('No billing run yet.')).toBeTruthy();
    await user.type(screen.getByLabelText('Bill as of'), '2026-11-01');
    await user.click(screen.getByRole('button', { name: 'Run billing now' }));
    expect(await screen.findByText(/bills today only \(2026-11-25/)).toBeTruthy();
  });
});
