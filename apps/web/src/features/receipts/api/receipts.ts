import {
  customerSearchResult,
  receiptPage,
  receiptSearchResult,
  uploadInfo,
  type CustomerSearchRecord,
  type ReceiptApply,
  type ReceiptCreateInput,
  type ReceiptPage,
  type ReceiptSearchResult,
  type UploadInfo,
  isMerchantSearchReady,
} from '@pos/domain';
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { MONEY_ROOTS, useMoneyMutation } from '../../../api/money-views';
import { api } from '../../../lib/api';
import { datedFileName } from '../../../lib/download';
import { streamDownload, type StreamProgress } from '../../../lib/stream-download';

/*
 * The receipts screens' API (decision 119; contracts in @pos/domain/contracts/receipts.ts, every answer parsed):
 *   GET    /api/receipts/{token}?customer_id&method&currency&received_from&received_to&unapplied&q&sort&limit&offset
 *          [&format=csv]
 *   POST   /api/receipts/checkimage/{token}     multipart 'checkimage' → uploadInfo
 *   POST   /api/receipts/{token}                record (Idempotency-Key)
 *   GET    /api/receipts/{receiptId}/{token}    the receipt, its applications, the customer's open invoices
 *   POST   /api/receipts/{receiptId}/applications/{token}                  apply (Idempotency-Key)
 *   DELETE /api/receipts/{receiptId}/applications/{allocationId}/{token}?version   un-apply (Idempotency-Key)
 * The customer search of the record dialog is the customers' search call (GET /api/customers/{token}/all).
 */

export const RECEIPT_PAGE_SIZE = 25;

export interface ReceiptFilters {
  readonly customerId: string;
  /** check, cash, wire, ach, card or ''. */
  readonly method: string;
  readonly currency: string;
  readonly receivedFrom: string;
  readonly receivedTo: string;
  readonly unapplied: boolean;
  readonly q: string;
}

export const NO_RECEIPT_FILTERS: ReceiptFilters = {
  customerId: '',
  method: '',
  currency: '',
  receivedFrom: '',
  receivedTo: '',
  unapplied: false,
  q: '',
};

export interface ReceiptListParams extends ReceiptFilters {
  /** 1-based. */
  readonly page: number;
  /** 'amount_cents' or '-amount_cents' (RECEIPT_SORT_FIELDS); null: newest first. */
  readonly sort: string | null;
}

function filterQuery(f: ReceiptFilters) {
  return {
    customer_id: f.customerId.trim() || undefined,
    method: f.method || undefined,
    currency: f.currency || undefined,
    received_from: f.receivedFrom || undefined,
    received_to: f.receivedTo || undefined,
    unapplied: f.unapplied || undefined,
    q: f.q.trim() || undefined,
  };
}

export const receiptKeys = {
  all: MONEY_ROOTS.receipts,
  list: (p: ReceiptListParams) => [...receiptKeys.all, 'list', p] as const,
  receipt: (id: number) => [...receiptKeys.all, 'receipt', id] as const,
  customers: (text: string) => [...receiptKeys.all, 'customers', text] as const,
};

export async function searchReceipts(p: ReceiptListParams, signal?: AbortSignal): Promise<ReceiptSearchResult> {
  const info = await api.get<unknown>('/api/receipts/{token}', {
    query: {
      ...filterQuery(p),
      limit: RECEIPT_PAGE_SIZE,
      offset: (p.page - 1) * RECEIPT_PAGE_SIZE,
      sort: p.sort ?? undefined,
    },
    signal,
  });
  return receiptSearchResult.parse(info);
}

export function getReceiptListQueryOptions(p: ReceiptListParams) {
  return queryOptions({
    queryKey: receiptKeys.list(p),
    queryFn: ({ signal }) => searchReceipts(p, signal),
    placeholderData: keepPreviousData,
  });
}

/** Every matching receipt as CSV (the server streams all rows), saved with rows-so-far progress; Cancel aborts. */
export function exportReceipts(
  p: ReceiptListParams,
  options: { signal?: AbortSignal; onProgress?: (progress: StreamProgress) => void } = {},
): Promise<StreamProgress> {
  return streamDownload({
    path: '/api/receipts/{token}',
    query: { ...filterQuery(p), sort: p.sort ?? undefined, format: 'csv' },
    fileName: datedFileName('receipts', 'csv'),
    ...options,
  });
}

