import { notifications } from '@mantine/notifications';
import { ORDER_STATUS, type ApprovalItem } from '@pos/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeApi, type FakeRequest } from '../../../test/fake-api';
import { signInAs } from '../../../test/factories';
import { renderApp } from '../../../test/render-app';

const LIST = '/api/approvals/tok';
const DECIDE = '/api/approvals/decisions/tok';
const REASONS = '/api/customers/orderstatus/tok';

function item(over: Partial<ApprovalItem> = {}): ApprovalItem {
  return {
    kind: 'memo',
    id: 41,
    version: 1,
    title: 'Credit memo',
    customer_id: 100005,
    customer_name: 'Bluebird Diner LLC',
    invoice_id: 9001,
    invoice_number: 'INV-2026-009001',
    amount_cents: 1500_00,
    currency: 'USD',
    reason: 'Outage credit',
    note: 'Down four days',
    requested_by: 'ar2@example.com',
    requested_at: '2026-11-20T12:00:00.000Z',
    age_days: 2,
    needs_second_approver: true,
    can_decide: true,
    ...over,
  };
}

const ITEMS = [
  item(),
  item({ id: 42, amount_cents: 1200_00, requested_by: 'support@example.com', can_decide: false }),
  item({
    kind: 'order',
    id: 700123,
    title: 'Order UO-1 (Pending AR Approval)',
    invoice_id: null,
    invoice_number: null,
    amount_cents: 899_00,
    currency: 'CAD',
    reason: null,
    note: null,
    needs_second_approver: false,
    requested_by: 'ramsupport@example.com',
  }),
];

const lastList = (calls: FakeRequest[]) => Object.fromEntries(calls.filter((c) => c.path === LIST).at(-1)!.query);

