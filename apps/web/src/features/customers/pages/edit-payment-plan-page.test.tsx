import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { jsonResponse } from '../../../test/factories';
import { fakeApi, type FakeRequest } from '../../../test/fake-api';
import { renderApp } from '../../../test/render-app';
import { planEntries } from './edit-payment-plan-page';
import { customerRoutes, makeCustomer, makeStore, signInAs } from '../lib/test-support';
import { makePlan } from '../tabs/test-support';

const PLANS = '/api/customers/100001/tok/customerpaymentplans';

const hardware = () =>
  makePlan({
    id: 31,
    kind: 'hardware_sale',
    kind_label: 'Hardware sale plan',
    payment_plan_type_id: 1,
    plan_name: 'Terminal installments',
    term: 12,
    interval: 1,
    initial_amount_cents: 20000,
    recurring_amount_cents: 11000,
    license_expires_on: null,
    version: 2,
  });

describe('Edit payment plan (#/editpaymentplan)', () => {
  it('shows the hardware sale plan and the monthly plan; a save sends only what changed, with the version', async () => {
    const puts: FakeRequest[] = [];
    const { calls } = fakeApi({
      ...signInAs('Customer Support'),
      ...customerRoutes(makeCustomer()),
      [`GET ${PLANS}`]: { items: [makePlan(), hardware()], total: 2 },
      [`PUT ${PLANS}/31`]: (r: FakeRequest) => {
        puts.push(r);
        return { ...hardware(), recurring_amount_cents: 10550, version: 3 };
      },
    });
    const user = userEvent.setup();
    renderApp('#/editpaymentplan?customer=100001&store=500002');
    const hw = await screen.findByRole('form', { name: 'Hardware sale plan' });
    const monthly = screen.getByRole('form', { name: 'Monthly plan' });
    expect((within(hw).getByRole('textbox', { name: /Plan name/ }) as HTMLInputElement).value).toBe(
      'Terminal installments',
    );
    expect((within(hw).getByRole('textbox', { name: /Initial payment amount/ }) as HTMLInputElement).value).toBe(
      '200.00',
    );
    expect(within(monthly).queryByRole('textbox', { name: /Plan name/ })).toBeNull();
    expect((within(monthly).getByRole('textbox', { name: /Recurring amount/ }) as HTMLInputElement).value).toBe(
      '79.00',
    );
    expect(Object.fromEntries(calls.find((c) => c.path === PLANS)!.query)).toEqual({
      storeid: '500002',
      limit: '100',
      offset: '0',
    });

    const recurring = within(hw).getByRole('textbox', { name: /Recurring amount/ });
    await user.clear(recurring);
    await user.type(recurring, '105.5');
    await user.click(within(hw).getByRole('button', { name: 'Save hardware sale plan' }));
    await waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]!.body).toEqual({ recurring_amount_cents: 10550, version: 2 });

    await user.clear(recurring);
    await user.type(recurring, '1.999');
    await user.click(within(hw).getByRole('button', { name: 'Save hardware sale plan' }));
    expect(await within(hw).findByText(/with at most 2 decimals/)).toBeTruthy();
    expect(puts).toHaveLength(1);
  });

  it('a stale version (409) says someone else changed the plan and shows the current one', async () => {
    let version = 4;
    fakeApi({
      ...signInAs('Customer Support'),
      ...customerRoutes(
        makeCustomer({ stores: [makeStore({ country: 'CA', currency: 'CAD' })], country: 'CA', currency: 'CAD' }),
      ),
      [`GET ${PLANS}`]: () => ({
        items: [makePlan({ currency: 'CAD', version, recurring_amount_cents: version === 4 ? 7900 : 9900 })],
        total: 1,
      }),
      [`PUT ${PLANS}/30`]: () => {
        version = 5;
        return jsonResponse(409, {
          error: { code: 'version_conflict', message: 'The plan was changed by someone else.', current: {} },
        });
      },
    });
    const user = userEvent.setup();
    renderApp('#/editpaymentplan?customer=100001&store=500002');
    const monthly = await screen.findByRole('form', { name: 'Monthly plan' });
    expect(within(monthly).getAllByText('C$')).toHaveLength(2);
    const term = within(monthly).getByRole('textbox', { name: /Term/ });
    await user.clear(term);
    await user.type(term, '12');
    await user.click(within(monthly).getByRole('button', { name: 'Save monthly plan' }));
    expect(await screen.findByText(/Someone else changed this record while you were editing/)).toBeTruthy();
    await waitFor(() =>
      expect(
        (
          within(screen.getByRole('form', { name: 'Monthly plan' })).getByRole('textbox', {
            name: /Recurring amount/,
          }) as HTMLInputElement
        ).value,
      ).toBe('99.00'),
    );
    expect(
      screen.getByText(
        "This store has no hardware sale plan (or only a canceled one). Add one in the customer's Plans tab.",
      ),
    ).toBeTruthy();
  });

  it('fills each entry with a plan of its kinds: not canceled, an active one first, then the newest', () => {
    const completedHw = makePlan({ id: 1, kind: 'hardware_sale', status: 'completed', starts_on: '2024-01-01' });
    const canceledHw = makePlan({ id: 2, kind: 'hardware_sale', status: 'canceled', starts_on: '2025-01-01' });
    const oldMonthly = makePlan({ id: 3, kind: 'monthly', status: 'active', starts_on: '2023-01-01' });
    const newerCompletedYearly = makePlan({ id: 4, kind: 'yearly', status: 'completed', starts_on: '2025-06-01' });
    const credit = makePlan({ id: 5, kind: 'credit_memo', status: 'active', starts_on: '2026-01-01' });
    expect(planEntries([completedHw, canceledHw, oldMonthly, newerCompletedYearly, credit])).toEqual({
      hardware: completedHw,
      monthly: oldMonthly,
    });
    expect(planEntries([canceledHw, credit])).toEqual({ hardware: null, monthly: null });
  });
});
