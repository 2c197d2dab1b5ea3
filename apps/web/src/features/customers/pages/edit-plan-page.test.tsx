import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fakeApi, type FakeRequest } from '../../../test/fake-api';
import { renderApp } from '../../../test/render-app';
import { customerRoutes, makeCustomer, signInAs } from '../lib/test-support';
import { makeFeature } from '../tabs/test-support';

const FEATURES = '/api/customers/100001/tok/features';

function features() {
  return {
    store_id: 500002,
    customer_id: 100001,
    currency: 'USD',
    features_version: 'v1',
    features: [
      makeFeature('No Ads', { billing_item_id: 207, limited: true, enabled: false }),
      // The server's can_change is for the caller; the screen applies the domain rule as well.
      makeFeature('E-commerce', { billing_item_id: 203, limited: false, enabled: true, can_change: true }),
      makeFeature('Customer Tabs', { billing_item_id: 202, limited: true, enabled: true }),
      makeFeature('Additional register license', {
        billing_item_id: 213,
        nrs_pay: false,
        limited: false,
        enabled: false,
        price_cents: 2900,
      }),
    ],
  };
}

function server(role: string) {
  const puts: FakeRequest[] = [];
  const api = fakeApi({
    ...signInAs(role),
    ...customerRoutes(makeCustomer()),
    [`GET ${FEATURES}`]: features(),
    [`PUT ${FEATURES}`]: (r: FakeRequest) => {
      puts.push(r);
      return { ...features(), features_version: 'v2', added: [207], removed: [202], email_job_id: 'job-9' };
    },
  });
  return { ...api, puts };
}

