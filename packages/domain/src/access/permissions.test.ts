import { describe, expect, it } from 'vitest';
import { PERMISSIONS, hasAnyPermission, isPermission } from './permissions';

describe('permissions', () => {
  it('lists the 17 privilege names of §6 once each', () => {
    expect(PERMISSIONS).toHaveLength(17);
    expect(new Set(PERMISSIONS).size).toBe(17);
    expect(PERMISSIONS).toEqual(
      expect.arrayContaining(['search_orders_view', 'create_distributor_orders', 'breath_of_life', 'ar_approvals']),
    );
  });

  it('recognises permission names exactly', () => {
    expect(isPermission('apply_receipt')).toBe(true);
    expect(isPermission('Apply_Receipt')).toBe(false);
    expect(isPermission('admin')).toBe(false);
  });

  it('passes when any one of the listed privileges is granted', () => {
    expect(hasAnyPermission(['promotions_view'], ['promotions_view', 'promotions_edit'])).toBe(true);
    expect(hasAnyPermission(new Set(['reports_edit']), ['promotions_view', 'promotions_edit'])).toBe(false);
    expect(hasAnyPermission([], ['receipts'])).toBe(false);
    expect(hasAnyPermission(['receipts'], [])).toBe(false);
  });
});
