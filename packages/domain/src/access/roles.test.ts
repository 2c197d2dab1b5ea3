import { describe, expect, it } from 'vitest';
import { ORDER_STATUS_LABELS } from '../codes/order-status';
import { PERMISSIONS } from './permissions';
import {
  ROLES,
  ROLE_PRIVILEGES,
  ROLE_START_STATUS,
  effectivePrivileges,
  isRole,
  privilegesForRole,
  roleHasPermission,
  startStatusForRole,
} from './roles';
import { loginRedirect } from '../rules/login-redirect';

describe('roles', () => {
  it('has Admin plus the 14 roles of §6', () => {
    expect(ROLES).toEqual([
      'Admin',
      'AR Team',
      'Customer Service',
      'Customer Support',
      'Customer Care',
      'NRS Pay Support',
      'RAM Support',
      'Operations',
      'Marketing',
      'Distributor',
      'RAM',
      'IS',
      'RSS',
      'MSS',
      'RDC',
    ]);
    expect(isRole('RSS')).toBe(true);
    expect(isRole('admin')).toBe(false);
  });

  it.each([
    ['Admin', 'Draft'],
    ['AR Team', 'Pending AR Approval'],
    ['Customer Service', 'Pending AR Approval'],
    ['Customer Support', 'Pending AR Approval'],
    ['Customer Care', 'Pending AR Approval'],
    ['NRS Pay Support', 'Pending NRS Pay Approval'],
    ['RAM Support', 'Pending Contract Sign'],
    ['Operations', 'Installation'],
    ['Marketing', 'Complete'],
    ['Distributor', 'Draft'],
    ['RAM', 'Draft'],
    ['IS', 'Draft'],
    ['RSS', 'Draft'],
    ['MSS', 'Draft'],
    ['RDC', 'Draft'],
  ] as const)('%s starts from the %s queue', (role, label) => {
    expect(ORDER_STATUS_LABELS[ROLE_START_STATUS[role]]).toBe(label);
  });

  it('an unknown role starts from Draft', () => {
    expect(startStatusForRole('Janitor')).toBe('1');
    expect(startStatusForRole('Operations')).toBe('140');
  });

  it('Admin has every permission', () => {
    expect([...ROLE_PRIVILEGES.Admin].sort()).toEqual([...PERMISSIONS].sort());
  });

  it('AR Team has the AR work privileges', () => {
    expect([...ROLE_PRIVILEGES['AR Team']].sort()).toEqual(
      [
        'search_orders_view',
        'search_orders_edit',
        'customer_details_view',
        'ar_approvals',
        'receipts',
        'apply_receipt',
        'invoices',
        'collect_payment',
        'failed_payments_edit',
        'reports_edit',
      ].sort(),
    );
  });

  it('Distributor has create_distributor_orders only; Marketing has promotions', () => {
    expect(ROLE_PRIVILEGES.Distributor).toEqual(['create_distributor_orders']);
    expect(ROLE_PRIVILEGES.Marketing).toEqual(expect.arrayContaining(['promotions_view', 'promotions_edit']));
    expect(roleHasPermission('Marketing', 'customer_details_edit')).toBe(false);
    expect(roleHasPermission('Distributor', 'search_orders_view')).toBe(false);
  });

  it('no role lists a privilege twice or an unknown privilege', () => {
    for (const role of ROLES) {
      const list = ROLE_PRIVILEGES[role];
      expect(new Set(list).size, role).toBe(list.length);
      for (const p of list) expect(PERMISSIONS, role).toContain(p);
    }
  });

  it('every role can reach the order list it starts from, and sign-in sends it somewhere', () => {
    for (const role of ROLES) {
      const privileges = ROLE_PRIVILEGES[role];
      expect(
        privileges.some((p) => ['search_orders_view', 'search_orders_edit', 'create_distributor_orders'].includes(p)),
        role,
      ).toBe(true);
    }
    // A distributor signing in has no rule 2–7 privilege: it uses the distributor login (→ /order).
    expect(loginRedirect({ granted: ROLE_PRIVILEGES['AR Team'] })?.path).toBe('/order');
    expect(loginRedirect({ granted: ROLE_PRIVILEGES.Distributor })).toBeNull();
  });

  it('roles that start in the approval queue can approve or work it', () => {
    expect(roleHasPermission('AR Team', 'ar_approvals')).toBe(true);
    expect(roleHasPermission('NRS Pay Support', 'search_orders_edit')).toBe(true);
  });

  it('effective privileges add valid additional privileges, in PERMISSIONS order', () => {
    expect(effectivePrivileges('Distributor', ['reports_edit', 'bogus', 'create_distributor_orders'])).toEqual([
      'create_distributor_orders',
      'reports_edit',
    ]);
    expect(effectivePrivileges('Nobody', ['receipts'])).toEqual(['receipts']);
    expect(privilegesForRole('Nobody')).toEqual([]);
  });
});
