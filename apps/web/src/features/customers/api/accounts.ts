import { customerRecord, domainDataInfo, type CustomerRecord, type DomainDataItem } from '@pos/domain';
import { queryOptions, useMutation, useQuery, useQueryClient, type MutationFunction } from '@tanstack/react-query';
import { api, type QueryParams } from '../../../lib/api';
import { isVersionConflict, notifyError } from '../lib/notify';
import { accountKeys } from './accounts-keys';

/*
 * The account tabs' and edit pages' API layer (issue 6, contracts/customer-accounts.ts). This file holds what
 * every area shares; the areas are accounts-terminals, accounts-plans, accounts-billing, accounts-money and
 * accounts-payment. "…" is /api/customers/{id}/{token} with id = the customer id.
 *
 *   GET /api/customers/{id}/{token}             → customerRecord (the edit pages' header: names, currency, stores)
 *   GET /api/domaindata/{token}?type=retire_reason → {type, items}
 */

/** "…" + `rest`: the path of a customer's account resource. */
export function accountPath(rest: string): string {
  return `/api/customers/{id}/{token}${rest}`;
}

/** A list query's parameters without the ones left empty. */
export function compactQuery(query: Record<string, string | number | boolean | null | undefined>): QueryParams {
  return Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined && v !== null && v !== ''));
}

export async function getCustomerRecord(customerId: number, signal?: AbortSignal): Promise<CustomerRecord> {
  return customerRecord.parse(await api.get<unknown>('/api/customers/{id}/{token}', { params: { id: customerId }, signal }));
}

export function getCustomerRecordQueryOptions(customerId: number) {
  return queryOptions({ queryKey: accountKeys.record(customerId), queryFn: ({ signal }) => getCustomerRecord(customerId, signal) });
}

export function useCustomerRecord(customerId: number | null) {
  return useQuery({ ...getCustomerRecordQueryOptions(customerId ?? 0), enabled: customerId !== null });
}

export async function getRetireReasons(signal?: AbortSignal): Promise<DomainDataItem[]> {
  return domainDataInfo.parse(await api.get<unknown>('/api/domaindata/{token}', { query: { type: 'retire_reason' }, signal })).items;
}

export function getRetireReasonsQueryOptions() {
  return queryOptions({ queryKey: accountKeys.retireReasons(), queryFn: ({ signal }) => getRetireReasons(signal), staleTime: 10 * 60_000 });
}

export function useRetireReasons(enabled = true) {
  return useQuery({ ...getRetireReasonsQueryOptions(), enabled });
}

/**
 * A change to one customer's accounts. Afterwards everything of that customer is fetched again (the lists,
 * the header and stores, the Activity tab): on success, and on a version conflict (409), so the screen shows
 * the record someone else changed. Failures show a toast that says what to do (lib/notify); the global toast
 * is off for these. A caller's own onSuccess/onError (to `mutate`) run as well.
 */
export function useAccountMutation<TVariables, TResult>(customerId: number, mutationFn: MutationFunction<TResult, TVariables>) {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: accountKeys.customerAll(customerId) });
  return useMutation<TResult, Error, TVariables>({
    mutationFn,
    meta: { silentError: true },
    onSuccess: async () => {
      await refresh();
    },
    onError: async (error) => {
      notifyError(error);
      if (isVersionConflict(error)) await refresh();
    },
  });
}
