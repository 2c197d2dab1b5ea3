import type { ReceiptItem, ReceiptPage } from '@pos/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { errorResponse, fakeApi, type FakeRequest } from '../../../test/fake-api';
import { jsonResponse, signInAs } from '../../../test/factories';
import { renderApp } from '../../../test/render-app';

const LIST = '/api/receipts/tok';
const ONE = (id: number) => `/api/receipts/${id}/tok`;
const APPLY = (id: number) => `/api/receipts/${id}/applications/tok`;

/** A check image's public id (never the uploads table's sequential key). */
const CHECK_IMAGE_ID = 'c2hlY2staW1hZ2UtcHVibGljLWlkLTAx';

function makeReceipt(overrides: Partial<ReceiptItem> = {}): ReceiptItem {
  return {
    id: 41,
    customer_id: 100005,
    legal_name: 'Bluebird Diner LLC',
    country: 'US',
    store_id: 500010,
    doing_business_as: 'Bluebird Diner',
    method: 'check',
    method_label: 'Check',
    reference: '20417',
    received_on: '2026-11-20',
    amount_cents: 150_00,
    applied_cents: 0,
    unapplied_cents: 150_00,
    currency: 'USD',
    note: null,
    upload_id: CHECK_IMAGE_ID,
    fee_invoice_id: null,
    fee_invoice_number: null,
    created_by_email: 'ar@example.com',
    created_at: '2026-11-20T15:00:00.000Z',
    version: 0,
    ...overrides,
  };
}

function makePage(overrides: Partial<ReceiptPage> = {}): ReceiptPage {
  return {
    receipt: makeReceipt(),
    allocations: [],
    open_invoices: [
      {
        invoice_id: 9001,
        invoice_number: 'INV-2026-0000101',
        store_id: 500010,
        doing_business_as: 'Bluebird Diner',
        issued_on: '2026-10-01',
        due_on: '2026-10-15',
        total_cents: 79_00,
        open_cents: 79_00,
        currency: 'USD',
      },
      {
        invoice_id: 9002,
        invoice_number: 'INV-2026-0000102',
        store_id: 500010,
        doing_business_as: 'Bluebird Diner',
        issued_on: '2026-11-01',
        due_on: '2026-11-15',
        total_cents: 90_00,
        open_cents: 90_00,
        currency: 'USD',
      },
    ],
    ...overrides,
  };
}

