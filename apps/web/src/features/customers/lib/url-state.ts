/**
 * The customer page's address (decision 060). Everything the page shows is in the hash's query string, so
 * a link, a reload and the browser's back/forward all land on the same screen:
 *
 *   #/customer                                   the search box, nothing searched yet
 *   #/customer?q=acme&page=2&sort=-legal_name     search results (page 1-based; sort '-' = descending)
 *   #/customer?id=100001                          a customer (first store, first tab)
 *   #/customer?id=100001&store=500002&tab=notes   a customer, one of its stores, one tab
 *
 * `q` may ride along with `id` so the customer page can offer "Back to results".
 */

/** The tabs of a store, in the order they show. Account tabs first (W2), then the core tabs. */
export const STORE_TABS = [
  { value: 'terminals', label: 'Terminals' },
  { value: 'plans', label: 'Plans' },
  { value: 'billing-items', label: 'Billing items' },
  { value: 'bundles', label: 'Bundles' },
  { value: 'promotions', label: 'Promotions' },
  { value: 'transactions', label: 'Transactions' },
  { value: 'invoices', label: 'Invoices' },
  { value: 'notes', label: 'Notes' },
  { value: 'emails', label: 'E-mails' },
  { value: 'orders', label: 'Orders' },
  { value: 'sales-history', label: 'Sales history' },
  { value: 'activity', label: 'Activity' },
] as const;

export type StoreTab = (typeof STORE_TABS)[number]['value'];
export const DEFAULT_STORE_TAB: StoreTab = 'terminals';

export function isStoreTab(value: unknown): value is StoreTab {
  return typeof value === 'string' && STORE_TABS.some((t) => t.value === value);
}

export interface SortState {
  readonly column: string;
  readonly direction: 'asc' | 'desc';
}

export interface CustomerPageState {
  /** The search text as typed ('' when none). */
  readonly q: string;
  /** 1-based page of the results. */
  readonly page: number;
  readonly sort: SortState | null;
  /** The open customer, or null on the search view. */
  readonly customerId: number | null;
  /** The selected store of the open customer (null: the page picks the first). */
  readonly storeId: number | null;
  readonly tab: StoreTab;
}

function positiveInt(text: string | null): number | null {
  if (text === null || !/^\d{1,10}$/.test(text)) return null;
  const n = Number(text);
  return n > 0 && Number.isSafeInteger(n) ? n : null;
}

/** '-legal_name' → {legal_name, desc}; 'legal_name' → asc; anything odd → null. */
export function parseSort(text: string | null): SortState | null {
  if (!text) return null;
  const m = /^(-)?([a-z][a-z0-9_]{0,49})$/.exec(text);
  if (!m) return null;
  return { column: m[2] as string, direction: m[1] ? 'desc' : 'asc' };
}

export function formatSort(sort: SortState | null): string | null {
  if (!sort) return null;
  return `${sort.direction === 'desc' ? '-' : ''}${sort.column}`;
}

export function parseCustomerPageParams(params: URLSearchParams): CustomerPageState {
  const tab = params.get('tab');
  return {
    q: params.get('q') ?? '',
    page: positiveInt(params.get('page')) ?? 1,
    sort: parseSort(params.get('sort')),
    customerId: positiveInt(params.get('id')),
    storeId: positiveInt(params.get('store')),
    tab: isStoreTab(tab) ? tab : DEFAULT_STORE_TAB,
  };
}

/** The query string of a state: defaults are left out, so addresses stay short and canonical. */
export function customerPageParams(state: Partial<CustomerPageState>): URLSearchParams {
  const out = new URLSearchParams();
  if (state.customerId) {
    out.set('id', String(state.customerId));
    if (state.storeId) out.set('store', String(state.storeId));
    if (state.tab && state.tab !== DEFAULT_STORE_TAB) out.set('tab', state.tab);
    if (state.q?.trim()) out.set('q', state.q.trim());
    return out;
  }
  if (state.q?.trim()) {
    out.set('q', state.q.trim());
    if (state.page && state.page > 1) out.set('page', String(state.page));
    const sort = formatSort(state.sort ?? null);
    if (sort) out.set('sort', sort);
  }
  return out;
}

/** A hash link to the customer page, e.g. '#/customer?id=100001&store=500002&tab=notes'. */
export function customerPageHref(state: Partial<CustomerPageState>): string {
  const query = customerPageParams(state).toString();
  return `#/customer${query ? `?${query}` : ''}`;
}

/** The router path (no '#') of the same address, for `navigate()` and `<Link to>`. */
export function customerPagePath(state: Partial<CustomerPageState>): string {
  return customerPageHref(state).slice(1);
}

/** The edit pages (W2) read `customer` and `store` from their query string. */
export type EditPage = 'editpayment' | 'editpaymentplan' | 'editplan';

export function editPagePath(page: EditPage, customerId: number, storeId: number | null): string {
  const query = new URLSearchParams({ customer: String(customerId) });
  if (storeId) query.set('store', String(storeId));
  return `/${page}?${query.toString()}`;
}
