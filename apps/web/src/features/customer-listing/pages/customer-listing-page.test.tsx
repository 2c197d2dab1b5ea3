import type { CustomerListingItem } from '@pos/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { fakeApi, type FakeRequest } from '../../../test/fake-api';
import { signInAs } from '../../../test/factories';
import { renderApp } from '../../../test/render-app';

const LIST = '/api/reports/customer-listing/tok';
const OPTIONS = '/api/reports/customer-listing/options/tok';

function makeItem(overrides: Partial<CustomerListingItem> = {}): CustomerListingItem {
  return {
    customer_id: 100005,
    legal_name: 'Maple Grocers Inc.',
    customer_status: 'active',
    store_id: 500010,
    store_name: 'Maple Toronto',
    doing_business_as: 'Maple Toronto',
    store_status: 'active',
    country: 'CA',
    state: 'ON',
    sales_rep: 'Alice Moreau',
    agents: 'Acme Distribution',
    plan_name: 'Monthly service',
    plan_kind: 'monthly',
    open_balance_cents: 1234_56,
    currency: 'CAD',
    license_state: 'grace',
    license_expires_on: '2026-11-01',
    ...overrides,
  };
}

const lastList = (calls: FakeRequest[]) =>
  Object.fromEntries(calls.filter((c) => c.path === LIST && c.query.get('format') !== 'csv').at(-1)!.query);

/** A CSV body that arrives in three chunks (so the page sees progress), with its row count in x-total-count. */
function csvResponse(rows: string[], release?: Promise<void>) {
  const encoder = new TextEncoder();
  const chunks = ['\uFEFFcustomer_id,legal_name\r\n', ...rows.map((r) => `${r}\r\n`)];
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = chunks.shift();
      if (next === undefined) return controller.close();
      if (chunks.length === 0 && release) await release;
      controller.enqueue(encoder.encode(next));
    },
  });
  return new Response(body, {
    status: 200,
    headers: { 'content-type': 'text/csv; charset=utf-8', 'x-total-count': String(rows.length) },
  });
}

function stubDownloads() {
  const blobs: Blob[] = [];
  vi.spyOn(URL, 'createObjectURL').mockImplementation((b) => {
    blobs.push(b as Blob);
    return 'blob:download';
  });
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
  const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
  return { blobs, click };
}

