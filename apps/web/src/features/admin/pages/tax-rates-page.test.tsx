import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AdminTaxState } from '@pos/domain';
import { describe, expect, it } from 'vitest';
import { fakeApi } from '../../../test/fake-api';
import { jsonResponse } from '../../../test/factories';
import { renderApp } from '../../../test/render-app';
import { signInAdmin } from '../test-support';
import { basisPointsOf, percentOf } from './tax-rates-page';

const TAXES = '/api/admin/taxes/tok';

const bc: AdminTaxState = {
  country: 'CA',
  state: 'BC',
  state_name: 'British Columbia',
  current: {
    effective_on: '2000-01-01',
    rate_basis_points: 1200,
    label: 'GST + PST',
    components: [
      { component: 'GST', rate_basis_points: 500, label: 'GST' },
      { component: 'PST', rate_basis_points: 700, label: 'PST' },
    ],
    created_by: null,
  },
  scheduled: [],
};
const tx: AdminTaxState = {
  country: 'US',
  state: 'TX',
  state_name: 'Texas',
  current: {
    effective_on: '2000-01-01',
    rate_basis_points: 625,
    label: 'State sales tax',
    components: [{ component: 'STATE', rate_basis_points: 625, label: 'State sales tax' }],
    created_by: null,
  },
  scheduled: [],
};

describe('#/admin/taxes', () => {
  it('reads percentages as basis points, half a basis point up', () => {
    expect(basisPointsOf('6.25')).toBe(625);
    expect(basisPointsOf('6.875 %')).toBe(688);
    expect(basisPointsOf('abc')).toBeNull();
    expect(percentOf(1498)).toBe('14.98 %');
  });

  it('lists the rates with their components and schedules GST and PST for a province from a date', async () => {
    let states = [tx, bc];
    const { calls } = fakeApi({
      ...signInAdmin(),
      [`GET ${TAXES}`]: () => ({ today: '2026-11-22', states }),
      [`POST ${TAXES}`]: () => {
        const next = {
          ...bc,
          scheduled: [
            {
              effective_on: '2027-04-01',
              rate_basis_points: 1300,
              label: 'GST + PST',
              components: [
                { component: 'GST' as const, rate_basis_points: 500, label: 'GST' },
                { component: 'PST' as const, rate_basis_points: 800, label: 'PST' },
              ],
              created_by: 'admin@example.com',
            },
          ],
        };
        states = [tx, next];
        return next;
      },
    });
    const user = userEvent.setup();
    renderApp('#/admin/taxes');
    const table = await screen.findByRole('table', { name: /^Rates on / });
    const row = (await within(table).findByText('British Columbia (BC)')).closest('tr')!;
    expect(row.textContent).toContain('12.00 % (GST 5.00 % + PST 7.00 %)');
    const form = screen.getByRole('form', { name: 'Schedule a rate change' });
    await user.selectOptions(within(form).getByRole('combobox', { name: 'Country' }), 'CA');
    await user.selectOptions(within(form).getByRole('combobox', { name: 'Province' }), 'BC');
    await user.type(within(form).getByLabelText(/^Effective from/), '2027-04-01');
    await user.type(within(form).getByRole('textbox', { name: 'GST (federal) (%)' }), '5');
    await user.type(within(form).getByRole('textbox', { name: /^PST/ }), '8');
    await user.click(within(form).getByRole('button', { name: 'Schedule rate' }));
    expect(await screen.findByText('Tax rate scheduled')).toBeTruthy();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      country: 'CA',
      state: 'BC',
      effective_on: '2027-04-01',
      components: [
        { component: 'GST', rate_basis_points: 500 },
        { component: 'PST', rate_basis_points: 800 },
      ],
    });
    expect(await within(table).findByText(/13\.00 % \(GST 5\.00 % \+ PST 8\.00 %\) from /)).toBeTruthy();
  });

  it('shows the refusal of a past date next to the field', async () => {
    fakeApi({
      ...signInAdmin(),
      [`GET ${TAXES}`]: { today: '2026-11-22', states: [tx] },
      [`POST ${TAXES}`]: () =>
        jsonResponse(400, {
          error: {
            code: 'validation_failed',
            message: 'The effective date is today (2026-11-22) or later: past rates are not changed.',
            fields: { effective_on: 'The effective date is today (2026-11-22) or later: past rates are not changed.' },
          },
        }),
    });
    const user = userEvent.setup();
    renderApp('#/admin/taxes');
    const form = await screen.findByRole('form', { name: 'Schedule a rate change' });
    await screen.findByText('Texas (TX)');
    await user.selectOptions(within(form).getByRole('combobox', { name: 'State' }), 'TX');
    await user.type(within(form).getByLabelText(/^Effective from/), '2026-11-01');
    await user.type(within(form).getByRole('textbox', { name: 'State sales tax (%)' }), '7');
    await user.click(within(form).getByRole('button', { name: 'Schedule rate' }));
    expect(
      await within(form).findByText('The effective date is today (2026-11-22) or later: past rates are not changed.'),
    ).toBeTruthy();
  });
});
