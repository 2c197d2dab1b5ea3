import { describe, expect, it } from 'vitest';
import {
  guardAllows,
  mayOpenRoute,
  NAV_PRIVILEGES,
  NAV_ROUTES,
  navigationFor,
  type RouteAccessFacts,
} from './navigation';
import { PERMISSIONS } from './permissions';
import { privilegesForRole } from './roles';
import { routeById, ROUTE_DEFS, type RouteId } from './routes';

const staff = (role: string): RouteAccessFacts => ({
  granted: privilegesForRole(role),
  role,
  staff: true,
  distributorToken: false,
});
const built = new Set<RouteId>([
  'order',
  'newOrder',
  'customer',
  'editPayment',
  'adminMailbox',
  'adminJobs',
  'adminCatalogue',
  'login',
]);
const hasScreen = (id: RouteId) => built.has(id);
const labels = (facts: RouteAccessFacts, screens = hasScreen) =>
  navigationFor(facts, screens).map((s) => [s.group, s.entries.map((e) => e.label)]);

describe('route guard as a predicate', () => {
  it('lets public and session routes through, a permission list on any one, a role list for staff of that role', () => {
    const ops = staff('Operations');
    expect(guardAllows({ kind: 'none' }, ops)).toBe(true);
    expect(guardAllows({ kind: 'session' }, ops)).toBe(true);
    expect(guardAllows({ kind: 'permissions', anyOf: ['reports_edit', 'invoices'] }, ops)).toBe(true);
    expect(guardAllows({ kind: 'permissions', anyOf: ['invoices'] }, ops)).toBe(false);
    expect(guardAllows({ kind: 'roles', anyOf: ['Admin'] }, ops)).toBe(false);
    expect(guardAllows({ kind: 'roles', anyOf: ['Admin'] }, staff('Admin'))).toBe(true);
    expect(guardAllows({ kind: 'roles', anyOf: ['Admin'] }, { ...staff('Admin'), staff: false })).toBe(false);
  });

  it('closes exactly /order to a make-token session (spec §4)', () => {
    const token = { ...staff('Distributor'), distributorToken: true };
    expect(mayOpenRoute(routeById('order'), token)).toBe(false);
    expect(mayOpenRoute(routeById('newOrder'), token)).toBe(true);
    expect(mayOpenRoute(routeById('order'), staff('Distributor'))).toBe(true);
  });
});

describe('navigation', () => {
  it('lists only routes without path params and never the sign-in or merchant pages', () => {
    expect(NAV_ROUTES.length).toBeGreaterThan(0);
    for (const r of NAV_ROUTES) {
      expect(r.path, r.id).not.toContain(':');
      expect(r.frame, r.id).toBeUndefined();
    }
    for (const r of ROUTE_DEFS.filter((d) => d.frame === 'bare')) expect(r.guard.kind, r.id).toBe('none');
  });

  it('asks for every privilege a navigation entry is guarded by, each once', () => {
    expect(new Set(NAV_PRIVILEGES).size).toBe(NAV_PRIVILEGES.length);
    for (const r of NAV_ROUTES)
      if (r.guard.kind === 'permissions') for (const p of r.guard.anyOf) expect(NAV_PRIVILEGES).toContain(p);
  });

  it('Admin: every built screen, grouped in NAV_GROUPS order; routes without a screen are left out', () => {
    expect(labels(staff('Admin'))).toEqual([
      ['Orders', ['Orders', 'New order']],
      ['Customers', ['Customers']],
      ['Admin', ['Mailbox', 'Job monitor', 'Catalogue']],
    ]);
  });

  it('Operations: orders and customers only', () => {
    expect(labels(staff('Operations'))).toEqual([
      ['Orders', ['Orders']],
      ['Customers', ['Customers']],
    ]);
  });

  it('a screen shows up once it exists, for the roles that may open it', () => {
    const all = () => true;
    const entriesOf = (role: string) => navigationFor(staff(role), all).flatMap((s) => s.entries.map((e) => e.id));
    expect(entriesOf('Operations')).toContain('reports');
    expect(entriesOf('Operations')).not.toContain('viewInvoices');
    expect(entriesOf('AR Team')).toEqual(
      expect.arrayContaining(['viewInvoices', 'viewReceipts', 'approvals', 'payments']),
    );
    expect(entriesOf('Marketing')).toEqual(expect.arrayContaining(['promotions', 'customerListing']));
    expect(entriesOf('Marketing')).not.toContain('customer');
  });

  it('never offers a screen whose every call the session would be refused (issue 30, decision 154)', () => {
    const all = () => true;
    const entriesOf = (facts: RouteAccessFacts) => navigationFor(facts, all).flatMap((s) => s.entries.map((e) => e.id));
    const customerScreens: RouteId[] = ['arizona', 'returnsRefund', 'viewReturns', 'refund', 'paymentInstruments'];
    for (const id of customerScreens) {
      expect(entriesOf(staff('Marketing')), id).not.toContain(id);
      expect(entriesOf(staff('Operations')), id).toContain(id);
    }
    // AR reads returns and refunds them, without customer_details_edit; its instruments come with customer details.
    expect(entriesOf(staff('AR Team'))).toEqual(expect.arrayContaining(customerScreens));
    // The distributor login: its orders, a new order, its agents and the look-ups — nothing else.
    expect(entriesOf({ ...staff('Distributor'), staff: false })).toEqual([
      'order',
      'newOrder',
      'viewAgents',
      'lookups',
    ]);
    // A role rule is for staff: a distributor login under an admin tool's role is not offered it.
    expect(entriesOf({ ...staff('Distributor'), role: 'AR Team', staff: false })).not.toContain('adminReconciliation');
  });

  it('a make-token session (distributor) gets New order but not the order list', () => {
    expect(labels({ ...staff('Distributor'), distributorToken: true, staff: false })).toEqual([
      ['Orders', ['New order']],
    ]);
  });

  it('entries link to their path and use the nav label, else the title', () => {
    const [orders, customers] = navigationFor({ ...staff('Admin'), granted: PERMISSIONS }, hasScreen);
    expect(orders?.entries[0]).toEqual({ id: 'order', path: '/order', label: 'Orders' });
    expect(customers?.entries[0]).toEqual({ id: 'customer', path: '/customer', label: 'Customers' });
  });
});
