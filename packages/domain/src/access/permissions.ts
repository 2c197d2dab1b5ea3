/** Every permission (privilege) name of spec §6. */
export const PERMISSIONS = [
  'search_orders_view',
  'search_orders_edit',
  'create_distributor_orders',
  'customer_details_view',
  'customer_details_edit',
  'failed_payments_edit',
  'promotions_view',
  'promotions_edit',
  'reports_edit',
  'customer_features_edit',
  'customer_features_limited',
  'collect_payment',
  'receipts',
  'invoices',
  'apply_receipt',
  'breath_of_life',
  'ar_approvals',
] as const;

export type Permission = (typeof PERMISSIONS)[number];

export function isPermission(value: string): value is Permission {
  return (PERMISSIONS as readonly string[]).includes(value);
}

/** Spec §6: a check passes when any one of the listed privileges is granted. */
export function hasAnyPermission(granted: Iterable<string>, anyOf: readonly Permission[]): boolean {
  const set = new Set(granted);
  return anyOf.some((p) => set.has(p));
}
