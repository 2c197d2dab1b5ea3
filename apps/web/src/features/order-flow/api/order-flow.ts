import {
  crmLeadInfo,
  fedTaxIdLookupInfo,
  orderInfoRecord,
  orderInfoSaveResult,
  promotionLookup,
  taxFetchResult,
  type CrmLeadInfo,
  type CurrencyCode,
  type OrderInfoRecord,
} from '@pos/domain';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { orderKeys } from '../../../api/orders';
import { api } from '../../../lib/api';
import { orderFlowKeys } from './keys';

/*
 * The order flow's calls (contracts in @pos/domain); the catalogue (products, bundles, one-time charges) is
 * api/catalogue.ts, the customer record api/customers.ts:
 *   GET  /api/customers/orderinfo/{token}?id=                 → {order}
 *   POST /api/customers/orderinfo/{new|id}/{token} {json, version?, submit?} → {orderInfoId, unifiedOrderId, status, version}
 *   GET  /api/customers/promotions/{code}/{token}
 *   POST /api/customers/taxes/fetch/{token} {state, country, currency, lines}
 *   GET  /api/customers/{token}?fedtaxid=  → {customer_id}
 *   GET  /api/crm/leads/{leadId}/{token}   → {lead, crm} (a CRM lead for a new order; decision 159)
 */

export type SaveResult = z.infer<typeof orderInfoSaveResult>;

export async function getOrder(id: number, signal?: AbortSignal): Promise<OrderInfoRecord> {
  const info = await api.get<{ order: unknown }>('/api/customers/orderinfo/{token}', { query: { id }, signal });
  return orderInfoRecord.parse(info.order);
}

export function getOrderQueryOptions(id: number) {
  return queryOptions({
    queryKey: orderFlowKeys.document(id),
    queryFn: ({ signal }) => getOrder(id, signal),
    staleTime: 30_000,
  });
}

export async function saveOrder(
  id: number | 'new',
  body: { json: Record<string, unknown>; version?: number; submit?: boolean },
): Promise<SaveResult> {
  return orderInfoSaveResult.parse(
    await api.post<unknown>('/api/customers/orderinfo/{id}/{token}', body, { params: { id } }),
  );
}

/**
 * Start an order (a draft, from the New order page or a store's additional items): every order query is asked again
 * (not awaited: the page goes on to the order's first step), so the order lists show it. The page shows a refusal.
 */
export function useCreateOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (json: Record<string, unknown>) => saveOrder('new', { json }),
    meta: { silentError: true },
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: orderKeys.all });
    },
  });
}

export async function findPromotion(code: string) {
  return promotionLookup.parse(
    await api.get<unknown>('/api/customers/promotions/{code}/{token}', { params: { code } }),
  );
}

export interface TaxInput {
  readonly state: string;
  readonly country: string;
  readonly currency: CurrencyCode;
  readonly amountCents: number;
  /** The order's existing store: its address and its Arizona certificate decide the tax (decision 127). */
  readonly storeId?: number | null;
}

export async function fetchTax(input: TaxInput, signal?: AbortSignal) {
  const where = input.storeId ? { store_id: input.storeId } : { state: input.state, country: input.country };
  return taxFetchResult.parse(
    await api.post<unknown>(
      '/api/customers/taxes/fetch/{token}',
      { ...where, currency: input.currency, lines: [{ amount_cents: input.amountCents, quantity: 1 }] },
      { signal },
    ),
  );
}

/**
 * The tax of an order's taxable amount today (the rate in force today; none for a store with a valid Arizona
 * certificate); asked only with a store or a state, and something to tax.
 */
export function getTaxQueryOptions(orderId: number, input: TaxInput) {
  return queryOptions({
    queryKey: orderFlowKeys.tax(orderId, input),
    queryFn: ({ signal }) => fetchTax(input, signal),
    enabled: Boolean(input.state || input.storeId) && input.amountCents > 0,
    // Asked again each time the summary opens: a certificate or a rate may have changed meanwhile (decision 127).
    staleTime: 0,
    retry: false,
  });
}

export async function getCustomerIdByFedTaxId(fedTaxId: string, signal?: AbortSignal): Promise<number> {
  const found = fedTaxIdLookupInfo.parse(
    await api.get<unknown>('/api/customers/{token}', { query: { fedtaxid: fedTaxId }, signal }),
  );
  return found.customer_id;
}

export function getCustomerIdByFedTaxIdQueryOptions(fedTaxId: string) {
  return queryOptions({
    queryKey: orderFlowKeys.customerIdByFedTaxId(fedTaxId),
    queryFn: ({ signal }) => getCustomerIdByFedTaxId(fedTaxId, signal),
    retry: false,
  });
}

export async function getCrmLead(leadId: string, signal?: AbortSignal): Promise<CrmLeadInfo> {
  return crmLeadInfo.parse(await api.get<unknown>('/api/crm/leads/{leadId}/{token}', { params: { leadId }, signal }));
}

/** A CRM lead for the New order page (#/neworder?zoholeadid=…; decision 159): an unknown lead is a 404, not retried. */
export function getCrmLeadQueryOptions(leadId: string) {
  return queryOptions({
    queryKey: orderFlowKeys.crmLead(leadId),
    queryFn: ({ signal }) => getCrmLead(leadId, signal),
    staleTime: 60_000,
    retry: false,
  });
}
