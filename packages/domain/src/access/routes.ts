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

/** The groups of the staff navigation, in the order they show (decision 106). */
export const NAV_GROUPS = ['Orders', 'Customers', 'Billing & AR', 'Catalogue', 'Reports', 'Admin'] as const;
export type NavGroup = (typeof NAV_GROUPS)[number];

/** A route's place in the staff navigation: its group and, when it differs from the title, its label. */
export interface RouteNav {
  readonly group: NavGroup;
  readonly label?: string;
}

export interface RouteDef {
  /** Stable id used by the web app to map a route to its lazily loaded page. */
  readonly id: string;
  readonly path: string;
  readonly guard: RouteGuard;
  readonly title: string;
  /**
   * A screen of its own that staff open from the navigation (never a route with path params: those open from a
   * record). Listed only once the web app has its page and the user may open it (decision 106).
   */
  readonly nav?: RouteNav;
  /**
   * 'bare': shown without the staff navigation (the application shell) even to a signed-in user — the sign-in
   * pages and the merchant's token pages (decision 106).
   */
  readonly frame?: 'bare';
}

const none = { kind: 'none' } as const;
const session = { kind: 'session' } as const;
const perms = (...anyOf: Permission[]): RouteGuard => ({ kind: 'permissions', anyOf });
const roles = (...anyOf: Role[]): RouteGuard => ({ kind: 'roles', anyOf });
const nav = (group: NavGroup, label?: string): RouteNav => (label ? { group, label } : { group });
const bare = 'bare' as const;
/** What reading a customer's records takes on the server (the screens built on it: decision 154). */
const CUSTOMER_READ = perms('customer_details_view', 'customer_details_edit');
/** What reading returns takes on the server (decision 122): customer details, or AR's approvals. */
const RETURNS_READ = perms('customer_details_view', 'customer_details_edit', 'ar_approvals');