describe('customer listing (#/customer-listing)', () => {
  it('lists stores with their customer, balance in the currency and license; filters and sort go to the URL and server', async () => {
    const { calls } = fakeApi({
      ...signInAs('Marketing'),
      [`GET ${OPTIONS}`]: { agents: [{ agent_id: 7, name: 'Acme Distribution' }], sales_reps: ['Alice Moreau'] },
      [`GET ${LIST}`]: {
        items: [makeItem(), makeItem({ store_id: 500011, currency: 'USD', country: 'US', state: 'TX' })],
        total: 2,
        total_capped: false,
      },
    });
    const user = userEvent.setup();
    renderApp('#/customer-listing');
    expect(await screen.findByRole('heading', { level: 1, name: 'Customer listing' })).toBeTruthy();
    const table = await screen.findByRole('table', { name: 'Stores — 2 matches' });
    const [first, second] = within(table).getAllByRole('link', { name: 'Maple Grocers Inc.' });
    expect(first!.getAttribute('href')).toBe('#/customer?id=100005&store=500010');
    const row = first!.closest('tr')!;
    expect(within(row).getByText('C$1,234.56')).toBeTruthy();
    expect(within(row).getByText('In grace period')).toBeTruthy();
    expect(within(second!.closest('tr')!).getByText('$1,234.56')).toBeTruthy();

    // The state list follows the country; several states and agents may be chosen (§2's dropdown).
    await user.selectOptions(screen.getByRole('combobox', { name: 'Country' }), 'Canada');
    await user.click(screen.getByRole('combobox', { name: 'State / province' }));
    const states = screen.getByRole('listbox', { name: 'State / province' });
    expect(within(states).queryByRole('option', { name: /Texas/ })).toBeNull();
    await user.click(within(states).getByRole('option', { name: 'Ontario (ON)' }));
    await user.click(within(states).getByRole('option', { name: 'Quebec (QC)' }));
    await user.keyboard('{Escape}');
    await user.click(screen.getByRole('combobox', { name: 'Agent' }));
    await user.click(
      within(await screen.findByRole('listbox', { name: 'Agent' })).getByRole('option', { name: 'Acme Distribution' }),
    );
    await user.keyboard('{Escape}');
    await user.selectOptions(screen.getByRole('combobox', { name: 'License state' }), 'In grace period');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Balance' }), 'With an open balance');
    await user.type(screen.getByRole('textbox', { name: 'Open balance at least' }), '100');
    await user.click(screen.getByRole('button', { name: 'Apply filters' }));
    await waitFor(() =>
      expect(lastList(calls)).toEqual({
        country: 'CA',
        state: 'ON,QC',
        agent_id: '7',
        license: 'grace',
        balance: 'with',
        balance_min: '10000',
        limit: '25',
        offset: '0',
      }),
    );
    expect(window.location.hash).toBe(
      '#/customer-listing?country=CA&state=ON%2CQC&agent_id=7&balance=with&balance_min=10000&license=grace',
    );

    await user.click(within(table).getByRole('button', { name: /Open balance/ }));
    await waitFor(() => expect(lastList(calls).sort).toBe('balance'));
    expect(window.location.hash).toContain('sort=balance');
  });

  it('opens with the filters of its URL', async () => {
    const { calls } = fakeApi({
      ...signInAs('Marketing'),
      [`GET ${OPTIONS}`]: { agents: [], sales_reps: [] },
      [`GET ${LIST}`]: { items: [], total: 0, total_capped: false },
    });
    renderApp('#/customer-listing?country=US&plan=yearly&sort=-store');
    await screen.findByText('No stores match. Change or clear the filters.');
    expect(lastList(calls)).toEqual({ country: 'US', plan: 'yearly', sort: '-store', limit: '25', offset: '0' });
    expect((screen.getByRole('combobox', { name: 'Plan' }) as HTMLSelectElement).value).toBe('yearly');
  });

  it('keeps the filters in the URL: the minimum balance reads in dollars, Back shows the earlier view', async () => {
    const { calls } = fakeApi({
      ...signInAs('Marketing'),
      [`GET ${OPTIONS}`]: { agents: [], sales_reps: ['Alice Moreau'] },
      [`GET ${LIST}`]: { items: [makeItem()], total: 1, total_capped: false },
    });
    const user = userEvent.setup();
    renderApp('#/customer-listing?sales_rep=Alice+Moreau&balance_min=10050&page=2');
    await screen.findByRole('table', { name: 'Stores — 1 match' });
    expect(lastList(calls)).toEqual({ sales_rep: 'Alice Moreau', balance_min: '10050', limit: '25', offset: '25' });
    const min = screen.getByRole('textbox', { name: 'Open balance at least' }) as HTMLInputElement;
    expect(min.value).toBe('100.50');
    expect((screen.getByRole('combobox', { name: 'Sales rep' }) as HTMLInputElement).value).toBe('Alice Moreau');

    await user.selectOptions(screen.getByRole('combobox', { name: 'Status' }), 'active');
    await user.click(screen.getByRole('button', { name: 'Apply filters' }));
    await waitFor(() =>
      expect(window.location.hash).toBe('#/customer-listing?status=active&sales_rep=Alice+Moreau&balance_min=10050'),
    );
    expect(min.value).toBe('100.50');
    window.history.back();
    await waitFor(() => expect(window.location.hash).toContain('page=2'));
    await waitFor(() => expect((screen.getByRole('combobox', { name: 'Status' }) as HTMLSelectElement).value).toBe(''));
    expect(lastList(calls)).toMatchObject({ offset: '25' });
  });

  it('exports the filtered rows as a stream with "N of M rows", then saves the file', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const { calls } = fakeApi({
      ...signInAs('Marketing'),
      [`GET ${OPTIONS}`]: { agents: [], sales_reps: [] },
      [`GET ${LIST}`]: (req: FakeRequest) =>
        req.query.get('format') === 'csv'
          ? csvResponse(['100005,Maple Grocers Inc.', '100006,Zed Market Ltd'], gate)
          : { items: [makeItem()], total: 1, total_capped: false },
    });
    const { blobs, click } = stubDownloads();
    const user = userEvent.setup();
    renderApp('#/customer-listing?country=CA');
    await screen.findByRole('table', { name: 'Stores — 1 match' });
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(await screen.findByRole('progressbar', { name: 'Export progress' })).toBeTruthy();
    expect(await screen.findByText(/^\d+ of 2 rows$/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Cancel export' })).toBeTruthy();
    release();
    await waitFor(() => expect(click).toHaveBeenCalled());
    const csv = calls.find((c) => c.query.get('format') === 'csv')!;
    expect(Object.fromEntries(csv.query)).toEqual({ country: 'CA', format: 'csv' });
    const text = await blobs[0]!.text();
    expect(text.trimEnd().split('\r\n')).toHaveLength(3);
    expect(await screen.findByRole('button', { name: 'Export CSV' })).toBeTruthy();
  });

  it('Cancel stops the export and saves nothing', async () => {
    fakeApi({
      ...signInAs('Marketing'),
      [`GET ${OPTIONS}`]: { agents: [], sales_reps: [] },
      [`GET ${LIST}`]: (req: FakeRequest) =>
        req.query.get('format') === 'csv'
          ? csvResponse(['1,A', '2,B'], new Promise<void>(() => undefined))
          : { items: [makeItem()], total: 1, total_capped: false },
    });
    const { click } = stubDownloads();
    const user = userEvent.setup();
    renderApp('#/customer-listing');
    await screen.findByRole('table', { name: 'Stores — 1 match' });
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    await user.click(await screen.findByRole('button', { name: 'Cancel export' }));
    expect(await screen.findByText('Export cancelled')).toBeTruthy();
    expect(click).not.toHaveBeenCalled();
  });
});
