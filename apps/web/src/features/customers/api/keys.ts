/**
 * Query keys of the customer screens. One prefix per customer, so an edit can refresh everything shown
 * for that customer (`customerKeys.customer(id)`), and one per list kind inside it.
 */
export const customerKeys = {
  all: ['customers'] as const,
  /** Per session token: another sign-in in the same tab asks again. */
  permissions: (token: string | null) => [...customerKeys.all, 'permissions', token] as const,
  search: (query: object) => [...customerKeys.all, 'search', query] as const,
  customer: (id: number) => [...customerKeys.all, 'customer', id] as const,
  detail: (id: number) => [...customerKeys.customer(id), 'detail'] as const,
  notes: (id: number, storeId: number | null) => [...customerKeys.customer(id), 'notes', storeId] as const,
  orders: (id: number, query: object) => [...customerKeys.customer(id), 'orders', query] as const,
  salesHistory: (id: number, storeId: number | null) =>
    [...customerKeys.customer(id), 'sales-history', storeId] as const,
  audit: (id: number, query: object) => [...customerKeys.customer(id), 'audit', query] as const,
  storeEmails: (storeId: number) => [...customerKeys.all, 'store-emails', storeId] as const,
  salesPerson: (id: number) => [...customerKeys.all, 'sales-person', id] as const,
  domainData: (type: string) => [...customerKeys.all, 'domain-data', type] as const,
  job: (jobId: string) => [...customerKeys.all, 'job', jobId] as const,
};
