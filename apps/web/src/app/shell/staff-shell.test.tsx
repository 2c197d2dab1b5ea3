import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { privilegesForRole } from '@pos/domain';
import { describe, expect, it } from 'vitest';
import { clearToken } from '../../lib/session';
import { fakeApi, type FakeRequest } from '../../test/fake-api';
import { permissionAnswer, signInAs } from '../../test/factories';
import { renderApp, withPages } from '../../test/render-app';
import type { PageMap } from '../router';
import { SHELL_PRIVILEGES } from './shell-permissions';

/* The application shell (decision 106): the left navigation from the route table, the page map and one permission call. */

const page = (heading: string) => () => Promise.resolve({ default: () => <h1>{heading}</h1> });
/** Test pages for the screens that exist, so a test does not depend on what they load. */
const screens: PageMap = withPages({
  order: page('Orders page'),
  newOrder: page('New order page'),
  customer: page('Customer page'),
  adminMailbox: page('Mailbox page'),
  adminJobs: page('Job monitor page'),
  adminBilling: page('Billing runs page'),
  adminCatalogue: page('Catalogue page'),
  viewInvoices: page('Invoices page'),
  confirmation: page('Confirmation page'),
});

async function navigation() {
  return within(await screen.findByRole('navigation', { name: 'Main' }));
}

/** Each group of the navigation with its links' names and addresses. */
async function entries() {
  const nav = await navigation();
  await nav.findAllByRole('link');
  return nav.getAllByRole('group').map((group) => ({
    group: document.getElementById(group.getAttribute('aria-labelledby') ?? '')?.textContent,
    links: within(group)
      .getAllByRole('link')
      .map((a) => [a.textContent, a.getAttribute('href')]),
  }));
}

const shellPermissionCalls = (calls: { path: string; query: URLSearchParams }[]) =>
  calls.filter(
    (c) => c.path === '/api/auth/permission/tok' && c.query.get('privileges') === SHELL_PRIVILEGES.join(','),
  );

