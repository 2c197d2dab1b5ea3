import {
  billingItemCatalogue,
  bundleCatalogue,
  customerRecord,
  fedTaxIdLookupInfo,
  orderInfoRecord,
  orderInfoSaveResult,
  productCatalogue,
  promotionLookup,
  taxFetchResult,
  type CurrencyCode,
  type CustomerRecord,
  type OrderInfoRecord,
} from '@pos/domain';
import type { z } from 'zod';
import { api } from '../../../lib/api';

/*
 * The order flow's calls (contracts in @pos/domain):
 *   GET  /api/customers/orderinfo/{token}?id=                 → {order}
 *   POST /api/customers/orderinfo/{new|id}/{token} {json, version?, submit?} → {orderInfoId, unifiedOrderId, status, version}
 *   GET  /api/products/{token}/all?currency=, /api/products/terminals/{token}/all?currency=, /api/bundles/{token}/all?currency=
 *   GET  /api/customers/billingitems/{token}/all?currency=  (one-time charges)
 *   GET  /api/customers/promotions/{code}/{token}
 *   POST /api/customers/taxes/fetch/{token} {state, country, currency, lines}
 *   GET  /api/customers/{token}?fedtaxid=  → {customer_id};  GET /api/customers/{id}/{token} → the customer with stores
 */

export type SaveResult = z.infer<typeof orderInfoSaveResult>;

export async function getOrder(id: number, signal?: AbortSignal): Promise<OrderInfoRecord> {
  const info = await api.get<{ order: unknown }>('/api/customers/orderinfo/{token}', { query: { id }, signal });
  return orderInfoRecord.parse(info.order);
}

export async function saveOrder(
  id: number | 'new',
  body: { json: Record<string, unknown>; version?: number; submit?: boolean },
): Promise<SaveResult> {
  return orderInfoSaveResult.parse(
    await api.post<unknown>('/api/customers/orderinfo/{id}/{token}', body, { params: { id } }),
  );
}

export async function getProducts(currency: CurrencyCode, terminalsOnly: boolean, signal?: AbortSignal) {
  const path = terminalsOnly ? '/api/products/terminals/{token}/all' : '/api/products/{token}/all';
  return productCatalogue.parse(await api.get<unknown>(path, { query: { currency }, signal }));
}

export async function getBillingItems(currency: CurrencyCode, signal?: AbortSignal) {
  return billingItemCatalogue.parse(
    await api.get<unknown>('/api/customers/billingitems/{token}/all', { query: { currency }, signal }),
  );
}

export async function getBundles(currency: CurrencyCode, signal?: AbortSignal) {
  return bundleCatalogue.parse(await api.get<unknown>('/api/bundles/{token}/all', { query: { currency }, signal }));
}

export async function findPromotion(code: string) {
  return promotionLookup.parse(
    await api.get<unknown>('/api/customers/promotions/{code}/{token}', { params: { code } }),
  );
}

export async function fetchTax(body: { state: string; country: string; currency: CurrencyCode; amountCents: number }) {
  return taxFetchResult.parse(
    await api.post<unknown>('/api/customers/taxes/fetch/{token}', {
      state: body.state,
      country: body.country,
      currency: body.currency,
      lines: [{ amount_cents: body.amountCents, quantity: 1 }],
    }),
  );
}

export async function customerByFedTaxId(fedTaxId: string): Promise<CustomerRecord> {
  const found = fedTaxIdLookupInfo.parse(
    await api.get<unknown>('/api/customers/{token}', { query: { fedtaxid: fedTaxId } }),
  );
  return customerRecord.parse(
    await api.get<unknown>('/api/customers/{id}/{token}', { params: { id: found.customer_id } }),
  );
}
