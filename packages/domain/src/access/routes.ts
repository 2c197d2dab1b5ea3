import type { Permission } from './permissions';
import type { Role } from './roles';

/**
 * The route table of spec §2. `path` uses react-router's pattern syntax (`:param`).
 * guard: none — public; session — any valid session; permissions — a valid session plus any one of `anyOf`.
 */
export type RouteGuard =
  | { readonly kind: 'none' }
  | { readonly kind: 'session' }
  | { readonly kind: 'permissions'; readonly anyOf: readonly Permission[] }
  /** Staff tools beyond the spec's screens (Mailbox, job monitor): a valid staff session with one of these roles. */
  | { readonly kind: 'roles'; readonly anyOf: readonly Role[] };

export interface RouteDef {
  /** Stable id used by the web app to map a route to its lazily loaded page. */
  readonly id: string;
  readonly path: string;
  readonly guard: RouteGuard;
  readonly title: string;
}

const none = { kind: 'none' } as const;
const session = { kind: 'session' } as const;
const perms = (...anyOf: Permission[]): RouteGuard => ({ kind: 'permissions', anyOf });
const roles = (...anyOf: Role[]): RouteGuard => ({ kind: 'roles', anyOf });

export const ROUTES = [
  { id: 'root', path: '', guard: none, title: 'Redirect to sign-in' },
  { id: 'login', path: 'login', guard: none, title: 'Sign in' },
  {
    id: 'order',
    path: 'order',
    guard: perms('search_orders_edit', 'search_orders_view', 'create_distributor_orders'),
    title: 'Orders',
  },
  { id: 'storeInfo', path: 'store-info/:orderId', guard: none, title: 'Store information' },
  { id: 'saleSummary', path: 'sale-summary/:orderId', guard: session, title: 'Sale summary' },
  { id: 'paymentPlanMethod', path: 'payment-plan-method/:orderId', guard: session, title: 'Payment (plan / method)' },
  { id: 'charges', path: 'charges/:orderId', guard: session, title: 'Recurring charges' },
  { id: 'summary', path: 'summary/:orderId', guard: session, title: 'Summary' },
  { id: 'contractReauthorize', path: 'contract/reauthorize/:tok', guard: none, title: 'Re-authorize payment' },
  { id: 'contract', path: 'contract/:tok', guard: none, title: 'Contract' },
  { id: 'confirmation', path: 'confirmation', guard: none, title: 'Confirmation' },
  { id: 'uploadContract', path: 'upload-contract', guard: none, title: 'Upload contract' },
  {
    id: 'customer',
    path: 'customer',
    guard: perms('customer_details_view', 'customer_details_edit'),
    title: 'Customer details',
  },
  { id: 'payments', path: 'payments', guard: perms('failed_payments_edit'), title: 'Failed payments' },
  { id: 'promotions', path: 'promotions', guard: perms('promotions_view', 'promotions_edit'), title: 'Promotions' },
  { id: 'customerListing', path: 'customer-listing', guard: perms('reports_edit'), title: 'Customer listing' },
  { id: 'reports', path: 'reports', guard: perms('reports_edit'), title: 'Reports' },
  { id: 'editPayment', path: 'editpayment', guard: perms('customer_details_edit'), title: 'Edit payment' },
  { id: 'editPaymentPlan', path: 'editpaymentplan', guard: perms('customer_details_edit'), title: 'Edit payment plan' },
  {
    id: 'editPlan',
    path: 'editplan',
    guard: perms('customer_features_edit', 'customer_features_limited'),
    title: 'Edit plan',
  },
  {
    id: 'customerPaymentCollection',
    path: 'customer/payment/:paymentPlanId/collection',
    guard: perms('collect_payment'),
    title: 'Payment collection',
  },
  {
    id: 'customerPaymentInstrument',
    path: 'customer/payment/instrument/:tok',
    guard: none,
    title: 'Payment instrument',
  },
  { id: 'customerPayment', path: 'customer/payment/:tok', guard: none, title: 'Payment' },
  { id: 'customerFeatures', path: 'customer/features/:tok', guard: none, title: 'Features' },
  { id: 'returnsRefund', path: 'returns-refund', guard: session, title: 'Returns and refunds' },
  { id: 'viewReturns', path: 'viewreturns', guard: session, title: 'Returns' },
  { id: 'refund', path: 'refund', guard: session, title: 'Refund' },
  { id: 'paymentInstruments', path: 'payment/instruments', guard: session, title: 'Payment instruments' },
  { id: 'distributor', path: 'distributor', guard: none, title: 'Distributor sign-in' },
  { id: 'distributorPasswordReset', path: 'distributor/passsword/reset/:tok', guard: none, title: 'Reset password' },
  { id: 'distributorPasswordResetAlt', path: 'distributor/password/reset/:tok', guard: none, title: 'Reset password' },
  { id: 'newOrder', path: 'neworder', guard: perms('create_distributor_orders'), title: 'New order' },
  {
    id: 'newOrderForCustomer',
    path: 'neworder/:fedTaxId',
    guard: perms('create_distributor_orders'),
    title: 'New order',
  },
  {
    id: 'newOrderForStore',
    path: 'neworder/:fedTaxId/:storeId',
    guard: perms('create_distributor_orders'),
    title: 'New order',
  },
  { id: 'arizona', path: 'arizona', guard: session, title: 'Tax certificate' },
  { id: 'additionalItems', path: 'additional-items/:customerId/:storeId', guard: session, title: 'Additional items' },
  {
    id: 'additionalItemsOrder',
    path: 'additional-items/order/:orderId/:status',
    guard: session,
    title: 'Additional items for an order',
  },
  { id: 'viewAgents', path: 'view-agents', guard: session, title: 'Agents' },
  { id: 'viewAgentStores', path: 'view-agent-stores/:agentId/:agentName', guard: session, title: 'Agent stores' },
  { id: 'newAgent', path: 'new-agent/:agentId', guard: session, title: 'New agent' },
  { id: 'viewReceipts', path: 'view-receipts', guard: perms('receipts'), title: 'Receipts' },
  { id: 'applyReceipt', path: 'view-receipts/:applyReceipt', guard: perms('apply_receipt'), title: 'Apply a receipt' },
  { id: 'viewInvoices', path: 'view-invoices', guard: perms('invoices'), title: 'Invoices' },
  { id: 'breathOfLife', path: 'breathoflife', guard: perms('breath_of_life'), title: 'Breath of life' },
  { id: 'approvals', path: 'approvals', guard: perms('ar_approvals'), title: 'Approvals' },
  // Not in the spec's table: admin tools (issue 5).
  { id: 'adminMailbox', path: 'admin/mailbox', guard: roles('Admin'), title: 'Mailbox' },
  { id: 'adminJobs', path: 'admin/jobs', guard: roles('Admin'), title: 'Job monitor' },
] as const satisfies readonly RouteDef[];

export type RouteId = (typeof ROUTES)[number]['id'];

export function routeById(id: RouteId): RouteDef {
  const route = ROUTES.find((r) => r.id === id);
  if (!route) throw new Error(`unknown route id ${id}`);
  return route;
}

/** Fill a route pattern's `:params`; returns a path with a leading slash, for links and navigation. */
export function routePath(id: RouteId, params: Record<string, string | number> = {}): string {
  const pattern = routeById(id).path;
  const filled = pattern.replace(/:([A-Za-z]+)/g, (_m, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`route ${id} needs param ${name}`);
    return encodeURIComponent(String(value));
  });
  return `/${filled}`;
}
