import { notifications } from '@mantine/notifications';
import type { WinbackCase, WinbackItem } from '@pos/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { errorResponse, fakeApi, type FakeRequest } from '../../../test/fake-api';
import { signInAs } from '../../../test/factories';
import { renderApp } from '../../../test/render-app';

const LIST = '/api/breathoflife/tok';
const CASE = '/api/breathoflife/500010/tok';

function makeItem(overrides: Partial<WinbackItem> = {}): WinbackItem {
  return {
    store_id: 500010,
    customer_id: 100005,
    legal_name: 'Bluebird Diner LLC',
    doing_business_as: 'Bluebird Diner',
    contact_name: 'Pat Bluebird',
    phone: '(555) 010-2000',
    email: 'billing@bluebird.example',
    country: 'US',
    currency: 'USD',
    last_invoice_id: 9001,
    last_invoice_number: 'INV-2026-0000801',
    last_invoice_on: '2026-08-01',
    last_invoice_cents: 79_00,
    last_invoice_status: 'Pending',
    reason: 'lapsed',
    reason_on: '2026-10-01',
    days_since: 52,
    status: 'new',
    version: 0,
    last_activity_at: null,
    last_activity: null,
    ...overrides,
  };
}

function makeCase(overrides: Partial<WinbackCase> = {}): WinbackCase {
  return {
    ...makeItem(),
    offer_kind: null,
    offer_promotion_id: null,
    offer_promotion_code: null,
    outcome_reason: null,
    reactivation_fee_cents: 50_00,
    activities: [],
    promotions: [{ id: 7, code: 'COMEBACK', name: 'Come back', currency: 'USD' }],
    ...overrides,
  };
}

const lastList = (calls: FakeRequest[]) => Object.fromEntries(calls.filter((c) => c.path === LIST).at(-1)!.query);

function routes(extra: Record<string, unknown> = {}) {
  return {
    ...signInAs('Customer Care'),
    [`GET ${LIST}`]: {
      items: [
        makeItem(),
        makeItem({
          store_id: 500011,
          customer_id: 100009,
          legal_name: 'Maple Café Inc.',
          doing_business_as: 'Maple Cafe',
          country: 'CA',
          currency: 'CAD',
          last_invoice_cents: 45_00,
          reason: 'canceled',
          reason_on: '2026-09-01',
          days_since: 82,
          status: 'contacted',
          version: 1,
          last_activity: 'Call: Left a voicemail',
        }),
      ],
      total: 2,
    },
    [`GET ${CASE}`]: makeCase(),
    ...extra,
  };
}

