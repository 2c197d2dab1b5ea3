import type { InvoicePage, InvoiceSearchItem } from '@pos/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { errorResponse, fakeApi, type FakeRequest } from '../../../test/fake-api';
import { renderApp } from '../../../test/render-app';
import { signInAs } from '../../../test/factories';

const LIST = '/api/invoices/tok';
const ONE = (id: number) => `/api/invoices/${id}/tok`;

function makeItem(overrides: Partial<InvoiceSearchItem> = {}): InvoiceSearchItem {
  return {
    id: 9001,
    invoice_number: 'INV-2026-009001',
    customer_id: 100005,
    store_id: 500010,
    plan_id: null,
    status: 'N',
    status_label: 'Pending',
    type: 'M',
    type_label: 'Monthly recurring charge',
    period_start: '2026-09-01',
    period_end: '2026-09-30',
    issued_on: '2026-09-01',
    due_on: '2026-09-15',
    total_cents: 105_00,
    tax_cents: 5_00,
    paid_cents: 30_00,
    balance_cents: 75_00,
    currency: 'CAD',
    reversed_at: null,
    can_reverse: true,
    version: 2,
    legal_name: 'Maple Leaf Hardware Ltd',
    doing_business_as: 'Maple Coffee Bar',
    overdue: true,
    ...overrides,
  };
}

function makePage(overrides: Partial<InvoicePage> = {}): InvoicePage {
  return {
    ...makeItem(),
    lines: [
      {
        id: 1,
        billing_item_id: 8,
        billing_item_name: 'Monthly service fee',
        description: 'September 2026',
        quantity: 1,
        unit_cents: 100_00,
        amount_cents: 100_00,
      },
      // A stored line of the tax item: the invoice's tax, printed once from tax_lines (decision 149).
      {
        id: 2,
        billing_item_id: 6,
        billing_item_name: 'Sales tax',
        description: 'Sales tax',
        quantity: 1,
        unit_cents: 5_00,
        amount_cents: 5_00,
      },
    ],
    tax_lines: [{ component: 'GST', label: 'GST 5%', rate_basis_points: 500, amount_cents: 5_00 }],
    tax_registrations: [{ label: 'GST/HST registration no.', number: '123456789RT0001' }],
    transactions: [],
    credit_memos: [],
    credit_invoice: null,
    journal: [
      {
        entry_id: 1,
        kind: 'invoice_issued',
        kind_label: 'Invoice issued',
        effective_on: '2026-11-01',
        lines: [
          { account: '1100', account_name: 'Accounts receivable', debit_cents: 105_00, credit_cents: 0 },
          { account: '2200', account_name: 'Sales tax payable', debit_cents: 0, credit_cents: 5_00 },
          { account: '4100', account_name: 'Revenue: service', debit_cents: 0, credit_cents: 100_00 },
        ],
      },
    ],
    write_offs: [
      {
        id: 3,
        type: 142,
        amount_cents: 0,
        currency: 'CAD',
        reason: 'Goodwill',
        created_by_email: 'ar@example.com',
        created_at: '2026-10-01T12:00:00.000Z',
      },
    ],
    receipts: [
      {
        receipt_id: 41,
        method: 'check',
        reference: 'CHK-100',
        received_on: '2026-09-20',
        amount_cents: 30_00,
        allocated_by_email: 'ar@example.com',
        allocated_at: '2026-09-21T12:00:00.000Z',
      },
    ],
    ledger: {
      open_cents: 75_00,
      paid_cents: 30_00,
      credited_cents: 0,
      written_off_cents: 0,
      reversed_cents: 0,
      debited_cents: 0,
      overpaid_cents: 0,
    },
    merchant_email: 'billing@mapleleaf.example.com',
    billing_run: { run_id: 12, as_of: '2026-09-01', requested_by: 'schedule' },
    history: [],
    ...overrides,
  };
}

/** A download (object URL, an anchor's click) without leaving the page; answers the click spy. */
function stubDownloads() {
  vi.spyOn(URL, 'createObjectURL').mockImplementation(() => 'blob:download');
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
  return vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
}

const lastList = (calls: FakeRequest[]) => Object.fromEntries(calls.filter((c) => c.path === LIST).at(-1)!.query);

