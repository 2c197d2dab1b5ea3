import {
  billingItemCatalogue,
  billingItemCategoryList,
  bundleCatalogue,
  bundlePriceOptionList,
  productCatalogue,
  type BillingItemCatalogue,
  type BillingItemCategoryList,
  type BundleCatalogue,
  type BundlePriceOptionList,
  type CurrencyCode,
  type ProductCatalogue,
} from '@pos/domain';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../lib/api';

/*
 * Catalogue reads (decision 070), used by the order flow, the customer page's billing items and the Look-ups screen
 * (decision 161):
 *   GET /api/products/{token}/all?currency=                       → productCatalogue
 *   GET /api/products/terminals/{token}/all?currency=             → productCatalogue (terminal products)
 *   GET /api/bundles/{token}/all?currency=                        → bundleCatalogue
 *   GET /api/bundles/billingitempriceoptions/{token}?bundle_id&currency&reference_id → bundlePriceOptionList
 *   GET /api/customers/billingitems/{token}/all?custstoreid&currency → billingItemCatalogue
 *   GET /api/customers/billingitemcategories/{token}              → billingItemCategoryList
 * The catalogue changes rarely: one read serves every screen for 10 minutes; a catalogue edit refreshes every key
 * under catalogueKeys.all.
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
  terminalProducts: (currency: CurrencyCode) => [...catalogueKeys.all, 'terminal-products', currency] as const,
  bundles: (currency: CurrencyCode) => [...catalogueKeys.all, 'bundles', currency] as const,
  billingItems: (filter: CatalogueFilter) => [...catalogueKeys.all, 'billing-items', filterKey(filter)] as const,
  billingItemCategories: () => [...catalogueKeys.all, 'billing-item-categories'] as const,
  bundlePriceOptions: (query: BundlePriceOptionsFilter) =>
    [...catalogueKeys.all, 'bundle-price-options', { ...query, referenceId: query.referenceId ?? null }] as const,
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

/** The terminal products (§9 terminal product 1, Petro product 2) with their price in `currency`. */
export async function getTerminalProducts(currency: CurrencyCode, signal?: AbortSignal): Promise<ProductCatalogue> {
  return productCatalogue.parse(
    await api.get<unknown>('/api/products/terminals/{token}/all', { query: { currency }, signal }),
  );
}

export function getTerminalProductsQueryOptions(currency: CurrencyCode) {
  return queryOptions({
    queryKey: catalogueKeys.terminalProducts(currency),
    queryFn: ({ signal }) => getTerminalProducts(currency, signal),
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

/** Every billing-item category, by name. */
export async function getBillingItemCategories(signal?: AbortSignal): Promise<BillingItemCategoryList> {
  return billingItemCategoryList.parse(
    await api.get<unknown>('/api/customers/billingitemcategories/{token}', { signal }),
  );
}

export function getBillingItemCategoriesQueryOptions() {
  return queryOptions({
    queryKey: catalogueKeys.billingItemCategories(),
    queryFn: ({ signal }) => getBillingItemCategories(signal),
    staleTime: CATALOGUE_STALE_MS,
  });
}

/** Which bundle's price options: in a currency, all of them or only one reference's (5 = the yearly plan). */
export interface BundlePriceOptionsFilter {
  readonly bundleId: number;
  readonly currency: CurrencyCode;
  readonly referenceId?: number | null;
}

/** The price options of a bundle's billing items in `currency` (the base monthly price and each plan's). */
export async function getBundlePriceOptions(
  filter: BundlePriceOptionsFilter,
  signal?: AbortSignal,
): Promise<BundlePriceOptionList> {
  return bundlePriceOptionList.parse(
    await api.get<unknown>('/api/bundles/billingitempriceoptions/{token}', {
      query: { bundle_id: filter.bundleId, currency: filter.currency, reference_id: filter.referenceId ?? null },
      signal,
    }),
  );
}

export function getBundlePriceOptionsQueryOptions(filter: BundlePriceOptionsFilter) {
  return queryOptions({
    queryKey: catalogueKeys.bundlePriceOptions(filter),
    queryFn: ({ signal }) => getBundlePriceOptions(filter, signal),
    staleTime: CATALOGUE_STALE_MS,
  });
}
