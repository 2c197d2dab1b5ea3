import { describe, expect, it } from 'vitest';
import { routePath } from '../access/routes';
import { currentMilestoneIndex, orderMilestones } from './milestones';

describe('orderMilestones', () => {
  it('regular (POS) orders have four steps', () => {
    expect(orderMilestones({ orderType: 'P', fromNewOrder: false })).toEqual([
      { routeId: 'storeInfo', label: 'Store information' },
      { routeId: 'saleSummary', label: 'SELECT HARDWARE' },
      { routeId: 'paymentPlanMethod', label: 'PAYMENT (PLAN / METHOD)' },
      { routeId: 'charges', label: 'Recurring charges' },
    ]);
  });

  it("the first step is 'ORDER' when coming from the new-order page", () => {
    const steps = orderMilestones({ orderType: 'P', fromNewOrder: true });
    expect(steps[0]).toEqual({ routeId: 'storeInfo', label: 'ORDER' });
    expect(steps).toHaveLength(4);
  });

  it('non-POS orders have the first step and recurring charges only', () => {
    expect(orderMilestones({ orderType: 'N', fromNewOrder: false })).toEqual([
      { routeId: 'storeInfo', label: 'Store information' },
      { routeId: 'charges', label: 'Recurring charges' },
    ]);
    expect(orderMilestones({ orderType: 'N', fromNewOrder: true })[0]?.label).toBe('ORDER');
  });

  it('milestones point at the route table paths', () => {
    const paths = orderMilestones({ orderType: 'P', fromNewOrder: false }).map((m) =>
      routePath(m.routeId, { orderId: 9 }),
    );
    expect(paths).toEqual(['/store-info/9', '/sale-summary/9', '/payment-plan-method/9', '/charges/9']);
  });

  it('finds the current milestone, -1 off the flow', () => {
    const steps = orderMilestones({ orderType: 'N', fromNewOrder: false });
    expect(currentMilestoneIndex(steps, 'charges')).toBe(1);
    expect(currentMilestoneIndex(steps, 'saleSummary')).toBe(-1);
    expect(currentMilestoneIndex(steps, 'summary')).toBe(-1);
  });

  it('throws on an unknown order type', () => {
    expect(() => orderMilestones({ orderType: 'X' as never, fromNewOrder: false })).toThrow('unknown order type X');
  });
});
