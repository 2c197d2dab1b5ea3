import { notifications } from '@mantine/notifications';
import { ACCOUNTS, ACCOUNT_CODES, type TrialBalance } from '@pos/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeApi } from '../../../test/fake-api';
import { signInAs } from '../../../test/factories';
import { renderApp } from '../../../test/render-app';

const TB = '/api/accounting/trial-balance/tok';

function trialBalance(over: Partial<TrialBalance> = {}): TrialBalance {
  return {
    month: '2026-11',
    currency: 'USD',
    rows: ACCOUNT_CODES.map((code) => ({
      account: code,
      gl_account: code === '1100' ? '12000' : code,
      name: ACCOUNTS[code].name,
      type: ACCOUNTS[code].type,
      opening_cents: 0,
      debit_cents: code === '1100' ? 390_00 : 0,
      credit_cents: code === '4100' ? 390_00 : 0,
      closing_cents: code === '1100' ? 390_00 : code === '4100' ? -390_00 : 0,
    })),
    totals: { debit_cents: 390_00, credit_cents: 390_00 },
    tie_outs: [
      { name: 'balanced', label: 'Debits equal credits', journal_cents: 390_00, books_cents: 390_00, ok: true },
      {
        name: 'receivables',
        label: 'Receivables equal the open invoices',
        journal_cents: 390_00,
        books_cents: 390_00,
        ok: true,
      },
    ],
    ...over,
  };
}

describe('month-end accounting (#/accounting)', () => {
  afterEach(() => {
    notifications.clean();
    notifications.cleanQueue();
  });

  it('shows the trial balance of the month in the address with GL codes, totals and tie-outs', async () => {
    const { calls } = fakeApi({ ...signInAs('AR Team'), [`GET ${TB}`]: trialBalance() });
    renderApp('#/accounting?month=2026-11&currency=USD');
    const table = await screen.findByRole('table', { name: /Trial balance, Nov 2026/ });
    const row = (await within(table).findByText('Accounts receivable')).closest('tr')!;
    expect(within(row).getByText('12000')).toBeTruthy();
    expect(within(row).getAllByText('$390.00').length).toBeGreaterThan(0);
    expect(within(table).getByText('Total of the month')).toBeTruthy();
    expect(screen.getByText('Every figure ties out: the journal and the books agree.')).toBeTruthy();
    const ties = screen.getByRole('table', { name: 'Tie-outs' });
    expect(within(ties).getAllByText('Ties out')).toHaveLength(2);
    expect(Object.fromEntries(calls.find((c) => c.path === TB)!.query)).toEqual({ month: '2026-11', currency: 'USD' });
  });

  it('says so when the journal and the books differ, and asks for the other currency', async () => {
    const { calls } = fakeApi({
      ...signInAs('AR Team'),
      [`GET ${TB}`]: trialBalance({
        tie_outs: [
          {
            name: 'receivables',
            label: 'Receivables equal the open invoices',
            journal_cents: 1_00,
            books_cents: 2_00,
            ok: false,
          },
        ],
      }),
    });
    const user = userEvent.setup();
    renderApp('#/accounting?month=2026-11');
    expect(await screen.findByText('The journal and the books differ')).toBeTruthy();
    expect(screen.getByText('Differs')).toBeTruthy();
    await user.selectOptions(screen.getByLabelText('Currency'), 'CAD');
    await waitFor(() => expect(calls.some((c) => c.path === TB && c.query.get('currency') === 'CAD')).toBe(true));
    expect(window.location.hash).toContain('currency=CAD');
  });
});
