import { notifications } from '@mantine/notifications';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { jsonResponse } from '../../../test/factories';
import { fakeApi, type FakeRequest } from '../../../test/fake-api';
import { renderApp } from '../../../test/render-app';
import { customerRoutes, makeCustomer, signInAs } from '../lib/test-support';
import { idempotencyKeyOf, makeInvoice, makePlan, makeTerminal, makeTransaction } from './test-support';

const BASE = '/api/customers/100001/tok';

function rowOf(table: HTMLElement, text: string): HTMLElement {
  const row = within(table).getByText(text, { selector: 'th' }).closest('tr');
  if (!row) throw new Error(`no row for ${text}`);
  return row;
}

function server(role: string, extra: Record<string, unknown>) {
  return fakeApi({ ...signInAs(role), ...customerRoutes(makeCustomer()), ...extra });
}

/** The type R credit invoice of invoice 41 (decision 152). */
const CREDIT_41 = {
  id: 7,
  invoice_number: 'INV-2026-0000007',
  type: 'R',
  type_label: 'Credit (reversal)',
  customer_id: 100001,
  store_id: 500002,
  reverses_invoice_id: 41,
  reverses_invoice_number: 'INV-000041',
  order_id: null,
  credit_memo_id: null,
  issued_on: '2026-11-20',
  total_cents: -79_00,
  tax_cents: 0,
  currency: 'USD',
  reason: 'Reversal of invoice INV-000041: Billed twice',
  created_by_email: 'dana@example.com',
  created_at: '2026-11-20T12:00:00.000Z',
  lines: [],
};
describe('Transactions tab', () => {
  const list = {
    items: [
      makeTransaction('F', { id: 701 }),
      makeTransaction('P', { id: 702 }),
      makeTransaction('S', { id: 703 }),
      makeTransaction('C', { id: 704 }),
      makeTransaction('B', { id: 705 }),
    ],
    total: 5,
    total_capped: false,
  };

  it('shows status letters as words, and Retry only for failed, Void only for pending', async () => {
    const { calls } = server('Customer Support', { [`GET ${BASE}/transactions`]: list });
    renderApp('#/customer?id=100001&tab=transactions');
    const table = await screen.findByRole('table', { name: 'Transactions of store 500002, newest first' });
    expect(within(rowOf(table, '701')).getByText('Failed')).toBeTruthy();
    expect(within(rowOf(table, '702')).getByText('Pending')).toBeTruthy();
    expect(within(rowOf(table, '703')).getByText('Success')).toBeTruthy();
    expect(within(rowOf(table, '704')).getByText('Reversed/Refunded')).toBeTruthy();
    expect(within(rowOf(table, '705')).getByText('Chargeback')).toBeTruthy();
    expect(
      within(rowOf(table, '701'))
        .getAllByRole('button')
        .map((b) => b.getAttribute('aria-label')),
    ).toEqual(['Retry transaction 701']);
    expect(
      within(rowOf(table, '702'))
        .getAllByRole('button')
        .map((b) => b.getAttribute('aria-label')),
    ).toEqual(['Void transaction 702']);
    expect(within(rowOf(table, '703')).queryByRole('button')).toBeNull();
    expect(Object.fromEntries(calls.find((c) => c.path === `${BASE}/transactions`)!.query)).toEqual({
      storeid: '500002',
      limit: '25',
      offset: '0',
      sort: '-attempted_at',
    });
  });

  it('a store with more than 1,000 transactions reads "1,000+" and pages on while pages are full', async () => {
    const full = Array.from({ length: 25 }, (_, i) => makeTransaction('S', { id: 9000 - i }));
    server('Customer Support', { [`GET ${BASE}/transactions`]: { items: full, total: 1000, total_capped: true } });
    renderApp('#/customer?id=100001&tab=transactions');
    await screen.findByRole('table', { name: 'Transactions of store 500002, newest first' });
    expect(await screen.findByText('Showing 1–25 of 1,000+')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Next page' }).hasAttribute('disabled')).toBe(false);
  });

  it('Retry asks first, sends an Idempotency-Key, and sends the same key again after a lost answer', async () => {
    let attempts = 0;
    const { fetchMock } = server('Customer Support', {
      [`GET ${BASE}/transactions`]: list,
      [`POST ${BASE}/transactions/701`]: () => {
        attempts += 1;
        if (attempts === 1) throw new TypeError('connection reset');
        return {
          transaction: makeTransaction('R', { id: 701, version: 2 }),
          new_transaction: makeTransaction('S', { id: 706 }),
        };
      },
      [`POST ${BASE}/transactions/702`]: {
        transaction: makeTransaction('V', { id: 702, version: 2 }),
        new_transaction: null,
      },
    });
    const user = userEvent.setup();
    renderApp('#/customer?id=100001&tab=transactions');
    const table = await screen.findByRole('table', { name: /Transactions of store/ });
    await user.click(within(rowOf(table, '701')).getByRole('button', { name: 'Retry transaction 701' }));
    const dialog = await screen.findByRole('dialog', { name: 'Retry transaction 701?' });
    expect(dialog.textContent).toContain('A new charge of $79.00 is sent to Visa ending 4242');
    expect(attempts).toBe(0);

    await user.click(within(dialog).getByRole('button', { name: 'Retry charge' }));
    await waitFor(() => expect(attempts).toBe(1));
    // The answer was lost: the question stays, and confirming again repeats the same request.
    expect(await screen.findByText(/Could not reach the server/)).toBeTruthy();
    await user.click(
      within(screen.getByRole('dialog', { name: 'Retry transaction 701?' })).getByRole('button', {
        name: 'Retry charge',
      }),
    );
    await waitFor(() => expect(attempts).toBe(2));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Retry transaction 701?' })).toBeNull());
    expect(await screen.findByText('The new charge 706 is success.')).toBeTruthy();

    const posts = fetchMock.mock.calls.filter(
      ([url, init]) => String(url).endsWith('/transactions/701') && init?.method === 'POST',
    );
    const [first, second] = posts.map(([, init]) => idempotencyKeyOf(init));
    expect(first).toMatch(/^[0-9a-f-]{36}$/);
    expect(second).toBe(first);
    expect(JSON.parse(String(posts[0]![1]!.body))).toEqual({ action: 'retry', version: 1 });

    // Another action is another key.
    await user.click(within(rowOf(table, '702')).getByRole('button', { name: 'Void transaction 702' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Void transaction 702?' })).getByRole('button', {
        name: 'Void transaction',
      }),
    );
    await waitFor(() =>
      expect(fetchMock.mock.calls.some(([url]) => String(url).endsWith('/transactions/702'))).toBe(true),
    );
    const voidCall = fetchMock.mock.calls.find(
      ([url, init]) => String(url).endsWith('/transactions/702') && init?.method === 'POST',
    )!;
    expect(idempotencyKeyOf(voidCall[1])).not.toBe(first);
    expect(JSON.parse(String(voidCall[1]!.body))).toEqual({ action: 'void', version: 1 });
  });

  it('a view-only user sees the transactions but no actions', async () => {
    server('AR Team', { [`GET ${BASE}/transactions`]: list });
    renderApp('#/customer?id=100001&tab=transactions');
    const table = await screen.findByRole('table', { name: /Transactions of store/ });
    expect(within(table).getByText('Failed')).toBeTruthy();
    expect(within(table).queryByRole('button')).toBeNull();
    expect(within(table).queryByRole('columnheader', { name: 'Actions' })).toBeNull();
  });
});

describe('Terminals tab', () => {
  const reasons = {
    type: 'retire_reason',
    items: [
      { id: 1, code: 'damaged', label: 'Damaged' },
      { id: 2, code: 'closed', label: 'Store closed' },
    ],
  };

  it('Retire needs a reason, sends it with the version, and the row then shows the terminal retired', async () => {
    let retired = false;
    const deletes: FakeRequest[] = [];
    server('Customer Support', {
      [`GET ${BASE}/customerterminals`]: () => ({
        items: [
          retired
            ? makeTerminal({
                status: 'retired',
                status_label: 'Retired',
                retired_at: '2026-03-04T10:00:00.000Z',
                retire_reason: { id: 2, code: 'closed', label: 'Store closed' },
                version: 3,
              })
            : makeTerminal(),
        ],
        total: 1,
      }),
      'GET /api/domaindata/tok': reasons,
      'DELETE /api/customers/tok/customerterminals/17': (r: FakeRequest) => {
        deletes.push(r);
        retired = true;
        return makeTerminal({ status: 'retired', status_label: 'Retired', version: 3 });
      },
    });
    const user = userEvent.setup();
    renderApp('#/customer?id=100001');
    const table = await screen.findByRole('table', { name: 'Terminals of store 500002' });
    const row = rowOf(table, '3000120');
    expect(within(row).getByText('Active')).toBeTruthy();
    await user.click(within(row).getByRole('button', { name: 'Retire terminal 3000120' }));
    const dialog = await screen.findByRole('dialog', { name: 'Retire terminal 3000120?' });
    await user.click(within(dialog).getByRole('button', { name: 'Retire terminal' }));
    expect(await within(dialog).findByText('Choose why the terminal is retired.')).toBeTruthy();
    expect(deletes).toHaveLength(0);

    await user.selectOptions(within(dialog).getByRole('combobox', { name: /Reason/ }), 'Store closed');
    await user.click(within(dialog).getByRole('button', { name: 'Retire terminal' }));
    await waitFor(() => expect(deletes).toHaveLength(1));
    expect(deletes[0]!.body).toEqual({ reason_id: 2, version: 2 });
    await waitFor(() =>
      expect(
        within(rowOf(screen.getByRole('table', { name: 'Terminals of store 500002' }), '3000120')).getByText('Retired'),
      ).toBeTruthy(),
    );
    const after = rowOf(screen.getByRole('table', { name: 'Terminals of store 500002' }), '3000120');
    expect(within(after).getByText('Store closed')).toBeTruthy();
    expect(within(after).queryByRole('button', { name: /Retire/ })).toBeNull();
  });

  it('Mark under transfer sends the terminal id with the flag; processor serial is checked first', async () => {
    const puts: FakeRequest[] = [];
    server('Customer Support', {
      [`GET ${BASE}/customerterminals`]: { items: [makeTerminal()], total: 1 },
      [`PUT ${BASE}/customerterminals/17`]: (r: FakeRequest) => {
        puts.push(r);
        return makeTerminal({ version: 3 });
      },
    });
    const user = userEvent.setup();
    renderApp('#/customer?id=100001');
    const table = await screen.findByRole('table', { name: 'Terminals of store 500002' });
    await user.click(within(table).getByRole('button', { name: 'Mark terminal 3000120 under transfer' }));
    await waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]!.body).toEqual({ elmer_id: '3000120', under_transfer: true, version: 2 });

    await user.click(within(table).getByRole('button', { name: 'Update processor serial of terminal 3000120' }));
    const dialog = await screen.findByRole('dialog', { name: 'Processor serial of terminal 3000120' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Processor serial number' }), 'a!');
    await user.click(within(dialog).getByRole('button', { name: 'Save processor serial' }));
    expect(await within(dialog).findByText('A serial number has 3–40 letters, digits or dashes.')).toBeTruthy();
    expect(puts).toHaveLength(1);
    const input = within(dialog).getByRole('textbox', { name: 'Processor serial number' });
    await user.clear(input);
    await user.type(input, 'pp-1234');
    await user.click(within(dialog).getByRole('button', { name: 'Save processor serial' }));
    await waitFor(() => expect(puts).toHaveLength(2));
    expect(puts[1]!.body).toEqual({ pos_cc_processor_serial_number: 'PP-1234', version: 2 });
  });

  it('a view-only user sees no edit buttons, but may validate a terminal', async () => {
    server('AR Team', {
      [`GET ${BASE}/customerterminals`]: { items: [makeTerminal()], total: 1 },
      'GET /api/customers/tok/terminals/validate/3000120/SN-999': {
        elmer_id: '3000120',
        serial_number: 'SN-999',
        valid: false,
        serial_matches: false,
        serial_in_use_by: '3000127',
        reasons: ['The serial number belongs to another terminal.'],
        terminal: { id: 17, customer_id: 100001, store_id: 500002, status: 'active' },
      },
    });
    const user = userEvent.setup();
    renderApp('#/customer?id=100001');
    const table = await screen.findByRole('table', { name: 'Terminals of store 500002' });
    expect(within(table).queryByRole('button')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Validate terminal' }));
    const dialog = await screen.findByRole('dialog', { name: 'Validate a terminal' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Terminal id' }), '3000120');
    await user.type(within(dialog).getByRole('textbox', { name: 'Serial number' }), 'sn-999');
    await user.click(within(dialog).getByRole('button', { name: 'Validate' }));
    const answer = await within(dialog).findByRole('status');
    expect(answer.textContent).toContain('Not valid');
    expect(answer.textContent).toContain('The serial number belongs to terminal 3000127.');
  });
});

describe('Plans tab', () => {
  it('updates a license expiry and shows the new date', async () => {
    let plan = makePlan();
    const posts: FakeRequest[] = [];
    server('Customer Support', {
      [`GET ${BASE}/customerpaymentplans`]: () => ({
        items: [
          plan,
          makePlan({
            id: 31,
            kind: 'hardware_sale',
            kind_label: 'Hardware sale plan',
            plan_name: 'Terminal upfront',
            license_expires_on: null,
          }),
        ],
        total: 2,
      }),
      [`POST ${BASE}/customerpaymentplans/30`]: (r: FakeRequest) => {
        posts.push(r);
        plan = makePlan({ license_expires_on: '2026-09-30', version: 5 });
        return plan;
      },
    });
    const user = userEvent.setup();
    renderApp('#/customer?id=100001&tab=plans');
    const table = await screen.findByRole('table', { name: 'Payment plans of store 500002' });
    expect(within(rowOf(table, 'Monthly service')).getByText('Mar 31, 2026')).toBeTruthy();
    // Only monthly and yearly plans carry a license.
    expect(within(rowOf(table, 'Terminal upfront')).queryByRole('button', { name: /license/ })).toBeNull();

    await user.click(
      within(rowOf(table, 'Monthly service')).getByRole('button', {
        name: 'Update license expiry of plan Monthly service (30)',
      }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'License expiry of Monthly service' });
    const date = within(dialog).getByLabelText(/License expires on/);
    await user.clear(date);
    await user.type(date, '2026-09-30');
    await user.click(within(dialog).getByRole('button', { name: 'Save license expiry' }));
    await waitFor(() => expect(posts).toHaveLength(1));
    expect(posts[0]!.body).toEqual({ license_expires_on: '2026-09-30', version: 4 });
    await waitFor(() =>
      expect(
        within(
          rowOf(screen.getByRole('table', { name: 'Payment plans of store 500002' }), 'Monthly service'),
        ).getByText('Sep 30, 2026'),
      ).toBeTruthy(),
    );
  });
});

describe('Plans tab: Collect', () => {
  it('opens the collection page of an active plan for users with collect_payment, and only for them', async () => {
    const plans = { [`GET ${BASE}/customerpaymentplans`]: { items: [makePlan()], total: 1 } };
    server('AR Team', plans);
    renderApp('#/customer?id=100001&tab=plans');
    const table = await screen.findByRole('table', { name: 'Payment plans of store 500002' });
    const link = await within(rowOf(table, 'Monthly service')).findByRole('link', {
      name: 'Collect past-due invoices of plan Monthly service (30)',
    });
    expect(link.getAttribute('href')).toBe('#/customer/payment/30/collection');
  });
});

describe('Plans tab: Add plan', () => {
  it('sends the plan in cents with an Idempotency-Key; a refusal without fields is said in the dialog', async () => {
    const posts: FakeRequest[] = [];
    const { fetchMock } = server('Customer Support', {
      [`GET ${BASE}/customerpaymentplans`]: { items: [makePlan()], total: 1 },
      [`POST ${BASE}/customerpaymentplans`]: (r: FakeRequest) => {
        posts.push(r);
        return jsonResponse(409, {
          error: {
            code: 'conflict',
            message:
              'Store 500002 already has an active monthly plan (30). Change that plan instead of adding another.',
          },
        });
      },
    });
    const user = userEvent.setup();
    renderApp('#/customer?id=100001&tab=plans');
    await screen.findByRole('table', { name: 'Payment plans of store 500002' });
    await user.click(screen.getByRole('button', { name: 'Add plan' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add a payment plan' });
    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Kind' }), 'Yearly plan');
    expect((within(dialog).getByRole('textbox', { name: 'Term (months)' }) as HTMLInputElement).value).toBe('12');
    await user.type(within(dialog).getByRole('textbox', { name: 'Recurring amount' }), '7.999');
    await user.click(within(dialog).getByRole('button', { name: 'Add plan' }));
    expect(await within(dialog).findByText(/with at most 2 decimals/)).toBeTruthy();
    expect(posts).toHaveLength(0);

    const recurring = within(dialog).getByRole('textbox', { name: 'Recurring amount' });
    await user.clear(recurring);
    await user.type(recurring, '799');
    await user.click(within(dialog).getByRole('button', { name: 'Add plan' }));
    await waitFor(() => expect(posts).toHaveLength(1));
    expect(posts[0]!.body).toMatchObject({
      kind: 'yearly',
      store_id: 500002,
      initial_amount_cents: 0,
      recurring_amount_cents: 79900,
      term: 12,
      interval: 12,
    });
    const call = fetchMock.mock.calls.find(
      ([url, init]) => String(url).endsWith('/customerpaymentplans') && init?.method === 'POST',
    )!;
    expect(idempotencyKeyOf(call[1])).toMatch(/^[0-9a-f-]{36}$/);
    expect(await within(dialog).findByText(/already has an active monthly plan/)).toBeTruthy();
  });
});

describe('Invoices tab', () => {
  it('shows status and type words; Reverse needs a reason and sends an Idempotency-Key', async () => {
    const posts: FakeRequest[] = [];
    const { fetchMock } = server('Customer Support', {
      [`GET ${BASE}/customerinvoices`]: {
        items: [
          makeInvoice(),
          makeInvoice({
            id: 41,
            invoice_number: 'INV-000041',
            status: 'R',
            status_label: 'Reversed',
            type: 'S',
            type_label: 'Sale',
            can_reverse: false,
          }),
        ],
        total: 2,
        total_capped: false,
      },
      [`GET ${BASE}/creditinvoices`]: { items: [CREDIT_41] },
      [`POST ${BASE}/customerinvoices/40/reverse`]: (r: FakeRequest) => {
        posts.push(r);
        return {
          invoice: makeInvoice({ status: 'R', can_reverse: false }),
          credit_memo: null,
          credit_invoice: { ...CREDIT_41, id: 8, reverses_invoice_id: 40, reverses_invoice_number: 'INV-000040' },
          voided_transaction_ids: [],
        };
      },
    });
    const user = userEvent.setup();
    renderApp('#/customer?id=100001&tab=invoices');
    const table = await screen.findByRole('table', { name: 'Invoices of store 500002, newest first' });
    const pending = rowOf(table, 'INV-000040');
    expect(within(pending).getByText('Monthly recurring charge')).toBeTruthy();
    expect(within(pending).getByText('Pending')).toBeTruthy();
    const reversed = rowOf(table, 'INV-000041');
    expect(within(reversed).getByText('Sale')).toBeTruthy();
    expect(within(reversed).getByText('Reversed')).toBeTruthy();
    expect(within(reversed).queryByRole('button', { name: /Reverse/ })).toBeNull();
    // The reversed invoice's credit invoice is listed under the invoices (decision 152).
    const credits = await screen.findByRole('table', { name: 'Credit invoices of store 500002, newest first' });
    expect(within(rowOf(credits, 'INV-2026-0000007')).getByText('Invoice INV-000041')).toBeTruthy();

    await user.click(within(pending).getByRole('button', { name: 'Reverse invoice INV-000040' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reverse invoice INV-000040?' });
    await user.click(within(dialog).getByRole('button', { name: 'Reverse invoice' }));
    expect(await within(dialog).findByText('Say why the invoice is reversed (at least 3 characters).')).toBeTruthy();
    expect(posts).toHaveLength(0);
    await user.type(within(dialog).getByRole('textbox', { name: /Reason/ }), 'Billed twice');
    await user.click(within(dialog).getByRole('button', { name: 'Reverse invoice' }));
    await waitFor(() => expect(posts).toHaveLength(1));
    expect(posts[0]!.body).toEqual({ reason: 'Billed twice', version: 3 });
    const call = fetchMock.mock.calls.find(
      ([url, init]) => String(url).endsWith('/customerinvoices/40/reverse') && init?.method === 'POST',
    )!;
    expect(idempotencyKeyOf(call[1])).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('AR asks for a write-off from the tab (Write off…, the shared dialog); a reversed invoice offers none', async () => {
    // Earlier tests' toasts stay in the one store of the file; this test reads its own.
    notifications.clean();
    notifications.cleanQueue();
    const posts: FakeRequest[] = [];
    server('AR Team', {
      [`GET ${BASE}/customerinvoices`]: {
        items: [
          makeInvoice(),
          makeInvoice({
            id: 41,
            invoice_number: 'INV-000041',
            status: 'R',
            status_label: 'Reversed',
            can_reverse: false,
          }),
        ],
        total: 2,
        total_capped: false,
      },
      'POST /api/writeoffs/tok': (r: FakeRequest) => {
        posts.push(r);
        return {
          id: 9,
          customer_id: 100001,
          customer_name: 'Corner Deli LLC',
          invoice_id: 40,
          invoice_number: 'INV-000040',
          type: 164,
          type_label: 'Write_Off Unrecoverable',
          status: 'P',
          status_label: 'Pending',
          amount_cents: 7900,
          currency: 'USD',
          reason: 'Merchant closed',
          note: 'Owner gone',
          created_by_email: 'support@example.com',
          created_at: '2026-11-22T12:00:00.000Z',
          approved_by_email: null,
          decided_at: null,
          decision_reason: null,
          needs_second_approver: false,
          version: 1,
        };
      },
    });
    const user = userEvent.setup();
    renderApp('#/customer?id=100001&tab=invoices');
    const table = await screen.findByRole('table', { name: 'Invoices of store 500002, newest first' });
    const pending = rowOf(table, 'INV-000040');
    // AR Team may not reverse (customer_details_edit) but may ask for memos and write-offs.
    expect(within(pending).queryByRole('button', { name: /^Reverse/ })).toBeNull();
    expect(await within(pending).findByRole('button', { name: 'New memo for invoice INV-000040' })).toBeTruthy();
    expect(within(rowOf(table, 'INV-000041')).queryByRole('button', { name: /Write off|New memo/ })).toBeNull();
    await user.click(within(pending).getByRole('button', { name: 'Write off invoice INV-000040' }));
    const dialog = await screen.findByRole('dialog', { name: 'Write off invoice INV-000040' });
    expect(within(dialog).getByText(/Writes off the open balance, \$79\.00/)).toBeTruthy();
    await user.selectOptions(within(dialog).getByLabelText('Write-off type'), '164');
    await user.type(within(dialog).getByRole('textbox', { name: /Reason/ }), 'Merchant closed');
    await user.type(within(dialog).getByRole('textbox', { name: /Note/ }), 'Owner gone');
    await user.click(within(dialog).getByRole('button', { name: 'Send write-off for approval' }));
    await waitFor(() => expect(posts).toHaveLength(1));
    expect(posts[0]!.body).toEqual({ invoice_id: 40, type: 164, reason: 'Merchant closed', note: 'Owner gone' });
    expect(await screen.findByText('Write-off of $79.00 on invoice INV-000040 waits for approval.')).toBeTruthy();
  }, 20_000);
});