describe('receipts (#/view-receipts)', () => {
  it('lists receipts with what is left to apply and sends the filters to the server', async () => {
    const { calls } = fakeApi({
      ...signInAs('AR Team'),
      [`GET ${LIST}`]: { items: [makeReceipt({ unapplied_cents: 20_00 })], total: 1, total_capped: false },
    });
    const user = userEvent.setup();
    renderApp('#/view-receipts');
    const table = await screen.findByRole('table', { name: 'Receipts — 1 match' });
    const row = within(table).getByRole('link', { name: 'Apply receipt 41' }).closest('tr')!;
    expect(within(row).getByText('$150.00')).toBeTruthy();
    expect(within(row).getByText('$20.00')).toBeTruthy();
    expect(within(row).getByText('Check image on file')).toBeTruthy();

    await user.selectOptions(screen.getByRole('combobox', { name: 'Method' }), 'Cash');
    await user.click(screen.getByRole('checkbox', { name: /Not fully applied/ }));
    await user.click(screen.getByRole('button', { name: 'Apply filters' }));
    await waitFor(() =>
      expect(Object.fromEntries(calls.filter((c) => c.path === LIST).at(-1)!.query)).toEqual({
        method: 'cash',
        unapplied: 'true',
        limit: '25',
        offset: '0',
      }),
    );
  });

  it('puts the applied filters and the sort in the address; ids are links', async () => {
    const { calls } = fakeApi({
      ...signInAs('AR Team'),
      [`GET ${LIST}`]: { items: [makeReceipt()], total: 1, total_capped: false },
    });
    const user = userEvent.setup();
    renderApp('#/view-receipts');
    const table = await screen.findByRole('table', { name: 'Receipts — 1 match' });
    expect(within(table).getByRole('link', { name: 'Receipt 41' }).getAttribute('href')).toBe('#/view-receipts/41');
    expect(within(table).getByRole('link', { name: 'Customer 100005' }).getAttribute('href')).toBe(
      '#/customer?id=100005',
    );
    const filters = screen.getByRole('search', { name: 'Filter receipts' });
    await user.selectOptions(within(filters).getByRole('combobox', { name: 'Method' }), 'Check');
    await user.type(within(filters).getByRole('textbox', { name: 'Customer id' }), '100005');
    await user.click(within(filters).getByRole('button', { name: 'Apply filters' }));
    await waitFor(() => expect(window.location.hash).toContain('method=check'));
    expect(window.location.hash).toContain('customer_id=100005');
    await waitFor(() =>
      expect(
        calls
          .filter((c) => c.path === LIST)
          .at(-1)!
          .query.get('customer_id'),
      ).toBe('100005'),
    );
    await user.click(within(table).getByRole('button', { name: /^Amount/ }));
    await waitFor(() => expect(window.location.hash).toContain('sort=amount_cents'));
  });

  it('opened at an address with filters: shows them in the fields and sends them', async () => {
    const { calls } = fakeApi({
      ...signInAs('AR Team'),
      [`GET ${LIST}`]: { items: [], total: 0, total_capped: false },
    });
    renderApp('#/view-receipts?method=cash&unapplied=1&received_from=2026-11-01&sort=-amount_cents&page=2');
    await screen.findByRole('table', { name: /Receipts — / });
    const filters = screen.getByRole('search', { name: 'Filter receipts' });
    expect((within(filters).getByRole('combobox', { name: 'Method' }) as HTMLSelectElement).value).toBe('cash');
    expect((within(filters).getByRole('checkbox', { name: /Not fully applied/ }) as HTMLInputElement).checked).toBe(
      true,
    );
    expect((within(filters).getByLabelText('Received from') as HTMLInputElement).value).toBe('2026-11-01');
    expect(Object.fromEntries(calls.filter((c) => c.path === LIST).at(-1)!.query)).toEqual({
      method: 'cash',
      unapplied: 'true',
      received_from: '2026-11-01',
      sort: '-amount_cents',
      limit: '25',
      offset: '25',
    });
  });

  it('records a cash receipt for a merchant found by name, with the cash/check fee, under an Idempotency-Key', async () => {
    const recorded: FakeRequest[] = [];
    const { fetchMock } = fakeApi({
      ...signInAs('AR Team'),
      [`GET ${LIST}`]: { items: [], total: 0, total_capped: false },
      'GET /api/customers/tok/all': {
        items: [
          {
            customer_id: 100005,
            legal_name: 'Bluebird Diner LLC',
            doing_business_as: 'Bluebird Diner',
            store_id: 500010,
            store_name: 'Bluebird Diner',
            bracct: null,
            sales_rep: null,
            federal_tax_id: null,
            email: 'owner@bluebird.example.com',
            phone: null,
            country: 'US',
            currency: 'USD',
            city: null,
            state: null,
            zip: null,
            customer_status: 'active',
            store_status: 'active',
            account_manager: null,
          },
        ],
        total: 1,
        total_capped: false,
      },
      [`POST ${LIST}`]: (r: FakeRequest) => {
        recorded.push(r);
        return jsonResponse(201, {
          info: makePage({
            receipt: makeReceipt({
              method: 'cash',
              amount_cents: 60_00,
              fee_invoice_id: 77,
              fee_invoice_number: 'INV-2026-0000777',
            }),
          }),
        });
      },
    });
    const user = userEvent.setup();
    renderApp('#/view-receipts');
    await screen.findByRole('table', { name: /Receipts — / });
    await user.click(screen.getByRole('button', { name: 'Record receipt' }));
    const dialog = await screen.findByRole('dialog', { name: 'Record receipt' });
    await user.type(within(dialog).getByRole('textbox', { name: /Merchant/ }), 'blue');
    await user.click(await within(dialog).findByRole('radio', { name: /Bluebird Diner LLC \(customer 100005/ }));
    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Method' }), 'Cash');
    await user.type(within(dialog).getByRole('textbox', { name: /Amount/ }), '60.00');
    await user.click(within(dialog).getByRole('checkbox', { name: /Charge the cash\/check fee/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Record receipt' }));
    await waitFor(() => expect(recorded).toHaveLength(1));
    expect(recorded[0]!.body).toMatchObject({
      customer_id: 100005,
      store_id: 500010,
      method: 'cash',
      amount_cents: 60_00,
      currency: 'USD',
      charge_fee: true,
      upload_id: null,
    });
    const init = fetchMock.mock.calls.find(([, i]) => i?.method === 'POST')![1]!;
    expect(new Headers(init.headers).get('Idempotency-Key')).toMatch(/^[0-9a-f-]{36}$/);
    expect(await screen.findByText(/fee invoice INV-2026-0000777 raised/)).toBeTruthy();
  });

  it('the dialog says what is missing before anything is sent', async () => {
    const { calls } = fakeApi({
      ...signInAs('AR Team'),
      [`GET ${LIST}`]: { items: [], total: 0, total_capped: false },
    });
    const user = userEvent.setup();
    renderApp('#/view-receipts');
    await screen.findByRole('table', { name: /Receipts — / });
    await user.click(screen.getByRole('button', { name: 'Record receipt' }));
    const dialog = await screen.findByRole('dialog', { name: 'Record receipt' });
    await user.click(within(dialog).getByRole('button', { name: 'Record receipt' }));
    expect(await within(dialog).findByText('Search for the merchant and choose one.')).toBeTruthy();
    expect(within(dialog).getByText('Enter the amount received, e.g. 150.00.')).toBeTruthy();
    expect(within(dialog).getByText('Enter the check number.')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });
});

describe('apply a receipt (#/view-receipts/{id})', () => {
  it('keeps a running "Left to apply", refuses more than an invoice owes, and applies across two invoices', async () => {
    const applied: FakeRequest[] = [];
    const after = makePage({
      receipt: makeReceipt({ unapplied_cents: 26_00, applied_cents: 124_00, version: 1 }),
      allocations: [
        {
          id: 1,
          invoice_id: 9001,
          invoice_number: 'INV-2026-0000101',
          amount_cents: 79_00,
          allocated_by_email: 'ar@example.com',
          allocated_at: '2026-11-22T12:00:00.000Z',
        },
        {
          id: 2,
          invoice_id: 9002,
          invoice_number: 'INV-2026-0000102',
          amount_cents: 45_00,
          allocated_by_email: 'ar@example.com',
          allocated_at: '2026-11-22T12:00:00.000Z',
        },
      ],
      open_invoices: [{ ...makePage().open_invoices[1]!, open_cents: 45_00 }],
    });
    fakeApi({
      ...signInAs('AR Team'),
      // The server's receipt: as it was, then as the application left it (the refresh after the change reads it).
      [`GET ${ONE(41)}`]: () => (applied.length === 0 ? makePage() : after),
      [`POST ${APPLY(41)}`]: (r: FakeRequest) => {
        applied.push(r);
        return after;
      },
    });
    const user = userEvent.setup();
    renderApp('#/view-receipts/41');
    await screen.findByRole('heading', { name: 'Apply receipt 41' });
    expect(screen.getByRole('link', { name: 'Download the check image' }).getAttribute('href')).toBe(
      `/api/uploads/${CHECK_IMAGE_ID}/tok`,
    );
    const first = screen.getByRole('textbox', { name: 'Amount to apply to INV-2026-0000101' });
    const second = screen.getByRole('textbox', { name: 'Amount to apply to INV-2026-0000102' });
    await user.type(first, '80.00');
    expect(screen.getByText('Left to apply: $70.00')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    expect(await screen.findByText('At most $79.00 is open.')).toBeTruthy();
    expect(applied).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Apply the most possible to INV-2026-0000101' }));
    await user.type(second, '45');
    expect(screen.getByText('Left to apply: $26.00')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(applied).toHaveLength(1));
    expect(applied[0]!.body).toEqual({
      version: 0,
      applications: [
        { invoice_id: 9001, amount_cents: 79_00 },
        { invoice_id: 9002, amount_cents: 45_00 },
      ],
    });
    expect(await screen.findByText('$124.00 applied to 2 invoices; $26.00 left on the receipt.')).toBeTruthy();
    const open = screen.getByRole('table', { name: 'Open invoices of Bluebird Diner LLC in USD' });
    expect(within(open).queryByText('INV-2026-0000101')).toBeNull();
    expect(screen.getByLabelText('Unapplied').textContent).toBe('$26.00');
    expect(screen.getByRole('button', { name: 'Un-apply $79.00 from INV-2026-0000101' })).toBeTruthy();
  });

  it('a stale version: says the receipt changed and reads it again', async () => {
    let reads = 0;
    fakeApi({
      ...signInAs('AR Team'),
      [`GET ${ONE(41)}`]: () => {
        reads++;
        return makePage();
      },
      [`POST ${APPLY(41)}`]: errorResponse(409, 'version_conflict', 'Receipt 41 was changed by someone else.'),
    });
    const user = userEvent.setup();
    renderApp('#/view-receipts/41');
    await screen.findByRole('heading', { name: 'Apply receipt 41' });
    await user.type(screen.getByRole('textbox', { name: 'Amount to apply to INV-2026-0000101' }), '10.00');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    expect(await screen.findByText(/it has been reloaded\. Check the amounts and apply again\./)).toBeTruthy();
    await waitFor(() => expect(reads).toBe(2));
  });
});
