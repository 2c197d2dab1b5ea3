import {
  billingItemCatalogue,
  customerBillingItem,
  customerBillingItemList,
  customerBundleList,
  orderPromotionList,
  type BillingItemCatalogue,
  type CurrencyCode,
  type CustomerBillingItem,
  type CustomerBillingItemCreateRequest,
  type CustomerBillingItemList,
  type CustomerBundleList,
  type OrderPromotionList,
} from '@pos/domain';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { accountPath, compactQuery, useAccountMutation } from './accounts';
import { accountKeys } from './accounts-keys';

/*
 *   GET    …/customerbillingitems?customerplanid&custstoreid&status&billingitemid&checkForPreviousRecords&limit&offset
 *                                                                    → {customer_billing_items, total}
 *   POST $ …/customerbillingitems      customerBillingItemCreateRequest → 201 customerBillingItem
 *   GET    /api/customers/{id}/customerbundles/{token}?custstoreid    → customerBundleList
 *   GET    …/orderpromotions?custstoreid                              → orderPromotionList
 *   GET    /api/customers/billingitems/{token}/all?custstoreid&currency → billingItemCatalogue (decision 070)
 */

export interface BillingItemFilter {
  readonly storeId: number;
  readonly planId: number | null;
  readonly status: string | null;
  readonly billingItemId: number | null;
  readonly includePrevious: boolean;
  readonly limit: number;
  readonly offset: number;
}

export async function getBillingItems(
  customerId: number,
  filter: BillingItemFilter,
  signal?: AbortSignal,
): Promise<CustomerBillingItemList> {
  const query = compactQuery({
    custstoreid: filter.storeId,
    customerplanid: filter.planId,
    status: filter.status,
    billingitemid: filter.billingItemId,
    checkForPreviousRecords: filter.includePrevious,
    limit: filter.limit,
    offset: filter.offset,
  });
  return customerBillingItemList.parse(
    await api.get<unknown>(accountPath('/customerbillingitems'), { params: { id: customerId }, query, signal }),
  );
}

export function getBillingItemsQueryOptions(customerId: number, filter: BillingItemFilter) {
  return queryOptions({
    queryKey: accountKeys.billingItems(customerId, filter),
    queryFn: ({ signal }) => getBillingItems(customerId, filter, signal),
    placeholderData: keepPreviousData,
  });
}

export function useBillingItems(customerId: number, filter: BillingItemFilter, enabled = true) {
  return useQuery({ ...getBillingItemsQueryOptions(customerId, filter), enabled });
}

export interface BillingItemCreation {
  readonly body: CustomerBillingItemCreateRequest;
  readonly idempotencyKey: string;
}

export async function addBillingItem(
  customerId: number,
  { body, idempotencyKey }: BillingItemCreation,
): Promise<CustomerBillingItem> {
  return customerBillingItem.parse(
    await api.post<unknown>(accountPath('/customerbillingitems'), body, { params: { id: customerId }, idempotencyKey }),
  );
}

export function useAddBillingItem(customerId: number) {
  return useAccountMutation(customerId, (input: BillingItemCreation) => addBillingItem(customerId, input));
}

export interface StorePage {
  readonly storeId: number;
  readonly limit: number;
  readonly offset: number;
}

export async function getBundles(
  customerId: number,
  page: StorePage,
  signal?: AbortSignal,
): Promise<CustomerBundleList> {
  const query = { custstoreid: page.storeId, limit: page.limit, offset: page.offset };
  return customerBundleList.parse(
    await api.get<unknown>('/api/customers/{id}/customerbundles/{token}', {
      params: { id: customerId },
      query,
      signal,
    }),
  );
}

export function useBundles(customerId: number, page: StorePage | null) {
  return useQuery({
    queryKey: [...accountKeys.bundles(customerId, page?.storeId ?? 0), page],
    queryFn: ({ signal }) => getBundles(customerId, page!, signal),
    enabled: page !== null,
    placeholderData: keepPreviousData,
  });
}

export async function getPromotions(
  customerId: number,
  page: StorePage,
  signal?: AbortSignal,
): Promise<OrderPromotionList> {
  const query = { custstoreid: page.storeId, limit: page.limit, offset: page.offset };
  return orderPromotionList.parse(
    await api.get<unknown>(accountPath('/orderpromotions'), { params: { id: customerId }, query, signal }),
  );
}

export function usePromotions(customerId: number, page: StorePage | null) {
  return useQuery({
    queryKey: [...accountKeys.promotions(customerId, page?.storeId ?? 0), page],
    queryFn: ({ signal }) => getPromotions(customerId, page!, signal),
    enabled: page !== null,
    placeholderData: keepPreviousData,
  });
}

/** Which catalogue prices: a store's (its currency) and/or a currency; neither → USD. */
export interface CatalogueFilter {
  readonly storeId?: number | null;
  readonly currency?: CurrencyCode | null;
}

/** The active billing items with their price in the store's (or the given) currency, by category then name. */
export async function getBillingItemCatalogue(
  filter: CatalogueFilter,
  signal?: AbortSignal,
): Promise<BillingItemCatalogue> {
  const query = compactQuery({ custstoreid: filter.storeId, currency: filter.currency });
  return billingItemCatalogue.parse(
    await api.get<unknown>('/api/customers/billingitems/{token}/all', { query, signal }),
  );
}

export function getBillingItemCatalogueQueryOptions(filter: CatalogueFilter) {
  const key = { storeId: filter.storeId ?? null, currency: filter.currency ?? null };
  return queryOptions({
    queryKey: accountKeys.catalogue(key),
    queryFn: ({ signal }) => getBillingItemCatalogue(key, signal),
    // The catalogue changes rarely; the tab's filter and the Add dialog share one read.
    staleTime: 10 * 60_000,
  });
}