export const ROUTES = [
  { id: 'root', path: '', guard: none, title: 'Redirect to sign-in' },
  { id: 'login', path: 'login', guard: none, title: 'Sign in', frame: bare },
  {
    id: 'order',
    path: 'order',
    guard: perms('search_orders_edit', 'search_orders_view', 'create_distributor_orders'),
    title: 'Orders',
    nav: nav('Orders'),
  },
  { id: 'storeInfo', path: 'store-info/:orderId', guard: none, title: 'Store information' },
  { id: 'saleSummary', path: 'sale-summary/:orderId', guard: session, title: 'Sale summary' },
  { id: 'paymentPlanMethod', path: 'payment-plan-method/:orderId', guard: session, title: 'Payment (plan / method)' },
  { id: 'charges', path: 'charges/:orderId', guard: session, title: 'Recurring charges' },
  { id: 'summary', path: 'summary/:orderId', guard: session, title: 'Summary' },
  {
    id: 'contractReauthorize',
    path: 'contract/reauthorize/:tok',
    guard: none,
    title: 'Re-authorize payment',
    frame: bare,
  },
  { id: 'contract', path: 'contract/:tok', guard: none, title: 'Contract', frame: bare },
  { id: 'confirmation', path: 'confirmation', guard: none, title: 'Confirmation', frame: bare },
  { id: 'uploadContract', path: 'upload-contract', guard: none, title: 'Upload contract' },
  {
    id: 'customer',
    path: 'customer',
    guard: perms('customer_details_view', 'customer_details_edit'),
    title: 'Customer details',
    nav: nav('Customers', 'Customers'),
  },
  {
    id: 'payments',
    path: 'payments',
    guard: perms('failed_payments_edit'),
    title: 'Failed payments',
    nav: nav('Billing & AR'),
  },
  {
    id: 'promotions',
    path: 'promotions',
    guard: perms('promotions_view', 'promotions_edit'),
    title: 'Promotions',
    nav: nav('Catalogue'),
  },
  {
    id: 'customerListing',
    path: 'customer-listing',
    guard: perms('reports_edit'),
    title: 'Customer listing',
    nav: nav('Reports'),
  },
  { id: 'reports', path: 'reports', guard: perms('reports_edit'), title: 'Reports', nav: nav('Reports') },
  // A sales person's record, monthly sales and customers (decision 129); opened from the Sales report or a customer.
  { id: 'salesPerson', path: 'sales-person/:salesPersonId', guard: perms('reports_edit'), title: 'Sales person' },
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
    frame: bare,
  },
  { id: 'customerPayment', path: 'customer/payment/:tok', guard: none, title: 'Payment', frame: bare },
  { id: 'customerFeatures', path: 'customer/features/:tok', guard: none, title: 'Features', frame: bare },
  // The spec guards the returns screens, Payment instruments and /arizona (below) by a session only; every call of those
  // screens needs customer details (returns: or AR), so their guard says so — a session without it is neither
  // offered them in the navigation nor let in (decision 154).
  {
    id: 'returnsRefund',
    path: 'returns-refund',
    guard: RETURNS_READ,
    title: 'Returns and refunds',
    nav: nav('Billing & AR'),
  },
  { id: 'viewReturns', path: 'viewreturns', guard: RETURNS_READ, title: 'Returns', nav: nav('Billing & AR') },
  { id: 'refund', path: 'refund', guard: RETURNS_READ, title: 'Refund', nav: nav('Billing & AR') },
  {
    id: 'paymentInstruments',
    path: 'payment/instruments',
    guard: CUSTOMER_READ,
    title: 'Payment instruments',
    nav: nav('Billing & AR'),
  },
  { id: 'distributor', path: 'distributor', guard: none, title: 'Distributor sign-in', frame: bare },
  {
    id: 'distributorPasswordReset',
    path: 'distributor/passsword/reset/:tok',
    guard: none,
    title: 'Reset password',
    frame: bare,
  },
  {
    id: 'distributorPasswordResetAlt',
    path: 'distributor/password/reset/:tok',
    guard: none,
    title: 'Reset password',
    frame: bare,
  },
  {
    id: 'newOrder',
    path: 'neworder',
    guard: perms('create_distributor_orders'),
    title: 'New order',
    nav: nav('Orders'),
  },
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
  { id: 'arizona', path: 'arizona', guard: CUSTOMER_READ, title: 'Tax certificate', nav: nav('Customers') },
  { id: 'additionalItems', path: 'additional-items/:customerId/:storeId', guard: session, title: 'Additional items' },
  {
    id: 'additionalItemsOrder',
    path: 'additional-items/order/:orderId/:status',
    guard: session,
    title: 'Additional items for an order',
  },
  { id: 'viewAgents', path: 'view-agents', guard: session, title: 'Agents', nav: nav('Orders') },
  // §1: what agents and staff look up while they sell — billing items, terminal products, bundle prices, a referral
  // (decision 161); the catalogue calls any session may make.
  { id: 'lookups', path: 'lookups', guard: session, title: 'Look-ups', nav: nav('Orders') },
  { id: 'viewAgentStores', path: 'view-agent-stores/:agentId/:agentName', guard: session, title: 'Agent stores' },
  { id: 'newAgent', path: 'new-agent/:agentId', guard: session, title: 'New agent' },
  {
    id: 'viewReceipts',
    path: 'view-receipts',
    guard: perms('receipts'),
    title: 'Receipts',
    nav: nav('Billing & AR'),
  },
  { id: 'applyReceipt', path: 'view-receipts/:applyReceipt', guard: perms('apply_receipt'), title: 'Apply a receipt' },
  {
    id: 'viewInvoices',
    path: 'view-invoices',
    guard: perms('invoices'),
    title: 'Invoices',
    nav: nav('Billing & AR'),
  },
  {
    id: 'breathOfLife',
    path: 'breathoflife',
    guard: perms('breath_of_life'),
    title: 'Breath of life',
    nav: nav('Customers'),
  },
  {
    id: 'approvals',
    path: 'approvals',
    guard: perms('ar_approvals'),
    title: 'Approvals',
    nav: nav('Billing & AR'),
  },
  // Issue 28 item 5: the journal's trial balance, tie-outs and general-ledger export (decision 146).
  {
    id: 'accounting',
    path: 'accounting',
    guard: perms('ar_approvals'),
    title: 'Month-end accounting',
    nav: nav('Billing & AR'),
  },
  // Not in the spec's table: admin tools (issue 5).
  { id: 'adminMailbox', path: 'admin/mailbox', guard: roles('Admin'), title: 'Mailbox', nav: nav('Admin') },
  { id: 'adminJobs', path: 'admin/jobs', guard: roles('Admin'), title: 'Job monitor', nav: nav('Admin') },
  { id: 'adminBilling', path: 'admin/billing', guard: roles('Admin'), title: 'Billing runs', nav: nav('Admin') },
  // Issue 17: catalogue management (billing items, bundles, products and terminals, look-up lists; decision 126).
  { id: 'adminCatalogue', path: 'admin/catalogue', guard: roles('Admin'), title: 'Catalogue', nav: nav('Admin') },
  { id: 'adminTaxes', path: 'admin/taxes', guard: roles('Admin'), title: 'Tax rates', nav: nav('Admin') },
  // Issue 31 item 2: staff accounts — role, extra privileges, deactivate / reactivate (decision 157).
  { id: 'adminStaff', path: 'admin/staff', guard: roles('Admin'), title: 'Staff', nav: nav('Admin') },
  // Issue 28: the gateway's books beside ours, per day and currency (decision 146); AR's work, in the Admin group.
  {
    id: 'adminReconciliation',
    path: 'admin/reconciliation',
    guard: roles('Admin', 'AR Team'),
    title: 'Reconciliation',
    nav: nav('Admin'),
  },
] as const satisfies readonly RouteDef[];

export type RouteId = (typeof ROUTES)[number]['id'];

/** The route table as plain RouteDefs with typed ids, for code that reads the optional fields (nav, frame). */
export const ROUTE_DEFS: readonly (RouteDef & { readonly id: RouteId })[] = ROUTES;

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
