import { notifications } from '@mantine/notifications';
import type { ReturnDetail, ReturnEligibility } from '@pos/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { errorResponse, fakeApi } from '../../../test/fake-api';
import { signInAs } from '../../../test/factories';
import { renderApp } from '../../../test/render-app';

const ELIGIBLE = '/api/returns/eligible/tok';
const LIST = '/api/returns/tok';

const SALES: ReturnEligibility = {
  window_days: 30,
  restocking_fee_cents: 250_00,
  sales: [
    {
      customer_id: 100005,
      legal_name: 'Bluebird Diner LLC',
      store_id: 500010,
      doing_business_as: 'Bluebird Diner',
      order_id: null,
      invoice_id: 9001,
      invoice_number: 'INV-2026-0009001',
      issued_on: '2026-11-10',
      returnable_until: '2026-12-10',
      currency: 'USD',
      total_cents: 2998_00,
      paid_cents: 2998_00,
      open_cents: 0,
      card_refundable: true,
      terminals: [
        {
          terminal_id: 31,
          elmer_id: '3000217',
          serial_number: 'NRS3000217',
          product_name: 'NRS POS Terminal',
          unit_cents: 1499_00,
          blocked_reason: null,
        },
        {
          terminal_id: 32,
          elmer_id: '3000224',
          serial_number: 'NRS3000224',
          product_name: 'NRS POS Terminal',
          unit_cents: 1499_00,
          blocked_reason: 'Already in return #3.',
        },
      ],
    },
  ],
};

function detail(over: Partial<ReturnDetail> = {}): ReturnDetail {
  return {
    id: 7,
    customer_id: 100005,
    legal_name: 'Bluebird Diner LLC',
    store_id: 500010,
    doing_business_as: 'Bluebird Diner',
    order_id: null,
    invoice_id: 9001,
    invoice_number: 'INV-2026-0009001',
    status: 'requested',
    reason: 'Second till closed',
    terminal_count: 1,
    value_cents: 1499_00,
    restocking_fee_cents: 250_00,
    fee_waived_reason: null,
    credit_cents: 1249_00,
    refund_cents: 0,
    refund_method: null,
    currency: 'USD',
    created_at: '2026-11-22T12:00:00.000Z',
    created_by_email: 'service@example.com',
    version: 1,
    note: null,
    decision_reason: null,
    received_at: null,
    inspected_at: null,
    decided_at: null,
    decided_by_email: null,
    terminals: [
      { terminal_id: 31, elmer_id: '3000217', serial_number: 'NRS3000217', status: 'active', unit_cents: 1499_00 },
    ],
    invoice: {
      id: 9001,
      invoice_number: 'INV-2026-0009001',
      issued_on: '2026-11-10',
      total_cents: 2998_00,
      paid_cents: 2998_00,
      open_cents: 0,
      card_refundable: true,
    },
    refund_preview_cents: 1249_00,
    needs_second_person: true,
    ...over,
  };
}

const item = (d: ReturnDetail) => {
  const {
    note: _n,
    decision_reason: _d,
    received_at: _r,
    inspected_at: _i,
    decided_at: _a,
    decided_by_email: _b,
    terminals: _t,
    invoice: _v,
    refund_preview_cents: _p,
    needs_second_person: _s,
    ...rest
  } = d;
  return rest;
};

