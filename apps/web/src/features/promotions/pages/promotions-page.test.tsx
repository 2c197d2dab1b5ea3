import { notifications } from '@mantine/notifications';
import { ORDER_STATUS, type PromotionRecord } from '@pos/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeApi, type FakeRequest } from '../../../test/fake-api';
import { jsonResponse, signInAs } from '../../../test/factories';
import { renderApp } from '../../../test/render-app';

const LIST = '/api/promotions/tok';

function makePromotion(overrides: Partial<PromotionRecord> = {}): PromotionRecord {
  return {
    promo_id: 7,
    code: 'FALL10',
    name: 'Fall: 10 % off',
    type: 'H',
    method: 'P',
    amount_cents: null,
    percent: 10,
    customer_type: 'A',
    currency: 'USD',
    billing_items: [{ billing_item_id: 66, name: 'Promotion - hardware discount' }],
    starts_on: '2026-11-01',
    expires_on: '2026-12-31',
    usage_limit: 5,
    usage_count: 2,
    active: true,
    state: 'current',
    version: 3,
    updated_at: '2026-11-20T10:00:00.000Z',
    ...overrides,
  };
}

const lastList = (calls: FakeRequest[]) =>
  Object.fromEntries(
    calls
      .filter((c) => c.path === LIST && c.method === 'GET')
      .at(-1)!
      .query.entries(),
  );

function routes(role: string, extra: Record<string, unknown> = {}) {
  return {
    ...signInAs(role),
    [`GET ${LIST}`]: {
      items: [
        makePromotion(),
        makePromotion({
          promo_id: 8,
          code: 'WELCOME100',
          name: 'New store',
          method: 'A',
          percent: null,
          amount_cents: 130_00,
          currency: 'CAD',
          customer_type: 'N',
          billing_items: [],
          usage_limit: null,
          usage_count: 0,
          expires_on: null,
        }),
      ],
      total: 2,
      total_capped: false,
    },
    'GET /api/customers/billingitems/tok/all': { currency: 'USD', billing_items: [] },
    ...extra,
  };
}