describe('Edit plan (#/editplan): the limited-features rule', () => {
  it('with only customer_features_limited, features outside the limited set are disabled and explained', async () => {
    const { puts } = server('Customer Service');
    const user = userEvent.setup();
    renderApp('#/editplan?customer=100001&store=500002');
    const table = await screen.findByRole('table', { name: 'Features of store 500002' });
    expect(screen.getByRole('note').textContent).toContain(
      'Your access changes only these features: Advanced Data, Customer Tabs, Employee Time Clock, Item Modifiers, No Ads.',
    );

    const noAds = within(table).getByRole('checkbox', { name: 'No Ads' }) as HTMLInputElement;
    const ecommerce = within(table).getByRole('checkbox', { name: 'E-commerce' }) as HTMLInputElement;
    const tabs = within(table).getByRole('checkbox', { name: 'Customer Tabs' }) as HTMLInputElement;
    const register = within(table).getByRole('checkbox', { name: 'Additional register license' }) as HTMLInputElement;
    expect([noAds.disabled, ecommerce.disabled, tabs.disabled, register.disabled]).toEqual([false, true, false, true]);
    expect(within(table).getAllByText('Needs full feature access (customer_features_edit)')).toHaveLength(2);

    // A disabled feature does not change when clicked.
    await user.click(ecommerce);
    expect(ecommerce.checked).toBe(true);

    await user.click(noAds);
    await user.click(tabs);
    expect(screen.getByText('To switch on: No Ads. To switch off: Customer Tabs.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Save features' }));
    await waitFor(() => expect(puts).toHaveLength(1));
    const body = puts[0]!.body as { features: number[] };
    expect({ ...body, features: [...body.features].sort() }).toEqual({
      custstoreid: 500002,
      features: [203, 207],
      features_version: 'v1',
      notify_merchant: true,
    });
  });

  it('with customer_features_edit every feature can be changed and no limit is explained', async () => {
    server('Customer Support');
    renderApp('#/editplan?customer=100001&store=500002');
    const table = await screen.findByRole('table', { name: 'Features of store 500002' });
    expect(
      within(table)
        .getAllByRole('checkbox')
        .map((c) => (c as HTMLInputElement).disabled),
    ).toEqual([false, false, false, false]);
    expect(screen.queryByRole('note')).toBeNull();
  });

  it('nothing changed: nothing is sent', async () => {
    const { puts } = server('Customer Support');
    const user = userEvent.setup();
    renderApp('#/editplan?customer=100001&store=500002');
    await screen.findByRole('table', { name: 'Features of store 500002' });
    await user.click(screen.getByRole('button', { name: 'Save features' }));
    expect(await screen.findByText('Nothing changed.')).toBeTruthy();
    expect(puts).toHaveLength(0);
  });

  it('a CRM feature-change request names the chosen features', async () => {
    const posts: FakeRequest[] = [];
    fakeApi({
      ...signInAs('Customer Service'),
      ...customerRoutes(makeCustomer()),
      [`GET ${FEATURES}`]: features(),
      'POST /api/zoho/accessoriesorder/tok': (r: FakeRequest) => {
        posts.push(r);
        return { jobId: 'job-crm' };
      },
    });
    const user = userEvent.setup();
    renderApp('#/editplan?customer=100001&store=500002');
    const section = await screen.findByRole('region', { name: 'Request a feature change (CRM)' });
    await user.click(within(section).getByRole('button', { name: 'Send request to CRM' }));
    expect(await within(section).findByText('Choose at least one feature.')).toBeTruthy();
    await user.click(within(section).getByRole('checkbox', { name: 'E-commerce' }));
    await user.type(within(section).getByRole('textbox', { name: /Notes/ }), 'Online store from May');
    await user.click(within(section).getByRole('button', { name: 'Send request to CRM' }));
    expect((await within(section).findByRole('status')).textContent).toContain('job-crm');
    expect(posts[0]!.body).toEqual({ storeid: 500002, features: ['E-commerce'], notes: 'Online store from May' });
  });

  it('sends the change to the merchant to accept instead of saving it, and lists what was sent', async () => {
    const CHANGES = '/api/customers/100001/tok/featurechanges';
    const sent = {
      feature_change_id: 41,
      customer_id: 100001,
      store_id: 500002,
      plan_id: 9,
      changes: [{ billing_item_id: 207, name: 'No Ads', action: 'add', monthly_cents: 9_00 }],
      current_monthly_cents: 79_00,
      new_monthly_cents: 88_00,
      currency: 'USD',
      effective_on: '2026-12-01',
      status: 'sent',
      created_by_email: 'cs@example.com',
      created_at: '2026-11-22T12:00:00.000Z',
      decided_at: null,
      decided_ip: null,
      email_job_id: 'job-5',
      version: 1,
    };
    const posts: FakeRequest[] = [];
    const puts: FakeRequest[] = [];
    fakeApi({
      ...signInAs('Customer Support'),
      ...customerRoutes(makeCustomer()),
      [`GET ${FEATURES}`]: features(),
      [`PUT ${FEATURES}`]: (r: FakeRequest) => {
        puts.push(r);
        return { ...features(), added: [207], removed: [], email_job_id: null };
      },
      [`GET ${CHANGES}`]: () => ({ items: posts.length > 0 ? [{ ...sent, email_job_id: null }] : [] }),
      [`POST ${CHANGES}`]: (r: FakeRequest) => {
        posts.push(r);
        return sent;
      },
    });
    const user = userEvent.setup();
    renderApp('#/editplan?customer=100001&store=500002');
    const table = await screen.findByRole('table', { name: 'Features of store 500002' });
    await user.click(within(table).getByRole('checkbox', { name: 'No Ads' }));
    await user.click(screen.getByRole('button', { name: 'Send to the merchant to accept' }));
    await waitFor(() => expect(posts).toHaveLength(1));
    const body = posts[0]!.body as { features: number[] };
    expect({ ...body, features: [...body.features].sort() }).toEqual({
      custstoreid: 500002,
      features: [202, 203, 207],
      features_version: 'v1',
    });
    expect(puts).toHaveLength(0);
    expect((await screen.findByText(/Nothing is switched until they accept/)).textContent).toContain(
      'from $79.00 to $88.00',
    );
    const list = await screen.findByRole('table', { name: 'Changes sent to the merchant' });
    expect(list.textContent).toContain('On: No Ads');
    expect(list.textContent).toContain('$79.00 → $88.00');
    expect(list.textContent).toContain('Waiting for the merchant');
  });

  it('a change still waiting can be canceled with its version; a decided one shows who decided from where', async () => {
    const CHANGES = '/api/customers/100001/tok/featurechanges';
    const base = {
      customer_id: 100001,
      store_id: 500002,
      plan_id: 9,
      changes: [{ billing_item_id: 207, name: 'No Ads', action: 'remove', monthly_cents: 9_00 }],
      current_monthly_cents: 79_00,
      new_monthly_cents: 70_00,
      currency: 'USD',
      effective_on: '2026-12-01',
      created_by_email: 'cs@example.com',
      created_at: '2026-11-22T12:00:00.000Z',
      email_job_id: null,
    };
    const cancels: FakeRequest[] = [];
    fakeApi({
      ...signInAs('Customer Support'),
      ...customerRoutes(makeCustomer()),
      [`GET ${FEATURES}`]: features(),
      [`GET ${CHANGES}`]: {
        items: [
          { ...base, feature_change_id: 42, status: 'sent', decided_at: null, decided_ip: null, version: 3 },
          {
            ...base,
            feature_change_id: 41,
            status: 'accepted',
            decided_at: '2026-11-20T09:30:00.000Z',
            decided_ip: '203.0.113.7',
            version: 2,
          },
        ],
      },
      [`POST ${CHANGES}/42/cancel`]: (r: FakeRequest) => {
        cancels.push(r);
        return { ...base, feature_change_id: 42, status: 'canceled', decided_at: null, decided_ip: null, version: 4 };
      },
    });
    const user = userEvent.setup();
    renderApp('#/editplan?customer=100001&store=500002');
    const list = await screen.findByRole('table', { name: 'Changes sent to the merchant' });
    const rows = within(list).getAllByRole('row').slice(1);
    expect(rows[1]!.textContent).toContain('from 203.0.113.7');
    expect(within(rows[1]!).queryByRole('button', { name: /Cancel/ })).toBeNull();
    await user.click(within(rows[0]!).getByRole('button', { name: /^Cancel the change sent/ }));
    await waitFor(() => expect(cancels.map((c) => c.body)).toEqual([{ version: 3 }]));
  });
});
