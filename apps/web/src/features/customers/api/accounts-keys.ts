import { customerKeys } from './keys';

/**
 * Query keys of the account tabs and edit pages. Everything of one customer sits under the customer page's
 * own prefix customerKeys.customer(id) (api/keys.ts), so a change refreshes the whole customer — the
 * header, its stores, the Activity tab and the account lists — with one invalidation. The customer record and
 * domain data the edit pages read are the customer page's own queries (customerKeys); the billing-item catalogue
 * is api/catalogue.ts.
 */
export const accountKeys = {
  customer: (customerId: number) => [...customerKeys.customer(customerId), 'accounts'] as const,
  creditInvoices: (customerId: number, storeId: number) =>
    [...accountKeys.customer(customerId), 'credit-invoices', storeId] as const,
  terminals: (customerId: number, filter: object) =>
    [...accountKeys.customer(customerId), 'terminals', filter] as const,
  plans: (customerId: number, filter: object) => [...accountKeys.customer(customerId), 'plans', filter] as const,
  plan: (customerId: number, planId: number) => [...accountKeys.customer(customerId), 'plan', planId] as const,
  billingItems: (customerId: number, filter: object) =>
    [...accountKeys.customer(customerId), 'billing-items', filter] as const,
  features: (customerId: number, storeId: number) =>
    [...accountKeys.customer(customerId), 'features', storeId] as const,
  featureChanges: (customerId: number, storeId: number) =>
    [...accountKeys.customer(customerId), 'feature-changes', storeId] as const,
  bundles: (customerId: number, storeId: number) => [...accountKeys.customer(customerId), 'bundles', storeId] as const,
  bundlesPage: (customerId: number, storeId: number, page: object | null) =>
    [...accountKeys.bundles(customerId, storeId), page] as const,
  promotions: (customerId: number, storeId: number) =>
    [...accountKeys.customer(customerId), 'promotions', storeId] as const,
  promotionsPage: (customerId: number, storeId: number, page: object | null) =>
    [...accountKeys.promotions(customerId, storeId), page] as const,
  transactions: (customerId: number, filter: object) =>
    [...accountKeys.customer(customerId), 'transactions', filter] as const,
  invoices: (customerId: number, filter: object) => [...accountKeys.customer(customerId), 'invoices', filter] as const,
  invoice: (customerId: number, invoiceId: number) =>
    [...accountKeys.customer(customerId), 'invoice', invoiceId] as const,
  instruments: (customerId: number, filter: object) =>
    [...accountKeys.customer(customerId), 'payment-instruments', filter] as const,
  /** Not per customer (the catalogue is api/catalogue.ts). */
  banks: (country: string) => ['banks', country] as const,
};