describe('promotions (#/promotions)', () => {
  afterEach(() => {
    notifications.clean();
    notifications.cleanQueue();
  });

  it('lists value, customer type, usage and state; sends filters and sort', async () => {
    const { calls } = fakeApi(routes('Marketing'));
    const user = userEvent.setup();
    renderApp('#/promotions');
    const table = await screen.findByRole('table', { name: 'Promotions — 2 matches' });
    const fall = within(table).getByText('FALL10').closest('tr')!;
    expect(within(fall).getByText('10 %')).toBeTruthy();
    expect(within(fall).getByText('2 of 5')).toBeTruthy();
    expect(within(fall).getByText('Current')).toBeTruthy();
    expect(within(fall).getByText('Promotion - hardware discount')).toBeTruthy();
    const welcome = within(table).getByText('WELCOME100').closest('tr')!;
    expect(within(welcome).getByText('C$130.00')).toBeTruthy();
    expect(within(welcome).getByText('New Store')).toBeTruthy();
    expect(within(welcome).getByText('Never')).toBeTruthy();
    await user.selectOptions(screen.getByRole('combobox', { name: 'State' }), 'expired');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Currency' }), 'CAD');
    await user.type(screen.getByRole('textbox', { name: 'Code or name' }), 'fall');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    await waitFor(() =>
      expect(lastList(calls)).toEqual({ q: 'fall', state: 'expired', currency: 'CAD', limit: '25', offset: '0' }),
    );
    expect(window.location.hash).toBe('#/promotions?q=fall&state=expired&currency=CAD');
    await user.click(screen.getByRole('button', { name: /^Used/ }));
    await waitFor(() => expect(lastList(calls).sort).toBe('usage_count'));
    expect(window.location.hash).toBe('#/promotions?q=fall&state=expired&currency=CAD&sort=usage_count');
  }, 20_000);

  it('opens with the filters, sort and page of its address', async () => {
    const { calls } = fakeApi(routes('Marketing'));
    renderApp('#/promotions?state=current&customer_type=N&sort=-expires_on&page=2');
    await screen.findByRole('table', { name: 'Promotions — 2 matches' });
    expect(lastList(calls)).toEqual({
      state: 'current',
      customer_type: 'N',
      sort: '-expires_on',
      limit: '25',
      offset: '25',
    });
    expect((screen.getByRole('combobox', { name: 'State' }) as HTMLSelectElement).value).toBe('current');
    expect((screen.getByRole('combobox', { name: 'Customer type' }) as HTMLSelectElement).value).toBe('N');
    expect(screen.getByRole('columnheader', { name: /^Expires/ }).getAttribute('aria-sort')).toBe('descending');
  });

  it('a promotions_edit user creates one: the percent rule is checked before sending, then the request is sent', async () => {
    const { calls } = fakeApi(
      routes('Marketing', {
        [`POST ${LIST}`]: (r: FakeRequest) =>
          jsonResponse(201, { info: makePromotion({ ...(r.body as object), promo_id: 9, billing_items: [] }) }),
      }),
    );
    const user = userEvent.setup();
    renderApp('#/promotions');
    await user.click(await screen.findByRole('button', { name: 'New promotion' }));
    const dialog = await screen.findByRole('dialog', { name: 'New promotion' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Code' }), 'spring20');
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Spring');
    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Method' }), 'P');
    await user.type(within(dialog).getByRole('textbox', { name: 'Percent' }), '120');
    await user.click(within(dialog).getByRole('button', { name: 'Create promotion' }));
    expect(await within(dialog).findByText('Enter a percentage from 0 to 100.')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);
    await user.clear(within(dialog).getByRole('textbox', { name: 'Percent' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Percent' }), '20');
    await user.click(within(dialog).getByRole('button', { name: 'Create promotion' }));
    await screen.findByText('SPRING20 (USD) is saved.');
    expect(calls.find((c) => c.method === 'POST')!.body).toMatchObject({
      code: 'SPRING20',
      method: 'P',
      percent: 20,
      amount_cents: null,
      usage_limit: null,
    });
  }, 20_000);

  it('Expire sends the version read; a stale one says so', async () => {
    fakeApi(
      routes('Marketing', {
        'POST /api/promotions/7/expire/tok': (r: FakeRequest) =>
          jsonResponse(409, {
            error: {
              code: 'version_conflict',
              message: `Promotion FALL10 was changed by someone else (you sent version ${(r.body as { version: number }).version}).`,
              current: makePromotion({ version: 4 }),
            },
          }),
      }),
    );
    const user = userEvent.setup();
    renderApp('#/promotions');
    await user.click(await screen.findByRole('button', { name: 'Expire FALL10 (USD)' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Expire' }));
    expect(await screen.findByText(/you sent version 3/)).toBeTruthy();
  });

  it('shows a promotion’s orders', async () => {
    fakeApi(
      routes('Marketing', {
        'GET /api/promotions/7/orders/tok': {
          promo_id: 7,
          items: [
            {
              order_id: 41,
              unified_order_id: 'UO-20261120-41',
              status: ORDER_STATUS.PENDING_CONTRACT_SIGN,
              customer_id: null,
              legal_name: 'Ada Holdings LLC',
              doing_business_as: 'Ada Mart',
              amount_cents: 20_00,
              currency: 'USD',
              applied_at: '2026-11-20T10:00:00.000Z',
              counts: true,
            },
          ],
        },
      }),
    );
    const user = userEvent.setup();
    renderApp('#/promotions');
    await user.click(await screen.findByRole('link', { name: 'Orders using FALL10 (USD)' }));
    expect(window.location.hash).toBe('#/promotions?id=7');
    const orders = await screen.findByRole('table', { name: '1 order used FALL10' });
    expect(within(orders).getByRole('link', { name: 'UO-20261120-41' }).getAttribute('href')).toBe('#/order?id=41');
    expect(within(orders).getByText('$20.00')).toBeTruthy();
  });
});
