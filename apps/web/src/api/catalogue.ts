import {
  billingItemCatalogue,
  bundleCatalogue,
  productCatalogue,
  type BillingItemCatalogue,
  type BundleCatalogue,
  type CurrencyCode,
  type ProductCatalogue,
} from '@pos/domain';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../lib/api';

/*
 * Catalogue reads (decision 070), used by the order flow and the customer page's billing items:
 *   GET /api/products/{token}/all?currency=                       → productCatalogue
 *   GET /api/bundles/{token}/all?currency=                        → bundleCatalogue
 *   GET /api/customers/billingitems/{token}/all?custstoreid&currency → billingItemCatalogue
 * The catalogue changes rarely: one read serves every screen for 10 minutes.
 */

const CATALOGUE_STALE_MS = 10 * 60_000;

/** Which prices: a store's (its currency) and/or a currency; neither → USD. */
export interface CatalogueFilter {
  readonly storeId?: number | null;
  readonly currency?: CurrencyCode | null;
}

function filterKey(filter: CatalogueFilter) {
  return { storeId: filter.storeId ?? null, currency: filter.currency ?? null };
}

export const catalogueKeys = {
  all: ['catalogue'] as const,
  products: (currency: CurrencyCode) => [...catalogueKeys.all, 'products', currency] as const,
  bundles: (currency: CurrencyCode) => [...catalogueKeys.all, 'bundles', currency] as const,
  billingItems: (filter: CatalogueFilter) => [...catalogueKeys.all, 'billing-items', filterKey(filter)] as const,
};

export async function getProducts(currency: CurrencyCode, signal?: AbortSignal): Promise<ProductCatalogue> {
  return productCatalogue.parse(await api.get<unknown>('/api/products/{token}/all', { query: { currency }, signal }));
}

export function getProductsQueryOptions(currency: CurrencyCode) {
  return queryOptions({
    queryKey: catalogueKeys.products(currency),
    queryFn: ({ signal }) => getProducts(currency, signal),
    staleTime: CATALOGUE_STALE_MS,
  });
}

export async function getBundleCatalogue(currency: CurrencyCode, signal?: AbortSignal): Promise<BundleCatalogue> {
  return bundleCatalogue.parse(await api.get<unknown>('/api/bundles/{token}/all', { query: { currency }, signal }));
}

export function getBundleCatalogueQueryOptions(currency: CurrencyCode) {
  return queryOptions({
    queryKey: catalogueKeys.bundles(currency),
    queryFn: ({ signal }) => getBundleCatalogue(currency, signal),
    staleTime: CATALOGUE_STALE_MS,
  });
}

/** The active billing items with their price in the store's (or the given) currency, by category then name. */
export async function getBillingItemCatalogue(
  filter: CatalogueFilter,
  signal?: AbortSignal,
): Promise<BillingItemCatalogue> {
  const { storeId, currency } = filterKey(filter);
  return billingItemCatalogue.parse(
    await api.get<unknown>('/api/customers/billingitems/{token}/all', {
      query: { custstoreid: storeId, currency },
      signal,
    }),
  );
}

export function getBillingItemCatalogueQueryOptions(filter: CatalogueFilter) {
  return queryOptions({
    queryKey: catalogueKeys.billingItems(filter),
    queryFn: ({ signal }) => getBillingItemCatalogue(filter, signal),
    staleTime: CATALOGUE_STALE_MS,
  });
}
