import type { Permission } from '../access/permissions';
import { routePath } from '../access/routes';

/** Marker of a saved CRM-lead new-order return URL (sign-in rule 1). */
export const ZOHO_NEW_ORDER_MARKER = 'neworder?zoholeadid';

/**
 * Sign-in redirect rules 2–7 of spec §4, in order of precedence (rule 1, the saved new-order URL, is
 * checked first in `loginRedirect`). Paths come from the route table.
 */
export const LOGIN_REDIRECT_RULES: readonly { readonly anyOf: readonly Permission[]; readonly path: string }[] = [
  { anyOf: ['search_orders_view', 'search_orders_edit'], path: routePath('order') },
  { anyOf: ['customer_details_view', 'customer_details_edit'], path: routePath('customer') },
  { anyOf: ['failed_payments_edit'], path: routePath('payments') },
  { anyOf: ['promotions_view', 'promotions_edit'], path: routePath('promotions') },
  { anyOf: ['reports_edit'], path: routePath('customerListing') },
  { anyOf: ['breath_of_life'], path: routePath('breathOfLife') },
];

/** Every privilege the sign-in redirect asks the server about (for ?privileges=…). */
export const LOGIN_REDIRECT_PRIVILEGES: readonly Permission[] = [
  'create_distributor_orders',
  ...LOGIN_REDIRECT_RULES.flatMap((r) => r.anyOf),
];

/** Granted privileges as a list/set of names, or as the server's `info.permissions` flag map. */
export type GrantedPrivileges = Iterable<string> | Readonly<Record<string, boolean | undefined>>;

function grantedSet(granted: GrantedPrivileges): Set<string> {
  if (typeof (granted as Iterable<string>)[Symbol.iterator] === 'function') {
    return new Set(granted as Iterable<string>);
  }
  return new Set(
    Object.entries(granted as Record<string, boolean | undefined>)
      .filter(([, on]) => on === true)
      .map(([name]) => name),
  );
}

/**
 * The lists whose address is a view someone can share (issue 30, decision 156): filters, sort, page and the open
 * row are in the query. A saved return URL of one of these, with a query, is where sign-in returns — the colleague
 * who opens a shared link, or the user whose session ended, sees that view after signing in (the route guard still
 * decides whether they may).
 */
export const SHAREABLE_VIEW_PATHS: readonly string[] = (
  [
    'order',
    'customer',
    'payments',
    'promotions',
    'customerListing',
    'reports',
    'returnsRefund',
    'viewReturns',
    'refund',
    'viewAgents',
    'lookups',
    'viewReceipts',
    'viewInvoices',
    'breathOfLife',
    'approvals',
    'adminReconciliation',
  ] as const
).map((id) => routePath(id));

/** A saved return URL that names a shared list view ('/view-invoices?status=N&id=12'). */
export function isShareableView(returnUrl: string): boolean {
  const q = returnUrl.indexOf('?');
  return q > 0 && q < returnUrl.length - 1 && SHAREABLE_VIEW_PATHS.includes(returnUrl.slice(0, q));
}

export interface LoginRedirect {
  readonly path: string;
  /** True when the saved return URL must be removed from storage. */
  readonly clearReturnUrl: boolean;
}

/**
 * Where to go after sign-in (spec §4); the first matching rule applies:
 * 1. saved return URL containing 'neworder?zoholeadid' and create_distributor_orders → that URL, cleared;
 *    then (decision 156) a saved return URL naming a shared list view → that view, cleared;
 * 2. search_orders_view|edit → /order; 3. customer_details_view|edit → /customer;
 * 4. failed_payments_edit → /payments; 5. promotions_view|edit → /promotions;
 * 6. reports_edit → /customer-listing; 7. breath_of_life → /breathoflife.
 * Returns null when no rule matches (the caller stays on the sign-in page).
 */
export function loginRedirect(input: {
  readonly returnUrl?: string | null;
  readonly granted: GrantedPrivileges;
}): LoginRedirect | null {
  const granted = grantedSet(input.granted);
  const returnUrl = input.returnUrl ?? '';
  if (returnUrl.includes(ZOHO_NEW_ORDER_MARKER) && granted.has('create_distributor_orders')) {
    return { path: returnUrl, clearReturnUrl: true };
  }
  // Decision 156: a shared list view (or the list the user was on when the session ended) comes back.
  if (isShareableView(returnUrl)) return { path: returnUrl, clearReturnUrl: true };
  const rule = LOGIN_REDIRECT_RULES.find((r) => r.anyOf.some((p) => granted.has(p)));
  return rule ? { path: rule.path, clearReturnUrl: false } : null;
}

/** After sign-out distributors go to /distributor, everyone else to /login (spec §2, §4). */
export function signOutRedirect(input: { readonly distributor: boolean }): string {
  return input.distributor ? routePath('distributor') : routePath('login');
}

/** After a distributor login the user goes to /order (spec §2). */
export const DISTRIBUTOR_LOGIN_REDIRECT = routePath('order');
