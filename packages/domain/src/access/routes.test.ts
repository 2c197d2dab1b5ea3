import { describe, expect, it } from 'vitest';
import { ROUTES, routeById, routePath } from './routes';

describe('route table', () => {
  it('has unique ids and unique paths', () => {
    expect(new Set(ROUTES.map((r) => r.id)).size).toBe(ROUTES.length);
    expect(new Set(ROUTES.map((r) => r.path)).size).toBe(ROUTES.length);
  });

  it('guards routes as §2 says', () => {
    expect(routeById('order').guard).toEqual({
      kind: 'permissions',
      anyOf: ['search_orders_edit', 'search_orders_view', 'create_distributor_orders'],
    });
    expect(routeById('storeInfo').guard).toEqual({ kind: 'none' });
    expect(routeById('saleSummary').guard).toEqual({ kind: 'session' });
    expect(routeById('editPlan').guard).toEqual({
      kind: 'permissions',
      anyOf: ['customer_features_edit', 'customer_features_limited'],
    });
    expect(routeById('customerPaymentCollection').guard).toEqual({ kind: 'permissions', anyOf: ['collect_payment'] });
    expect(routeById('applyReceipt').guard).toEqual({ kind: 'permissions', anyOf: ['apply_receipt'] });
    expect(routeById('approvals').guard).toEqual({ kind: 'permissions', anyOf: ['ar_approvals'] });
    expect(routeById('contract').guard).toEqual({ kind: 'none' });
    expect(routeById('distributor').guard).toEqual({ kind: 'none' });
    expect(routeById('salesPerson').guard).toEqual({ kind: 'permissions', anyOf: ['reports_edit'] });
    expect(routeById('salesPerson').nav).toBeUndefined();
    expect(routeById('adminReconciliation').guard).toEqual({ kind: 'roles', anyOf: ['Admin', 'AR Team'] });
    expect(routeById('adminReconciliation').nav).toEqual({ group: 'Admin' });
    expect(routeById('adminStaff')).toMatchObject({
      path: 'admin/staff',
      guard: { kind: 'roles', anyOf: ['Admin'] },
      title: 'Staff',
      nav: { group: 'Admin' },
    });
  });

  it('guards the screens the spec leaves to a session by what their calls need (decision 154)', () => {
    const customerRead = { kind: 'permissions', anyOf: ['customer_details_view', 'customer_details_edit'] };
    const returnsRead = {
      kind: 'permissions',
      anyOf: ['customer_details_view', 'customer_details_edit', 'ar_approvals'],
    };
    expect(routeById('arizona').guard).toEqual(customerRead);
    expect(routeById('paymentInstruments').guard).toEqual(customerRead);
    for (const id of ['returnsRefund', 'viewReturns', 'refund'] as const)
      expect(routeById(id).guard).toEqual(returnsRead);
    expect(routeById('viewAgents').guard).toEqual({ kind: 'session' });
  });

  it('every permission guard lists at least one permission', () => {
    for (const r of ROUTES) {
      if (r.guard.kind === 'permissions') expect(r.guard.anyOf.length).toBeGreaterThan(0);
    }
  });

  it('keeps the specific collection route before the generic token route', () => {
    const ids = ROUTES.map((r) => r.id);
    expect(ids.indexOf('customerPaymentCollection')).toBeLessThan(ids.indexOf('customerPayment'));
    expect(ids.indexOf('customerPaymentInstrument')).toBeLessThan(ids.indexOf('customerPayment'));
    expect(ids.indexOf('contractReauthorize')).toBeLessThan(ids.indexOf('contract'));
  });

  it('fills path params, encoded', () => {
    expect(routePath('order')).toBe('/order');
    expect(routePath('root')).toBe('/');
    expect(routePath('storeInfo', { orderId: 42 })).toBe('/store-info/42');
    expect(routePath('newOrderForStore', { fedTaxId: '12-3456789', storeId: 7 })).toBe('/neworder/12-3456789/7');
    expect(routePath('viewAgentStores', { agentId: 3, agentName: 'Ann & Bob' })).toBe(
      '/view-agent-stores/3/Ann%20%26%20Bob',
    );
    expect(routePath('distributorPasswordReset', { tok: 'abc' })).toBe('/distributor/passsword/reset/abc');
    expect(routePath('salesPerson', { salesPersonId: 12 })).toBe('/sales-person/12');
  });

  it('throws on a missing param or an unknown id', () => {
    expect(() => routePath('charges')).toThrow('route charges needs param orderId');
    expect(() => routeById('nope' as never)).toThrow('unknown route id nope');
  });
});