function routes(role = 'AR Team', extra: Record<string, unknown> = {}) {
  return {
    ...signInAs(role),
    [`GET ${LIST}`]: {
      items: [
        makeItem(),
        makeItem({
          id: 9002,
          invoice_number: 'INV-2026-009002',
          overdue: false,
          currency: 'USD',
          balance_cents: 0,
          status: 'P',
          status_label: 'Paid',
          legal_name: 'Bluebird Diner LLC',
          doing_business_as: 'Bluebird Diner',
        }),
      ],
      total: 1000,
      total_capped: true,
    },
    [`GET ${ONE(9001)}`]: makePage(),
    ...extra,
  };
}

describe('invoices (#/view-invoices)', () => {
  it('lists invoices newest first with the ledger balance in C$ and "1,000+" when the count is capped', async () => {
    const { calls } = fakeApi(routes());
    renderApp('#/view-invoices');
    const table = await screen.findByRole('table', { name: 'Invoices — 1,000+ matches' });
    const row = within(table).getByRole('link', { name: 'Open invoice INV-2026-009001' }).closest('tr')!;
    expect(within(row).getByText('C$75.00')).toBeTruthy();
    expect(within(row).getByText('C$105.00')).toBeTruthy();
    expect(within(row).getByText('Overdue')).toBeTruthy();
    expect(within(row).getByText('Maple Coffee Bar')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Next page' })).toBeTruthy();
    expect(lastList(calls)).toEqual({ limit: '25', offset: '0' });
  });

  it('sends the labelled filters and the sort to the server; refuses a reversed date range on the spot', async () => {
    const { calls } = fakeApi(routes());
    const user = userEvent.setup();
    renderApp('#/view-invoices');
    await screen.findByRole('table', { name: /Invoices — / });
    await user.selectOptions(screen.getByRole('combobox', { name: 'Currency' }), 'CAD (C$)');
    await user.click(screen.getByRole('checkbox', { name: /Overdue only/ }));
    await user.type(screen.getByRole('textbox', { name: /Merchant or DBA/ }), 'maple');
    // Several types at once (§2's multi-select dropdown): a comma list to the server.
    await user.click(screen.getByRole('combobox', { name: 'Types' }));
    const types = screen.getByRole('listbox', { name: 'Types' });
    await user.click(within(types).getByRole('option', { name: /Sale/ }));
    await user.click(within(types).getByRole('option', { name: /Monthly/ }));
    await user.keyboard('{Escape}');
    await user.type(screen.getByLabelText('Issued from'), '2026-10-01');
    await user.type(screen.getByLabelText('Issued to'), '2026-09-01');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    expect(await screen.findByText('The last issue date is before the first.')).toBeTruthy();
    expect(lastList(calls)).toEqual({ limit: '25', offset: '0' });

    await user.clear(screen.getByLabelText('Issued to'));
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    await waitFor(() =>
      expect(lastList(calls)).toEqual({
        currency: 'CAD',
        overdue: 'true',
        q: 'maple',
        type: 'S,M',
        issued_from: '2026-10-01',
        limit: '25',
        offset: '0',
      }),
    );
    await user.click(screen.getByRole('button', { name: /^Due/ }));
    await waitFor(() => expect(lastList(calls).sort).toBe('due_on'));
    await user.click(screen.getByRole('button', { name: /^Due/ }));
    await waitFor(() => expect(lastList(calls).sort).toBe('-due_on'));
  });

  it('exports the filtered set as CSV (all rows, no paging)', async () => {
    const { calls } = fakeApi({
      ...routes(),
      [`GET ${LIST}`]: (r: FakeRequest) =>
        r.query.get('format') === 'csv'
          ? new Response('\uFEFFid\r\n9001\r\n', { headers: { 'Content-Type': 'text/csv' } })
          : { items: [makeItem()], total: 1, total_capped: false },
    });
    const click = stubDownloads();
    renderApp('#/view-invoices');
    await screen.findByRole('table', { name: 'Invoices — 1 match' });
    await userEvent.setup().click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(calls.some((c) => c.query.get('format') === 'csv')).toBe(true));
    const csv = calls.find((c) => c.query.get('format') === 'csv')!;
    expect(csv.query.get('limit')).toBeNull();
    expect(csv.query.get('offset')).toBeNull();
    await waitFor(() => expect(click).toHaveBeenCalledTimes(1));
  });

  it('opens an invoice by link: lines by billing item, receipts, balance; Download PDF and E-mail to merchant', async () => {
    const { calls } = fakeApi({
      ...routes(),
      [`GET /api/invoices/9001/pdf/tok`]: () =>
        new Response(new Uint8Array([37, 80, 68, 70]), { headers: { 'Content-Type': 'application/pdf' } }),
      [`POST /api/invoices/9001/email/tok`]: {
        mail_id: 77,
        to: 'billing@mapleleaf.example.com',
        sent_at: '2026-11-22T12:00:00.000Z',
      },
    });
    const click = stubDownloads();
    const user = userEvent.setup();
    renderApp('#/view-invoices?id=9001');
    const panel = await screen.findByRole('region', { name: 'Invoice INV-2026-009001' });
    expect(await within(panel).findByText('Monthly service fee')).toBeTruthy();
    // The tax once, named for the jurisdiction, with the provider's registration; the lines add up to the total.
    const lines = within(panel).getByRole('table', { name: 'Lines' });
    const cells = within(lines)
      .getAllByRole('row')
      .slice(1)
      .map((r) => [r.querySelector('td, th')?.textContent, r.lastElementChild?.textContent]);
    expect(cells).toEqual([
      ['Monthly service fee', 'C$100.00'],
      ['GST 5%', 'C$5.00'],
      ['Total', 'C$105.00'],
    ]);
    expect(within(panel).queryByText('Sales tax')).toBeNull();
    expect(within(panel).getByText('GST/HST registration no. 123456789RT0001')).toBeTruthy();
    // What the invoice posted: the receivable, the tax payable, the revenue.
    const journal = within(panel).getByRole('table', { name: 'Journal entries of the invoice' });
    expect(within(journal).getByText('2200 Sales tax payable')).toBeTruthy();
    expect(within(journal).getByText('Invoice issued')).toBeTruthy();
    expect(within(panel).getByText('Receipt 41 (CHK-100)')).toBeTruthy();
    expect(within(panel).getByText(/^Created by billing run 12 \(as of /)).toBeTruthy();
    const balance = within(panel).getByLabelText('Balance');
    expect(within(balance).getByText('C$75.00')).toBeTruthy();
    // AR Team may not reverse (customer_details_edit).
    expect(within(panel).queryByRole('button', { name: 'Reverse' })).toBeNull();

    await user.click(within(panel).getByRole('button', { name: 'Download PDF' }));
    await waitFor(() => expect(click).toHaveBeenCalledTimes(1));
    expect(calls.filter((c) => c.path === '/api/invoices/9001/pdf/tok')).toHaveLength(1);
    await user.click(within(panel).getByRole('button', { name: 'E-mail to merchant' }));
    expect(
      await screen.findByText(
        'Invoice INV-2026-009001 was sent to billing@mapleleaf.example.com with its PDF attached.',
      ),
    ).toBeTruthy();
  });

  it('offers Reverse to users who may (customer_details_edit) and sends the reason and version', async () => {
    const { calls } = fakeApi({
      ...routes('Customer Support'),
      'POST /api/customers/100005/tok/customerinvoices/9001/reverse': {
        invoice: { ...makeItem({ status: 'R', status_label: 'Reversed', can_reverse: false }) },
        credit_memo: null,
        credit_invoice: {
          id: 1,
          invoice_number: 'INV-2026-0000002',
          type: 'R',
          type_label: 'Credit (reversal)',
          customer_id: 100005,
          store_id: null,
          reverses_invoice_id: 9001,
          reverses_invoice_number: 'INV-2026-009001',
          order_id: null,
          credit_memo_id: null,
          issued_on: '2026-11-27',
          total_cents: -84_00,
          tax_cents: 0,
          currency: 'USD',
          reason: 'Reversal of invoice INV-2026-009001: Billed twice',
          created_by_email: 'dana@example.com',
          created_at: '2026-11-27T12:00:00.000Z',
          lines: [],
        },
        voided_transaction_ids: [],
      },
    });
    const user = userEvent.setup();
    renderApp('#/view-invoices?id=9001');
    const panel = await screen.findByRole('region', { name: 'Invoice INV-2026-009001' });
    await user.click(await within(panel).findByRole('button', { name: 'Reverse' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reverse invoice INV-2026-009001?' });
    await user.click(within(dialog).getByRole('button', { name: 'Reverse invoice' }));
    expect(await within(dialog).findByText('Say why the invoice is reversed (at least 3 characters).')).toBeTruthy();
    await user.type(within(dialog).getByRole('textbox', { name: /Reason/ }), 'Billed twice');
    await user.click(within(dialog).getByRole('button', { name: 'Reverse invoice' }));
    expect(await screen.findByText('Invoice INV-2026-009001 is reversed.')).toBeTruthy();
    const post = calls.find((c) => c.method === 'POST' && c.path.endsWith('/reverse'))!;
    expect(post.body).toEqual({ reason: 'Billed twice', version: 2 });
  });

  it('asks for a memo from the panel (New memo…): checks the fields, sends cents and the Idempotency-Key', async () => {
    const { calls, fetchMock } = fakeApi({
      ...routes(),
      'POST /api/memos/tok': (r: FakeRequest) => ({
        id: 51,
        customer_id: 100005,
        customer_name: 'Maple Leaf Hardware Ltd',
        store_id: 500010,
        invoice_id: 9001,
        invoice_number: 'INV-2026-009001',
        type: 'A',
        type_label: 'Adjustment',
        status: 'P',
        status_label: 'Pending',
        amount_cents: (r.body as { amount_cents: number }).amount_cents,
        currency: 'CAD',
        reason: 'Late fee',
        note: 'Agreed',
        refund_method: null,
        transaction_id: null,
        return_id: null,
        created_by_email: 'support@example.com',
        created_at: '2026-11-22T12:00:00.000Z',
        approved_by_email: null,
        decided_at: null,
        decision_reason: null,
        needs_second_approver: false,
        version: 1,
      }),
    });
    const user = userEvent.setup();
    renderApp('#/view-invoices?id=9001');
    const panel = await screen.findByRole('region', { name: 'Invoice INV-2026-009001' });
    await user.click(await within(panel).findByRole('button', { name: 'New memo…' }));
    const dialog = await screen.findByRole('dialog', { name: 'New memo for invoice INV-2026-009001' });
    await user.click(within(dialog).getByRole('button', { name: 'Send memo for approval' }));
    expect(within(dialog).getByText('Enter an amount above zero, e.g. 1,500.00.')).toBeTruthy();
    expect(within(dialog).getByText('Add a note for the approver.')).toBeTruthy();
    expect(calls.some((c) => c.path === '/api/memos/tok')).toBe(false);
    await user.selectOptions(within(dialog).getByLabelText('Memo type'), 'A');
    await user.type(within(dialog).getByRole('textbox', { name: /Amount/ }), '12.50');
    await user.click(within(dialog).getByRole('checkbox', { name: 'Raises the balance' }));
    await user.type(within(dialog).getByRole('textbox', { name: /Reason/ }), 'Late fee');
    await user.type(within(dialog).getByRole('textbox', { name: /Note/ }), 'Agreed');
    await user.click(within(dialog).getByRole('button', { name: 'Send memo for approval' }));
    expect(
      await screen.findByText('Adjustment memo of C$12.50 on invoice INV-2026-009001 waits for approval.'),
    ).toBeTruthy();
    const post = calls.find((c) => c.path === '/api/memos/tok')!;
    expect(post.body).toEqual({
      customer_id: 100005,
      invoice_id: 9001,
      type: 'A',
      amount_cents: -1250,
      reason: 'Late fee',
      note: 'Agreed',
    });
    const init = fetchMock.mock.calls.find(([url]) => String(url).includes('/api/memos/'))![1]!;
    expect(new Headers(init.headers).get('Idempotency-Key')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('says an unknown invoice was not found and what to do', async () => {
    fakeApi({ ...routes(), [`GET ${ONE(404)}`]: () => errorResponse(404, 'not_found', 'Invoice 404 was not found.') });
    renderApp('#/view-invoices?id=404');
    expect(
      await screen.findByText('Invoice 404 was not found. Check the number, or open the invoice from the list.'),
    ).toBeTruthy();
  });
});
