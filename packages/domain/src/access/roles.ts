import { ORDER_STATUS, type OrderStatusCode } from '../codes/order-status';
import { PERMISSIONS, isPermission, type Permission } from './permissions';

/** Staff roles: 'Admin' plus the roles named in spec §6. */
export const ROLE = {
  ADMIN: 'Admin',
  AR_TEAM: 'AR Team',
  CUSTOMER_SERVICE: 'Customer Service',
  CUSTOMER_SUPPORT: 'Customer Support',
  CUSTOMER_CARE: 'Customer Care',
  NRS_PAY_SUPPORT: 'NRS Pay Support',
  RAM_SUPPORT: 'RAM Support',
  OPERATIONS: 'Operations',
  MARKETING: 'Marketing',
  DISTRIBUTOR: 'Distributor',
  RAM: 'RAM',
  IS: 'IS',
  RSS: 'RSS',
  MSS: 'MSS',
  RDC: 'RDC',
} as const;
export type Role = (typeof ROLE)[keyof typeof ROLE];
export const ROLES: readonly Role[] = Object.values(ROLE);

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/** The order status queue each role starts from (spec §6). Admin is not in the spec: Draft. */
export const ROLE_START_STATUS: Readonly<Record<Role, OrderStatusCode>> = {
  Admin: ORDER_STATUS.DRAFT,
  'AR Team': ORDER_STATUS.PENDING_AR_APPROVAL,
  'Customer Service': ORDER_STATUS.PENDING_AR_APPROVAL,
  'Customer Support': ORDER_STATUS.PENDING_AR_APPROVAL,
  'Customer Care': ORDER_STATUS.PENDING_AR_APPROVAL,
  'NRS Pay Support': ORDER_STATUS.PENDING_NRS_PAY_APPROVAL,
  'RAM Support': ORDER_STATUS.PENDING_CONTRACT_SIGN,
  Operations: ORDER_STATUS.INSTALLATION,
  Marketing: ORDER_STATUS.COMPLETE,
  Distributor: ORDER_STATUS.DRAFT,
  RAM: ORDER_STATUS.DRAFT,
  IS: ORDER_STATUS.DRAFT,
  RSS: ORDER_STATUS.DRAFT,
  MSS: ORDER_STATUS.DRAFT,
  RDC: ORDER_STATUS.DRAFT,
};

/** The queue a role starts from; unknown roles start from Draft. */
export function startStatusForRole(role: string): OrderStatusCode {
  return isRole(role) ? ROLE_START_STATUS[role] : ORDER_STATUS.DRAFT;
}

/** Privileges every order-working staff role needs to reach its queue on /order. */
const ORDER_QUEUE: readonly Permission[] = ['search_orders_view', 'search_orders_edit'];
/** Sales roles that create orders and follow their customers (start from Draft). */
const SALES: readonly Permission[] = [...ORDER_QUEUE, 'create_distributor_orders', 'customer_details_view'];

/**
 * The privileges each role is granted (spec §6 leaves "the rights themselves" open — this is our design).
 * Principle: a role gets what its queue and its daily work need, nothing more; anything extra is given
 * per user through `additional_privileges`.
 * - Admin: every permission.
 * - AR Team (queue Pending AR Approval): orders, read-only customer details, approvals, receipts and
 *   applying them, invoices, collecting payments and failed payments, and the reports (AR aging is their daily
 *   work list; decision 128).
 * - Customer Service / Customer Support / Customer Care (same AR queue, customer-facing): orders,
 *   customer details view+edit, failed payments and invoices; Support may change terminal features
 *   (customer_features_edit), Service and Care only the limited set (customer_features_limited); Care also
 *   collects payments and runs "breath of life" (win-back of lapsed stores).
 * - NRS Pay Support (queue Pending NRS Pay Approval): orders, customer details view+edit, feature edits,
 *   failed payments.
 * - RAM Support (queue Pending Contract Sign): orders, customer details view+edit, limited features.
 * - Operations (queue Installation): orders, customer details view, feature edits (installs), reports.
 * - Marketing (queue Complete): order search read-only, promotions view+edit, reports (customer listing).
 * - Distributor and RDC (external agents): create_distributor_orders only — the new-order pages and the
 *   order list guarded by it.
 * - RAM, IS, RSS, MSS (internal sales, queue Draft): orders, order creation, customer details view.
 */
export const ROLE_PRIVILEGES: Readonly<Record<Role, readonly Permission[]>> = {
  Admin: PERMISSIONS,
  'AR Team': [
    ...ORDER_QUEUE,
    'customer_details_view',
    'ar_approvals',
    'receipts',
    'apply_receipt',
    'invoices',
    'collect_payment',
    'failed_payments_edit',
    'reports_edit',
  ],
  'Customer Service': [
    ...ORDER_QUEUE,
    'customer_details_view',
    'customer_details_edit',
    'customer_features_limited',
    'failed_payments_edit',
    'invoices',
  ],
  'Customer Support': [
    ...ORDER_QUEUE,
    'customer_details_view',
    'customer_details_edit',
    'customer_features_edit',
    'failed_payments_edit',
    'invoices',
  ],
  'Customer Care': [
    ...ORDER_QUEUE,
    'customer_details_view',
    'customer_details_edit',
    'customer_features_limited',
    'failed_payments_edit',
    'invoices',
    'collect_payment',
    'breath_of_life',
  ],
  'NRS Pay Support': [
    ...ORDER_QUEUE,
    'customer_details_view',
    'customer_details_edit',
    'customer_features_edit',
    'failed_payments_edit',
  ],
  'RAM Support': [...ORDER_QUEUE, 'customer_details_view', 'customer_details_edit', 'customer_features_limited'],
  Operations: [...ORDER_QUEUE, 'customer_details_view', 'customer_features_edit', 'reports_edit'],
  Marketing: ['search_orders_view', 'promotions_view', 'promotions_edit', 'reports_edit'],
  Distributor: ['create_distributor_orders'],
  RAM: SALES,
  IS: SALES,
  RSS: SALES,
  MSS: SALES,
  RDC: ['create_distributor_orders'],
};

/** A role's own privileges; an unknown role has none. */
export function privilegesForRole(role: string): readonly Permission[] {
  return isRole(role) ? ROLE_PRIVILEGES[role] : [];
}

/**
 * The privileges of a session: its role's privileges plus the user's additional_privileges (unknown
 * names are dropped), deduplicated, in PERMISSIONS order.
 */
export function effectivePrivileges(role: string, additional: Iterable<string> = []): Permission[] {
  const granted = new Set<string>(privilegesForRole(role));
  for (const p of additional) if (isPermission(p)) granted.add(p);
  return PERMISSIONS.filter((p) => granted.has(p));
}

export function roleHasPermission(role: string, permission: Permission): boolean {
  return privilegesForRole(role).includes(permission);
}
