import {
  customerBillingItem,
  customerBillingItemList,
  customerBundleList,
  orderPromotionList,
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
    queryKey: accountKeys.bundlesPage(customerId, page?.storeId ?? 0, page),
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
    queryKey: accountKeys.promotionsPage(customerId, page?.storeId ?? 0, page),
    queryFn: ({ signal }) => getPromotions(customerId, page!, signal),
    enabled: page !== null,
    placeholderData: keepPreviousData,
  });
}
