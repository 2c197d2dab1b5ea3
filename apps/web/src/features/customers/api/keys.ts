import { customerKeys as sharedCustomerKeys } from '../../../api/customers';

/**
 * Query keys of the customer screens: the shared ones of api/customers.ts (all, customer(id), detail(id)) and the
 * lists only these screens read. Everything shown for one customer sits under customerKeys.customer(id), so an edit
 * refreshes it all — here and on other screens that show the customer (the order flow's additional items).
 */
export const customerKeys = {
  ...sharedCustomerKeys,
  search: (query: object) => [...sharedCustomerKeys.all, 'search', query] as const,
  notes: (id: number, storeId: number | null) => [...sharedCustomerKeys.customer(id), 'notes', storeId] as const,
  notesPage: (id: number, storeId: number | null, page: number) => [...customerKeys.notes(id, storeId), page] as const,
  orders: (id: number, query: object) => [...sharedCustomerKeys.customer(id), 'orders', query] as const,
  salesHistory: (id: number, storeId: number | null) =>
    [...sharedCustomerKeys.customer(id), 'sales-history', storeId] as const,
  audit: (id: number, query: object) => [...sharedCustomerKeys.customer(id), 'audit', query] as const,
  linkableTerminals: (id: number, storeId: number) =>
    [...sharedCustomerKeys.customer(id), 'linkable-terminals', storeId] as const,
  storeEmails: (storeId: number) => [...sharedCustomerKeys.all, 'store-emails', storeId] as const,
  salesPerson: (id: number) => [...sharedCustomerKeys.all, 'sales-person', id] as const,
  domainData: (type: string) => [...sharedCustomerKeys.all, 'domain-data', type] as const,
  job: (jobId: string) => [...sharedCustomerKeys.all, 'job', jobId] as const,
};