describe('the application shell', () => {
  it('an admin sees every screen that exists, grouped, in the route table order', async () => {
    fakeApi(signInAs('Admin'));
    renderApp('#/customer', screens);
    await screen.findByRole('heading', { name: 'Customer page' });
    expect(await entries()).toEqual([
      {
        group: 'Orders',
        links: [
          ['Orders', '#/order'],
          ['New order', '#/neworder'],
          ['Agents', '#/view-agents'],
          ['Look-ups', '#/lookups'],
        ],
      },
      {
        group: 'Customers',
        links: [
          ['Customers', '#/customer'],
          ['Tax certificate', '#/arizona'],
          ['Breath of life', '#/breathoflife'],
        ],
      },
      {
        group: 'Billing & AR',
        links: [
          ['Failed payments', '#/payments'],
          ['Returns and refunds', '#/returns-refund'],
          ['Returns', '#/viewreturns'],
          ['Refund', '#/refund'],
          ['Payment instruments', '#/payment/instruments'],
          ['Receipts', '#/view-receipts'],
          ['Invoices', '#/view-invoices'],
          ['Approvals', '#/approvals'],
          ['Month-end accounting', '#/accounting'],
        ],
      },
      { group: 'Catalogue', links: [['Promotions', '#/promotions']] },
      {
        group: 'Reports',
        links: [
          ['Customer listing', '#/customer-listing'],
          ['Reports', '#/reports'],
        ],
      },
      {
        group: 'Admin',
        links: [
          ['Mailbox', '#/admin/mailbox'],
          ['Job monitor', '#/admin/jobs'],
          ['Billing runs', '#/admin/billing'],
          ['Catalogue', '#/admin/catalogue'],
          ['Tax rates', '#/admin/taxes'],
          ['Staff', '#/admin/staff'],
          ['Reconciliation', '#/admin/reconciliation'],
        ],
      },
    ]);
  });

  it('Operations sees only what Operations may open: no New order, no admin tools; Reports (reports_edit)', async () => {
    fakeApi(signInAs('Operations'));
    renderApp('#/order', screens);
    await screen.findByRole('heading', { name: 'Orders page' });
    expect(await entries()).toEqual([
      // #/view-agents is guarded by a session only (the server scopes what each session sees; decision 124).
      {
        group: 'Orders',
        links: [
          ['Orders', '#/order'],
          ['Agents', '#/view-agents'],
          ['Look-ups', '#/lookups'],
        ],
      },
      {
        group: 'Customers',
        links: [
          ['Customers', '#/customer'],
          ['Tax certificate', '#/arizona'],
        ],
      },
      // #/payment/instruments and the returns screens are guarded by what their calls need: Operations reads customer
      // details (decision 154).
      {
        group: 'Billing & AR',
        links: [
          ['Returns and refunds', '#/returns-refund'],
          ['Returns', '#/viewreturns'],
          ['Refund', '#/refund'],
          ['Payment instruments', '#/payment/instruments'],
        ],
      },
      {
        group: 'Reports',
        links: [
          ['Customer listing', '#/customer-listing'],
          ['Reports', '#/reports'],
        ],
      },
    ]);
  });

  it('a screen appears once the page map has it (Reports for Operations), never for a role without its privilege', async () => {
    fakeApi(signInAs('Operations'));
    const withReports = { ...screens, reports: page('Reports page'), customerListing: page('Customer listing page') };
    const ops = renderApp('#/order', withReports);
    expect((await entries()).at(-1)).toEqual({
      group: 'Reports',
      links: [
        ['Customer listing', '#/customer-listing'],
        ['Reports', '#/reports'],
      ],
    });
    ops.unmount();

    fakeApi(signInAs('Customer Support'));
    renderApp('#/order', withReports);
    expect((await entries()).map((e) => e.group)).toEqual(['Orders', 'Customers', 'Billing & AR']);
  });

  it('Marketing is offered nothing whose calls need customer details: no tax certificate, returns or instruments', async () => {
    fakeApi(signInAs('Marketing'));
    renderApp('#/order', { ...screens, reports: page('Reports page'), promotions: page('Promotions page') });
    await screen.findByRole('heading', { name: 'Orders page' });
    expect(await entries()).toEqual([
      {
        group: 'Orders',
        links: [
          ['Orders', '#/order'],
          ['Agents', '#/view-agents'],
          ['Look-ups', '#/lookups'],
        ],
      },
      { group: 'Catalogue', links: [['Promotions', '#/promotions']] },
      {
        group: 'Reports',
        links: [
          ['Customer listing', '#/customer-listing'],
          ['Reports', '#/reports'],
        ],
      },
    ]);
  });

  it('the distributor login is offered exactly what the guard lets it open: its orders, a new order, its agents, the look-ups', async () => {
    // A distributor login (not staff) with the distributor's privileges. Even under a role an admin tool names
    // (Reconciliation: Admin, AR Team), the guard's role rule is for staff sessions only, and so is the navigation's.
    const routes = signInAs('AR Team');
    fakeApi({
      ...routes,
      'GET /api/auth/validate/tok': { ...routes['GET /api/auth/validate/tok'], kind: 'distributor' },
      'GET /api/auth/permission/tok': (r: FakeRequest) =>
        permissionAnswer((r.query.get('privileges') ?? '').split(','), privilegesForRole('Distributor')),
    });
    renderApp('#/order', screens);
    await screen.findByRole('heading', { name: 'Orders page' });
    expect(await entries()).toEqual([
      {
        group: 'Orders',
        links: [
          ['Orders', '#/order'],
          ['New order', '#/neworder'],
          ['Agents', '#/view-agents'],
          ['Look-ups', '#/lookups'],
        ],
      },
    ]);
  });

  it('a make-token session is not offered the order list the guard closes to it', async () => {
    const routes = signInAs('Distributor');
    fakeApi({
      ...routes,
      'GET /api/auth/validate/tok': { ...routes['GET /api/auth/validate/tok'], kind: 'maketoken', maketoken: true },
    });
    renderApp('#/neworder', screens);
    await screen.findByRole('heading', { name: 'New order page' });
    expect(await entries()).toEqual([
      {
        group: 'Orders',
        links: [
          ['New order', '#/neworder'],
          ['Agents', '#/view-agents'],
          ['Look-ups', '#/lookups'],
        ],
      },
    ]);
  });

  it('marks the current screen, and the mark follows the user', async () => {
    fakeApi(signInAs('Admin'));
    renderApp('#/order', screens);
    const nav = await navigation();
    const orders = await nav.findByRole('link', { name: 'Orders' });
    expect(orders.getAttribute('aria-current')).toBe('page');
    expect(nav.getByRole('link', { name: 'Customers' }).getAttribute('aria-current')).toBeNull();

    await userEvent.click(nav.getByRole('link', { name: 'Mailbox' }));
    await screen.findByRole('heading', { name: 'Mailbox page' });
    expect(nav.getByRole('link', { name: 'Mailbox' }).getAttribute('aria-current')).toBe('page');
    expect(nav.getByRole('link', { name: 'Orders' }).getAttribute('aria-current')).toBeNull();
  });

  it('asks the permission call once for the whole navigation, however often the user moves', async () => {
    const { calls } = fakeApi(signInAs('Admin'));
    renderApp('#/order', screens);
    const nav = await navigation();
    await userEvent.click(await nav.findByRole('link', { name: 'Customers' }));
    await screen.findByRole('heading', { name: 'Customer page' });
    await userEvent.click(nav.getByRole('link', { name: 'Job monitor' }));
    await screen.findByRole('heading', { name: 'Job monitor page' });
    expect(shellPermissionCalls(calls)).toHaveLength(1);
  });

  it('the navigation toggle hides the navigation (inert, so the keyboard skips it) and shows it again', async () => {
    fakeApi(signInAs('Admin'));
    renderApp('#/order', screens);
    const toggle = await screen.findByRole('button', { name: 'Navigation' });
    const navbar = screen.getByRole('navigation', { name: 'Main' });
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(toggle.getAttribute('aria-controls')).toBe(navbar.id);
    expect(navbar.hasAttribute('inert')).toBe(false);

    await userEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(navbar.hasAttribute('inert')).toBe(true);
    await userEvent.click(toggle);
    expect(navbar.hasAttribute('inert')).toBe(false);
  });

  it('the links are reachable with the keyboard', async () => {
    fakeApi(signInAs('Operations'));
    renderApp('#/order', screens);
    const nav = await navigation();
    await nav.findByRole('link', { name: 'Customers' });
    const focused: string[] = [];
    for (let i = 0; i < 8 && !focused.includes('Customers'); i += 1) {
      await userEvent.tab();
      focused.push(document.activeElement?.textContent ?? '');
    }
    expect(focused).toContain('Orders');
    expect(focused).toContain('Customers');
    await userEvent.keyboard('{Enter}');
    expect(await screen.findByRole('heading', { name: 'Customer page' })).toBeTruthy();
  });

  it('keeps the bare frame on the sign-in pages, the merchant pages and without a session', async () => {
    const { calls } = fakeApi(signInAs('Admin'));
    const merchant = renderApp('#/confirmation', screens);
    await screen.findByRole('heading', { name: 'Confirmation page' });
    expect(screen.queryByRole('navigation', { name: 'Main' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Search everywhere' })).toBeNull();
    merchant.unmount();

    const login = renderApp('#/login', screens);
    await screen.findByRole('heading', { name: 'Sign in' });
    expect(screen.queryByRole('navigation', { name: 'Main' })).toBeNull();
    login.unmount();

    clearToken();
    renderApp('#/confirmation', screens);
    await screen.findByRole('heading', { name: 'Confirmation page' });
    expect(screen.queryByRole('navigation', { name: 'Main' })).toBeNull();
    expect(shellPermissionCalls(calls)).toHaveLength(0);
  });
});
