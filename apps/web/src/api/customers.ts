import { customerRecord, type CustomerRecord } from '@pos/domain';
import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { api } from '../lib/api';

/*
 * The customer record, read by the customer page, its edit pages and the order flow (new order, additional items):
 *   GET /api/customers/{id}/{token}   the customer with its stores
 * Everything cached for one customer sits under customerKeys.customer(id), so a change to the customer — from any
 * screen — refreshes every screen that shows it (refreshCustomer).
 */

export const customerKeys = {
  all: ['customers'] as const,
  /** The prefix of everything cached for one customer. */
  customer: (id: number) => [...customerKeys.all, 'customer', id] as const,
  /** The record with its stores. */
  detail: (id: number) => [...customerKeys.customer(id), 'detail'] as const,
};

export async function getCustomer(id: number, signal?: AbortSignal): Promise<CustomerRecord> {
  return customerRecord.parse(await api.get<unknown>('/api/customers/{id}/{token}', { params: { id }, signal }));
}

export function getCustomerQueryOptions(id: number) {
  return queryOptions({ queryKey: customerKeys.detail(id), queryFn: ({ signal }) => getCustomer(id, signal) });
}

export function useCustomer(id: number | null) {
  return useQuery({ ...getCustomerQueryOptions(id ?? 0), enabled: id !== null });
}

/** After a change to a customer: everything shown for it is asked again (record, stores, notes, account lists…). */
export function refreshCustomer(queryClient: QueryClient, customerId: number): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: customerKeys.customer(customerId) });
}