export async function getReceipt(receiptId: number, signal?: AbortSignal): Promise<ReceiptPage> {
  return receiptPage.parse(
    await api.get<unknown>('/api/receipts/{receiptId}/{token}', { params: { receiptId }, signal }),
  );
}

export function getReceiptQueryOptions(receiptId: number) {
  return queryOptions({
    queryKey: receiptKeys.receipt(receiptId),
    queryFn: ({ signal }) => getReceipt(receiptId, signal),
  });
}

/** The check image: one file in the multipart field 'checkimage'. */
export async function uploadCheckImage(file: File): Promise<UploadInfo> {
  const form = new FormData();
  form.append('checkimage', file, file.name);
  return uploadInfo.parse(await api.post<unknown>('/api/receipts/checkimage/{token}', form));
}

export async function recordReceipt(body: ReceiptCreateInput, idempotencyKey: string): Promise<ReceiptPage> {
  return receiptPage.parse(await api.post<unknown>('/api/receipts/{token}', body, { idempotencyKey }));
}

export async function applyReceipt(
  receiptId: number,
  body: ReceiptApply,
  idempotencyKey: string,
): Promise<ReceiptPage> {
  return receiptPage.parse(
    await api.post<unknown>('/api/receipts/{receiptId}/applications/{token}', body, {
      params: { receiptId },
      idempotencyKey,
    }),
  );
}

export async function unapplyReceipt(
  input: { receiptId: number; allocationId: number; version: number },
  idempotencyKey: string,
): Promise<ReceiptPage> {
  return receiptPage.parse(
    await api.delete<unknown>('/api/receipts/{receiptId}/applications/{allocationId}/{token}', undefined, {
      params: { receiptId: input.receiptId, allocationId: input.allocationId },
      query: { version: input.version },
      idempotencyKey,
    }),
  );
}

/** Send the check image first (nothing cached changes; the receipt recorded with its upload id does). */
export function useUploadCheckImage() {
  return useMutation({ mutationFn: uploadCheckImage, meta: { silentError: true } });
}

/** Record a receipt: every money view refreshes, the merchant's page with them. */
export function useRecordReceipt() {
  return useMoneyMutation({
    mutationFn: ({ body, idempotencyKey }: { body: ReceiptCreateInput; idempotencyKey: string }) =>
      recordReceipt(body, idempotencyKey),
    customerOf: ({ body }) => body.customer_id,
  });
}

/** Which receipt a change is to, whose it is (their page refreshes), and the action's Idempotency-Key. */
interface ReceiptChange {
  readonly receiptId: number;
  readonly customerId: number;
  readonly idempotencyKey: string;
}

/** A change to a receipt answers the receipt's page: it is shown at once, then every money view is asked again. */
function useReceiptChange<TVariables extends { receiptId: number; customerId: number }>(
  change: (variables: TVariables) => Promise<ReceiptPage>,
) {
  const queryClient = useQueryClient();
  return useMoneyMutation({
    mutationFn: async (variables: TVariables) => {
      const page = await change(variables);
      queryClient.setQueryData(receiptKeys.receipt(variables.receiptId), page);
      return page;
    },
    customerOf: ({ customerId }) => customerId,
  });
}

/** Apply a receipt to invoices. */
export function useApplyReceipt() {
  return useReceiptChange(({ receiptId, body, idempotencyKey }: ReceiptChange & { body: ReceiptApply }) =>
    applyReceipt(receiptId, body, idempotencyKey),
  );
}

/** Take one application off a receipt (the invoice is open again for it). */
export function useUnapplyReceipt() {
  return useReceiptChange(({ idempotencyKey, ...input }: ReceiptChange & { allocationId: number; version: number }) =>
    unapplyReceipt(input, idempotencyKey),
  );
}

/** Merchants by name, DBA or id for the record dialog (the customers' search; at most 10 rows). */
export async function findCustomers(text: string, signal?: AbortSignal): Promise<CustomerSearchRecord[]> {
  const term = text.trim();
  const query = /^\d+$/.test(term) ? { customerid: term } : { search: term };
  const info = await api.get<unknown>('/api/customers/{token}/all', { query: { ...query, limit: 10 }, signal });
  return customerSearchResult.parse(info).items;
}

export function findCustomersQueryOptions(text: string) {
  return queryOptions({
    queryKey: receiptKeys.customers(text.trim()),
    queryFn: ({ signal }) => findCustomers(text, signal),
    enabled: isMerchantSearchReady(text),
    staleTime: 30_000,
  });
}