describe('returns screens (decision 122)', () => {
  afterEach(() => {
    notifications.clean();
    notifications.cleanQueue();
  });

  it('#/returns-refund: pick a sale and a terminal, see terminals − fee = credit, request it', async () => {
    const created = detail();
    const { calls } = fakeApi({
      ...signInAs('Customer Service'),
      [`GET ${ELIGIBLE}`]: SALES,
      [`POST ${LIST}`]: created,
      [`GET ${LIST}`]: { items: [item(created)], total: 1, total_capped: false },
      'GET /api/returns/7/tok': created,
    });
    const user = userEvent.setup();
    renderApp('#/returns-refund');
    const form = await screen.findByRole('form', { name: /Return from Bluebird Diner — INV-2026-0009001/ });
    // A terminal already in a return cannot be ticked.
    expect(within(form).getByRole('checkbox', { name: /^Terminal 3000224 / })).toHaveProperty('disabled', true);
    await user.click(within(form).getByRole('button', { name: 'Request return' }));
    expect(await within(form).findByText('Tick at least one terminal coming back.')).toBeTruthy();
    expect(within(form).getByText('Say why the terminals come back.')).toBeTruthy();

    await user.click(within(form).getByRole('checkbox', { name: /^Terminal 3000217 / }));
    const preview = within(form).getByRole('table', { name: 'Refund preview' });
    expect(within(preview).getByRole('row', { name: /Terminals \(1\)/ }).textContent).toContain('$1,499.00');
    expect(within(preview).getByRole('row', { name: /Restocking fee/ }).textContent).toContain('$250.00');
    expect(within(preview).getByRole('row', { name: /Credit to the invoice/ }).textContent).toContain('$1,249.00');
    expect(within(preview).getByRole('row', { name: /to the card/ }).textContent).toContain('$1,249.00');

    // Waiving the fee needs a reason; the preview drops the fee.
    await user.click(within(form).getByRole('checkbox', { name: 'Waive the restocking fee' }));
    expect(within(preview).getByRole('row', { name: /Credit to the invoice/ }).textContent).toContain('$1,499.00');
    await user.type(within(form).getByRole('textbox', { name: 'Why are they coming back?' }), 'Second till closed');
    await user.click(within(form).getByRole('button', { name: 'Request return' }));
    expect(await within(form).findByText('Say why the restocking fee is waived.')).toBeTruthy();
    await user.click(within(form).getByRole('checkbox', { name: 'Waive the restocking fee' }));
    await user.click(within(form).getByRole('button', { name: 'Request return' }));

    await screen.findByRole('heading', { name: 'Return #7 — Bluebird Diner LLC' });
    expect(window.location.hash).toBe('#/viewreturns?id=7');
    const post = calls.find((c) => c.method === 'POST' && c.path === LIST)!;
    expect(post.body).toEqual({
      store_id: 500010,
      order_id: null,
      terminal_ids: [31],
      reason: 'Second till closed',
      waive_fee: false,
      fee_waived_reason: null,
    });
  });

  it('#/viewreturns: the list with filters; a return opens with its steps and Mark received sends the version', async () => {
    const requested = detail();
    const { calls } = fakeApi({
      ...signInAs('Customer Service'),
      [`GET ${LIST}`]: { items: [item(requested)], total: 1, total_capped: false },
      'GET /api/returns/7/tok': requested,
      'POST /api/returns/7/status/tok': detail({
        status: 'received',
        version: 2,
        received_at: '2026-11-22T13:00:00.000Z',
        terminals: [{ ...requested.terminals[0]!, status: 'retired' }],
      }),
    });
    const user = userEvent.setup();
    renderApp('#/viewreturns');
    const table = await screen.findByRole('table', { name: 'Returns — 1 match' });
    expect(within(table).getByText('$1,499.00 − $250.00 = $1,249.00')).toBeTruthy();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Status' }), 'requested');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    await waitFor(() =>
      expect(Object.fromEntries(calls.filter((c) => c.path === LIST).at(-1)!.query)).toMatchObject({
        status: 'requested',
      }),
    );
    expect(window.location.hash).toBe('#/viewreturns?status=requested');
    await user.click(within(table).getByRole('link', { name: 'Open return #7' }));
    expect(window.location.hash).toBe('#/viewreturns?status=requested&id=7');
    const panel = await screen.findByRole('region', { name: 'Return #7 — Bluebird Diner LLC' });
    expect(within(panel).getByRole('listitem', { current: 'step' }).textContent).toContain('Requested');
    await user.click(within(panel).getByRole('button', { name: 'Mark received' }));
    expect(await screen.findByText(/retired and left the store's terminal list/)).toBeTruthy();
    expect(calls.find((c) => c.path === '/api/returns/7/status/tok')!.body).toEqual({ action: 'receive', version: 1 });
  });

  it('#/viewreturns keeps its filters in the address: a copied link shows them in the fields and asks for them', async () => {
    const { calls } = fakeApi({
      ...signInAs('Customer Service'),
      [`GET ${LIST}`]: { items: [item(detail())], total: 1, total_capped: false },
    });
    const user = userEvent.setup();
    renderApp('#/viewreturns?status=inspected&customer_id=100005&age=30&sort=-refund_cents');
    await screen.findByRole('table', { name: 'Returns — 1 match' });
    expect(Object.fromEntries(calls.filter((c) => c.path === LIST).at(-1)!.query)).toEqual({
      status: 'inspected',
      customer_id: '100005',
      age: '30',
      sort: '-refund_cents',
      limit: '25',
      offset: '0',
    });
    expect((screen.getByRole('combobox', { name: 'Status' }) as HTMLSelectElement).value).toBe('inspected');
    expect((screen.getByRole('textbox', { name: 'Customer id' }) as HTMLInputElement).value).toBe('100005');
    expect((screen.getByRole('textbox', { name: 'Requested within (days)' }) as HTMLInputElement).value).toBe('30');

    await user.type(screen.getByRole('textbox', { name: 'Merchant or DBA' }), 'blue');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    await waitFor(() =>
      expect(window.location.hash).toBe(
        '#/viewreturns?status=inspected&age=30&customer_id=100005&q=blue&sort=-refund_cents',
      ),
    );
    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(window.location.hash).toBe('#/viewreturns?sort=-refund_cents'));
    await waitFor(() =>
      expect((screen.getByRole('textbox', { name: 'Customer id' }) as HTMLInputElement).value).toBe(''),
    );
  });

  it('offers each step only to whom may take it: Customer Service sees no refund of an inspected return', async () => {
    const inspected = detail({ status: 'inspected', version: 3 });
    fakeApi({
      ...signInAs('Customer Service'),
      [`GET ${LIST}`]: { items: [item(inspected)], total: 1, total_capped: false },
      'GET /api/returns/7/tok': inspected,
    });
    renderApp('#/viewreturns?id=7');
    const panel = await screen.findByRole('region', { name: 'Return #7 — Bluebird Diner LLC' });
    expect(await within(panel).findByText('Inspected: AR refunds it (privilege ar_approvals).')).toBeTruthy();
    expect(within(panel).queryByRole('button', { name: 'Refund to card' })).toBeNull();
    expect(within(panel).getByRole('button', { name: 'Reject…' })).toBeTruthy();
  });

  it('#/refund: an inspected return refunds to the card after asking; a refusal says what to do', async () => {
    const inspected = detail({ status: 'inspected', version: 3 });
    let refusals = 1;
    const { calls } = fakeApi({
      ...signInAs('AR Team'),
      [`GET ${LIST}`]: { items: [item(inspected)], total: 1, total_capped: false },
      'GET /api/returns/7/tok': inspected,
      'POST /api/returns/7/refund/tok': () =>
        refusals-- > 0
          ? errorResponse(409, 'conflict', 'The gateway refused the refund: card closed.')
          : detail({ status: 'refunded', version: 4, refund_cents: 1249_00, refund_method: 'gateway' }),
    });
    const user = userEvent.setup();
    renderApp('#/refund');
    const table = await screen.findByRole('table', { name: 'Returns waiting for a refund — 1 match' });
    await waitFor(() =>
      expect(Object.fromEntries(calls.filter((c) => c.path === LIST).at(-1)!.query)).toMatchObject({
        status: 'inspected',
      }),
    );
    await user.click(within(table).getByRole('link', { name: 'Refund return #7' }));
    expect(window.location.hash).toBe('#/refund?id=7');
    const panel = await screen.findByRole('region', { name: 'Return #7 — Bluebird Diner LLC' });
    const breakdown = within(panel).getByRole('table', { name: 'Refund of return #7' });
    expect(within(breakdown).getByRole('row', { name: /To pay back/ }).textContent).toContain('$1,249.00');
    expect(within(panel).getByText(/someone other than service@example.com refunds it/)).toBeTruthy();

    await user.click(within(panel).getByRole('button', { name: 'Refund to card' }));
    const dialog = await screen.findByRole('dialog', { name: 'Refund return #7' });
    expect(dialog.textContent).toContain('pay $1,249.00 back to the card');
    await user.click(within(dialog).getByRole('button', { name: 'Refund to the card' }));
    expect(await screen.findByText(/The gateway refused the refund: card closed/)).toBeTruthy();

    await user.click(within(panel).getByRole('button', { name: 'Refund to card' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Refund return #7' })).getByRole('button', {
        name: 'Refund to the card',
      }),
    );
    expect(await screen.findByText(/\$1,249\.00 paid back to the card/)).toBeTruthy();
    const posts = calls.filter((c) => c.path === '/api/returns/7/refund/tok');
    expect(posts.map((p) => p.body)).toEqual([
      { method: 'gateway', version: 3 },
      { method: 'gateway', version: 3 },
    ]);
  });
});