describe('approvals (#/approvals)', () => {
  afterEach(() => {
    notifications.clean();
    notifications.cleanQueue();
  });

  it('lists what waits with amount, age and requester; the requester of a big memo cannot select it', async () => {
    fakeApi({ ...signInAs('AR Team'), [`GET ${LIST}`]: { items: ITEMS, total: 3 } });
    renderApp('#/approvals');
    const table = await screen.findByRole('table', { name: 'Approvals — 3 waiting' });
    const row = within(table)
      .getByRole('checkbox', { name: /Select Credit memo 41/ })
      .closest('tr')!;
    expect(within(row).getByText('$1,500.00')).toBeTruthy();
    expect(within(row).getByText('2 days')).toBeTruthy();
    expect(within(row).getByText('ar2@example.com')).toBeTruthy();
    const mine = within(table).getByRole('checkbox', { name: /Select Credit memo 42/ });
    expect((mine as HTMLInputElement).disabled).toBe(true);
    expect(within(mine.closest('tr')!).getByText(/another AR approver decides/)).toBeTruthy();
    expect(within(table).getByText('C$899.00')).toBeTruthy();
  });

  it('sends the filters (amounts in cents)', async () => {
    const { calls } = fakeApi({ ...signInAs('AR Team'), [`GET ${LIST}`]: { items: ITEMS, total: 3 } });
    const user = userEvent.setup();
    renderApp('#/approvals');
    await screen.findByRole('table', { name: /Approvals — / });
    const form = screen.getByRole('search', { name: 'Filter approvals' });
    await user.selectOptions(within(form).getByLabelText('Kind'), 'memo');
    await user.type(within(form).getByLabelText('Smallest amount'), '1,000');
    await user.type(within(form).getByLabelText('Waiting at least (days)'), '14');
    await user.type(within(form).getByLabelText('Requester'), 'ar2');
    await user.click(within(form).getByRole('button', { name: 'Apply' }));
    await waitFor(() =>
      expect(lastList(calls)).toEqual({
        kind: 'memo',
        amount_min: '100000',
        older_than_days: '14',
        requester: 'ar2',
        limit: '25',
        offset: '0',
      }),
    );
  });

  it('the filters and page are in the address; a link with them fills the fields and asks the server for them', async () => {
    const { calls } = fakeApi({ ...signInAs('AR Team'), [`GET ${LIST}`]: { items: ITEMS, total: 3 } });
    const user = userEvent.setup();
    renderApp('#/approvals');
    await screen.findByRole('table', { name: /Approvals — / });
    const form = screen.getByRole('search', { name: 'Filter approvals' });
    await user.type(within(form).getByLabelText('Largest amount'), 'lots');
    await user.click(within(form).getByRole('button', { name: 'Apply' }));
    expect(await within(form).findByText('Type an amount such as 1,500.00.')).toBeTruthy();
    expect(window.location.hash).toBe('#/approvals');
    await user.clear(within(form).getByLabelText('Largest amount'));
    await user.type(within(form).getByLabelText('Largest amount'), '$2,500.50');
    await user.selectOptions(within(form).getByLabelText('Kind'), 'memo');
    await user.click(within(form).getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(window.location.hash).toBe('#/approvals?kind=memo&amount_max=2500.50'));
    await waitFor(() => expect(lastList(calls)).toMatchObject({ kind: 'memo', amount_max: '250050' }));
    await user.click(within(form).getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(window.location.hash).toBe('#/approvals'));
  });

  it('a copied address opens the same filtered page', async () => {
    const { calls } = fakeApi({ ...signInAs('AR Team'), [`GET ${LIST}`]: { items: ITEMS, total: 30 } });
    renderApp('#/approvals?kind=write_off&amount_min=1000&older_than_days=14&requester=ar2&page=2');
    await screen.findByRole('table', { name: 'Approvals — 30 waiting' });
    const form = screen.getByRole('search', { name: 'Filter approvals' });
    expect((within(form).getByLabelText('Kind') as HTMLSelectElement).value).toBe('write_off');
    expect((within(form).getByLabelText('Smallest amount') as HTMLInputElement).value).toBe('1000');
    expect((within(form).getByLabelText('Waiting at least (days)') as HTMLInputElement).value).toBe('14');
    expect((within(form).getByLabelText('Requester') as HTMLInputElement).value).toBe('ar2');
    expect(lastList(calls)).toEqual({
      kind: 'write_off',
      amount_min: '100000',
      older_than_days: '14',
      requester: 'ar2',
      limit: '25',
      offset: '25',
    });
  });

  it('customers, invoices and orders are links to their pages', async () => {
    fakeApi({ ...signInAs('AR Team'), [`GET ${LIST}`]: { items: ITEMS, total: 3 } });
    renderApp('#/approvals');
    const table = await screen.findByRole('table', { name: 'Approvals — 3 waiting' });
    const row = within(table)
      .getByRole('checkbox', { name: /Select Credit memo 41/ })
      .closest('tr')!;
    expect(within(row).getByRole('link', { name: 'Bluebird Diner LLC' }).getAttribute('href')).toBe(
      '#/customer?id=100005',
    );
    expect(within(row).getByRole('link', { name: 'INV-2026-009001' }).getAttribute('href')).toBe(
      '#/view-invoices?id=9001',
    );
    expect(
      within(table).getByRole('link', { name: 'Open Order UO-1 (Pending AR Approval)' }).getAttribute('href'),
    ).toBe('#/order?id=700123');
  });

  it('rejects the selected rows with a reason (an order needs a rejection reason) and lists each outcome', async () => {
    const { calls } = fakeApi({
      ...signInAs('AR Team'),
      [`GET ${LIST}`]: { items: ITEMS, total: 3 },
      [`GET ${REASONS}`]: {
        statuses: [
          {
            status: ORDER_STATUS.REJECTED,
            label: 'Rejected',
            reasons: [{ id: 7, reason: 'Credit check failed', sort_order: 1 }],
          },
        ],
      },
      [`POST ${DECIDE}`]: {
        results: [
          { kind: 'memo', id: 41, ok: true, status: 200, message: 'Rejected' },
          {
            kind: 'order',
            id: 700123,
            ok: false,
            status: 409,
            message: 'Order 700123 is no longer waiting for AR approval; reload the queue.',
          },
        ],
      },
    });
    const user = userEvent.setup();
    renderApp('#/approvals');
    const table = await screen.findByRole('table', { name: /Approvals — / });
    await user.click(within(table).getByRole('checkbox', { name: /Select Credit memo 41/ }));
    await user.click(within(table).getByRole('checkbox', { name: /Select Order UO-1/ }));
    await user.click(screen.getByRole('button', { name: 'Reject selected (2)' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reject 2 items?' });
    await user.click(within(dialog).getByRole('button', { name: 'Reject' }));
    expect(within(dialog).getByText('Say why (at least 3 characters).')).toBeTruthy();
    await user.type(within(dialog).getByLabelText(/Reason for the decision/), 'Not agreed with the merchant');
    await user.click(within(dialog).getByRole('button', { name: 'Reject' }));
    expect(within(dialog).getByText('Choose the reason the order is rejected.')).toBeTruthy();
    await waitFor(() => expect(within(dialog).getByRole('option', { name: 'Credit check failed' })).toBeTruthy());
    await user.selectOptions(within(dialog).getByLabelText('Order rejection reason'), '7');
    await user.click(within(dialog).getByRole('button', { name: 'Reject' }));
    await waitFor(() => expect(calls.some((c) => c.path === DECIDE)).toBe(true));
    const post = calls.find((c) => c.path === DECIDE)!;
    expect(post.body).toEqual({
      items: [
        { kind: 'memo', id: 41, version: 1 },
        { kind: 'order', id: 700123, version: 1 },
      ],
      decision: 'reject',
      reason: 'Not agreed with the merchant',
      status_reason_id: 7,
    });
    const decided = await screen.findByRole('region', { name: 'Decided here' });
    expect(
      within(decided).getByText(/Credit memo 41 on invoice INV-2026-009001: Rejected by support@example.com/),
    ).toBeTruthy();
    expect(within(decided).getByText(/not rejected — Order 700123 is no longer waiting/)).toBeTruthy();
    expect(await screen.findByText('Rejected: 1 of 2')).toBeTruthy();
  });
});
