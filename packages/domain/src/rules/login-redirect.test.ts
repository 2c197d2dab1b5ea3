import { describe, expect, it } from 'vitest';
import {
  DISTRIBUTOR_LOGIN_REDIRECT,
  isShareableView,
  LOGIN_REDIRECT_PRIVILEGES,
  LOGIN_REDIRECT_RULES,
  loginRedirect,
  signOutRedirect,
} from './login-redirect';

const ZOHO_URL = '/neworder?zoholeadid=4455&src=crm';

describe('loginRedirect — each rule alone', () => {
  it('rule 1: saved new-order CRM URL with create_distributor_orders → that URL, cleared', () => {
    expect(loginRedirect({ returnUrl: ZOHO_URL, granted: ['create_distributor_orders'] })).toEqual({
      path: ZOHO_URL,
      clearReturnUrl: true,
    });
  });

  it.each([
    ['search_orders_view', '/order'],
    ['search_orders_edit', '/order'],
    ['customer_details_view', '/customer'],
    ['customer_details_edit', '/customer'],
    ['failed_payments_edit', '/payments'],
    ['promotions_view', '/promotions'],
    ['promotions_edit', '/promotions'],
    ['reports_edit', '/customer-listing'],
    ['breath_of_life', '/breathoflife'],
  ])('rules 2–7: %s → %s', (permission, path) => {
    expect(loginRedirect({ returnUrl: null, granted: [permission] })).toEqual({ path, clearReturnUrl: false });
  });

  it('no matching rule → null', () => {
    expect(loginRedirect({ granted: [] })).toBeNull();
    expect(loginRedirect({ granted: ['receipts', 'invoices', 'ar_approvals'] })).toBeNull();
    expect(loginRedirect({ returnUrl: '/customer', granted: ['collect_payment'] })).toBeNull();
  });
});

describe('loginRedirect — precedence', () => {
  const all = [
    'create_distributor_orders',
    'search_orders_view',
    'customer_details_view',
    'failed_payments_edit',
    'promotions_view',
    'reports_edit',
    'breath_of_life',
  ];

  it('rule 1 beats every other rule', () => {
    expect(loginRedirect({ returnUrl: ZOHO_URL, granted: all })).toEqual({ path: ZOHO_URL, clearReturnUrl: true });
  });

  it('rule 1 needs both the marker and create_distributor_orders', () => {
    expect(loginRedirect({ returnUrl: ZOHO_URL, granted: ['search_orders_view'] })).toEqual({
      path: '/order',
      clearReturnUrl: false,
    });
    expect(loginRedirect({ returnUrl: '/neworder?other=1', granted: all })?.path).toBe('/order');
    expect(loginRedirect({ returnUrl: ZOHO_URL, granted: ['breath_of_life'] })?.path).toBe('/breathoflife');
    expect(loginRedirect({ returnUrl: ZOHO_URL, granted: [] })).toBeNull();
  });

  it('each later rule applies only when every earlier one fails', () => {
    const expected = ['/order', '/customer', '/payments', '/promotions', '/customer-listing', '/breathoflife'];
    for (let i = 0; i < expected.length; i++) {
      const granted = all.slice(1 + i); // drop rule 1's privilege and rules before i
      expect(loginRedirect({ granted })?.path).toBe(expected[i]);
    }
  });

  it('uses the first rule, not the last, when several match', () => {
    expect(loginRedirect({ granted: ['breath_of_life', 'reports_edit', 'customer_details_edit'] })?.path).toBe(
      '/customer',
    );
    expect(loginRedirect({ granted: ['promotions_edit', 'failed_payments_edit'] })?.path).toBe('/payments');
  });

  it('accepts the server flag map', () => {
    expect(loginRedirect({ granted: { search_orders_view: false, reports_edit: true } })?.path).toBe(
      '/customer-listing',
    );
    expect(
      loginRedirect({ returnUrl: ZOHO_URL, granted: { create_distributor_orders: true, search_orders_edit: true } }),
    ).toEqual({ path: ZOHO_URL, clearReturnUrl: true });
    expect(loginRedirect({ granted: { search_orders_view: false } })).toBeNull();
  });
});

describe('redirect tables', () => {
  it('has six rules after rule 1 and asks the server for all their privileges', () => {
    expect(LOGIN_REDIRECT_RULES.map((r) => r.path)).toEqual([
      '/order',
      '/customer',
      '/payments',
      '/promotions',
      '/customer-listing',
      '/breathoflife',
    ]);
    expect(LOGIN_REDIRECT_PRIVILEGES).toEqual([
      'create_distributor_orders',
      'search_orders_view',
      'search_orders_edit',
      'customer_details_view',
      'customer_details_edit',
      'failed_payments_edit',
      'promotions_view',
      'promotions_edit',
      'reports_edit',
      'breath_of_life',
    ]);
  });

  it('sign-out and distributor login destinations', () => {
    expect(signOutRedirect({ distributor: true })).toBe('/distributor');
    expect(signOutRedirect({ distributor: false })).toBe('/login');
    expect(DISTRIBUTOR_LOGIN_REDIRECT).toBe('/order');
  });

  it('returns to a shared list view (a filtered list, an open record) before rules 2–7 (decision 156)', () => {
    const view = '/view-invoices?status=N&overdue=1&id=12';
    expect(loginRedirect({ returnUrl: view, granted: ['search_orders_view'] })).toEqual({
      path: view,
      clearReturnUrl: true,
    });
    // Not a list, or a list without a view in its query: the landing rules.
    expect(loginRedirect({ returnUrl: '/view-invoices', granted: ['search_orders_view'] })?.path).toBe('/order');
    expect(loginRedirect({ returnUrl: '/neworder?other=1', granted: ['search_orders_view'] })?.path).toBe('/order');
    expect(isShareableView('/order?status=101')).toBe(true);
    expect(isShareableView('/login?x=1')).toBe(false);
  });
});