describe('breath of life (#/breathoflife)', () => {
  afterEach(() => {
    notifications.clean();
    notifications.cleanQueue();
  });

  it('lists lapsed and canceled stores with contact, last invoice in its currency, reason and status', async () => {
    const { calls } = fakeApi(routes());
    renderApp('#/breathoflife');
    expect(await screen.findByRole('heading', { level: 1, name: 'Breath of life' })).toBeTruthy();
    const table = await screen.findByRole('table', { name: 'Win-back list — 2 stores' });
    const diner = within(table).getByRole('link', { name: 'Open the case of Bluebird Diner' }).closest('tr')!;
    expect(within(diner).getByText(/\$79\.00/)).toBeTruthy();
    expect(within(diner).getByText(/License lapsed on/)).toBeTruthy();
    expect(within(diner).getByText('New')).toBeTruthy();
    expect(within(table).getByText(/C\$45\.00/)).toBeTruthy();
    expect(within(table).getByText('Call: Left a voicemail')).toBeTruthy();
    expect(lastList(calls)).toEqual({ limit: '25', offset: '0' });
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
  });

  it('sends the filters and the sort; refuses one letter of search on the spot', async () => {
    const { calls } = fakeApi(routes());
    const user = userEvent.setup();
    renderApp('#/breathoflife');
    await screen.findByRole('table', { name: /Win-back list — / });
    await user.selectOptions(screen.getByRole('combobox', { name: 'Reason' }), 'canceled');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Country' }), 'CA');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Win-back status' }), 'offer_made');
    await user.type(screen.getByRole('textbox', { name: /Merchant or store/ }), 'm');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    expect(await screen.findByText('Type at least 2 characters.')).toBeTruthy();
    await user.type(screen.getByRole('textbox', { name: /Merchant or store/ }), 'aple');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    await waitFor(() =>
      expect(lastList(calls)).toEqual({
        reason: 'canceled',
        country: 'CA',
        status: 'offer_made',
        q: 'maple',
        limit: '25',
        offset: '0',
      }),
    );
    await user.click(screen.getByRole('button', { name: /^Merchant/ }));
    await waitFor(() => expect(lastList(calls).sort).toBe('customer'));
  });

  it('keeps the filters, the sort and the open case in the address; an address with them restores the view', async () => {
    const { calls } = fakeApi(routes());
    const user = userEvent.setup();
    renderApp('#/breathoflife?reason=lapsed&country=US&sort=-days_since');
    const table = await screen.findByRole('table', { name: /Win-back list — / });
    const filters = screen.getByRole('search', { name: 'Filter the win-back list' });
    expect((within(filters).getByRole('combobox', { name: 'Reason' }) as HTMLSelectElement).value).toBe('lapsed');
    expect((within(filters).getByRole('combobox', { name: 'Country' }) as HTMLSelectElement).value).toBe('US');
    expect(lastList(calls)).toEqual({ reason: 'lapsed', country: 'US', sort: '-days_since', limit: '25', offset: '0' });
    expect(within(table).getByRole('link', { name: 'Customer 100005' }).getAttribute('href')).toBe(
      '#/customer?id=100005',
    );

    await user.selectOptions(within(filters).getByRole('combobox', { name: 'Win-back status' }), 'contacted');
    await user.click(within(filters).getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(window.location.hash).toContain('status=contacted'));
    await waitFor(() => expect(lastList(calls).status).toBe('contacted'));

    // The case opens from a link that keeps the view, and its store is in the address.
    await user.click(within(table).getByRole('link', { name: 'Open the case of Bluebird Diner' }));
    const drawer = await screen.findByRole('dialog', { name: 'Win-back case of store 500010' });
    expect(window.location.hash).toContain('store=500010');
    expect(window.location.hash).toContain('status=contacted');
    expect(drawer).toBeTruthy();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(window.location.hash).not.toContain('store='));
  });

  it('an address naming a store opens its case', async () => {
    fakeApi(routes());
    renderApp('#/breathoflife?store=500010');
    const drawer = await screen.findByRole('dialog', { name: 'Win-back case of store 500010' });
    expect(await within(drawer).findByText('billing@bluebird.example')).toBeTruthy();
  });

  it('a case: logs a call, makes an offer, and reactivates after confirming (toast: payment link sent)', async () => {
    let current = makeCase();
    const { calls } = fakeApi(
      routes({
        [`GET ${CASE}`]: () => current,
        'POST /api/breathoflife/500010/activities/tok': (r: FakeRequest) => {
          const body = r.body as { kind: 'call' | 'note'; text: string };
          current = makeCase({
            status: 'contacted',
            version: 1,
            activities: [
              { id: 1, kind: body.kind, text: body.text, by: 'care@example.com', at: '2026-11-22T12:00:00Z' },
            ],
          });
          return current;
        },
        'POST /api/breathoflife/500010/offer/tok': () => {
          current = makeCase({
            ...current,
            status: 'offer_made',
            version: 2,
            offer_kind: 'fee_waived',
            reactivation_fee_cents: null,
          });
          return current;
        },
        'POST /api/breathoflife/500010/reactivate/tok': () => {
          current = makeCase({ ...current, status: 'won', version: 3 });
          return { case: current, fee_invoice_number: null, payment_link_sent_to: 'billing@bluebird.example' };
        },
      }),
    );
    const user = userEvent.setup();
    renderApp('#/breathoflife');
    await user.click(await screen.findByRole('link', { name: 'Open the case of Bluebird Diner' }));
    const drawer = await screen.findByRole('dialog', { name: 'Win-back case of store 500010' });
    expect(await within(drawer).findByText('billing@bluebird.example')).toBeTruthy();
    expect(within(drawer).getByText(/INV-2026-0000801/)).toBeTruthy();
    expect(within(drawer).getByText('Reactivation fee $50.00.')).toBeTruthy();

    await user.type(within(drawer).getByRole('textbox', { name: 'What was said' }), 'Owner wants to come back');
    await user.click(within(drawer).getByRole('button', { name: 'Log' }));
    expect(await within(drawer).findByText(/Owner wants to come back/)).toBeTruthy();
    expect(calls.find((c) => c.path === '/api/breathoflife/500010/activities/tok')!.body).toEqual({
      kind: 'call',
      text: 'Owner wants to come back',
      version: 0,
    });

    await user.click(within(drawer).getByRole('button', { name: 'Make offer' }));
    expect(await within(drawer).findByText('No reactivation fee.')).toBeTruthy();
    expect(calls.find((c) => c.path === '/api/breathoflife/500010/offer/tok')!.body).toEqual({
      offer: 'fee_waived',
      version: 1,
    });

    await user.click(within(drawer).getByRole('button', { name: 'Reactivate' }));
    const confirm = await screen.findByRole('dialog', { name: 'Reactivate Bluebird Diner?' });
    expect(within(confirm).getByText(/payment link is e-mailed to billing@bluebird.example/)).toBeTruthy();
    await user.click(within(confirm).getByRole('button', { name: 'Reactivate' }));
    expect(await screen.findByText('Payment link sent to billing@bluebird.example.')).toBeTruthy();
    const reactivate = calls.find((c) => c.path === '/api/breathoflife/500010/reactivate/tok')!;
    expect(reactivate.body).toEqual({ version: 2 });
    expect(await within(drawer).findByLabelText('Status: Won')).toBeTruthy();
  });

  it('a stale case: the 409 is shown and the case reloaded', async () => {
    fakeApi(
      routes({
        'POST /api/breathoflife/500010/outcome/tok': errorResponse(
          409,
          'version_conflict',
          'The win-back case of store 500010 was changed by someone else since you opened it.',
        ),
      }),
    );
    const user = userEvent.setup();
    renderApp('#/breathoflife');
    await user.click(await screen.findByRole('link', { name: 'Open the case of Bluebird Diner' }));
    const drawer = await screen.findByRole('dialog', { name: 'Win-back case of store 500010' });
    await user.click(await within(drawer).findByRole('button', { name: 'Record outcome' }));
    expect(await within(drawer).findByText('Say why the store was lost.')).toBeTruthy();
    await user.type(within(drawer).getByRole('textbox', { name: 'Reason' }), 'Closed for good');
    await user.click(within(drawer).getByRole('button', { name: 'Record outcome' }));
    expect(await screen.findByText(/changed by someone else/)).toBeTruthy();
  });
});
