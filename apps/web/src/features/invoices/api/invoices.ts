import {
  invoiceEmailResult,
  invoicePage,
  invoiceSearchResult,
  type InvoiceEmailResult,
  type InvoicePage,
  type InvoiceSearchResult,
} from '@pos/domain';
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { reverseInvoice, type InvoiceReversal } from '../../../api/invoices';
import { MONEY_ROOTS, useMoneyMutation } from '../../../api/money-views';
import { api } from '../../../lib/api';
import { downloadFile } from '../../../lib/download';

/*
 * The invoices screen's API (decision 114; contracts in @pos/domain/contracts/invoices.ts, every answer parsed):
 *   GET  /api/invoices/{token}?status&type&customer_id&store_id&currency&issued_from&issued_to&due_from&due_to
 *        &overdue&q&limit&offset&sort[&format=csv]
 *   GET  /api/invoices/{invoiceId}/{token}          one invoice (lines, payments, credits, write-offs, history)
 *   GET  /api/invoices/{invoiceId}/pdf/{token}      the PDF
 *   POST /api/invoices/{invoiceId}/email/{token}    e-mail it to the merchant
 * Reverse is the customer accounts' call (api/invoices.ts); useReverseInvoice refreshes every money view.
 */

export const INVOICE_PAGE_SIZE = 25;

export interface InvoiceFilters {
  /** N, P, R or '' for any. */
  readonly status: string;
  readonly type: string;
  readonly customerId: string;
  readonly storeId: string;
  /** USD, CAD or ''. */
  readonly currency: string;
  readonly issuedFrom: string;
  readonly issuedTo: string;
  readonly dueFrom: string;
  readonly dueTo: string;
  readonly overdue: boolean;
  readonly q: string;
}

export const NO_INVOICE_FILTERS: InvoiceFilters = {
  status: '',
  type: '',
  customerId: '',
  storeId: '',
  currency: '',
  issuedFrom: '',
  issuedTo: '',
  dueFrom: '',
  dueTo: '',
  overdue: false,
  q: '',
};

export interface InvoiceListParams extends InvoiceFilters {
  /** 1-based. */
  readonly page: number;
  /** 'due_on' or '-due_on' (INVOICE_SEARCH_SORT_FIELDS); null: newest first. */
  readonly sort: string | null;
}

function filterQuery(f: InvoiceFilters) {
  return {
    status: f.status || undefined,
    type: f.type || undefined,
    customer_id: f.customerId.trim() || undefined,
    store_id: f.storeId.trim() || undefined,
    currency: f.currency || undefined,
    issued_from: f.issuedFrom || undefined,
    issued_to: f.issuedTo || undefined,
    due_from: f.dueFrom || undefined,
    due_to: f.dueTo || undefined,
    overdue: f.overdue || undefined,
    q: f.q.trim() || undefined,
  };
}

export const invoiceKeys = {
  all: MONEY_ROOTS.invoices,
  list: (p: InvoiceListParams) => [...invoiceKeys.all, 'list', p] as const,
  invoice: (id: number) => [...invoiceKeys.all, 'invoice', id] as const,
};

export async function searchInvoices(p: InvoiceListParams, signal?: AbortSignal): Promise<InvoiceSearchResult> {
  const info = await api.get<unknown>('/api/invoices/{token}', {
    query: {
      ...filterQuery(p),
      limit: INVOICE_PAGE_SIZE,
      offset: (p.page - 1) * INVOICE_PAGE_SIZE,
      sort: p.sort ?? undefined,
    },
    signal,
  });
  return invoiceSearchResult.parse(info);
}

export function getInvoiceListQueryOptions(p: InvoiceListParams) {
  return queryOptions({
    queryKey: invoiceKeys.list(p),
    queryFn: ({ signal }) => searchInvoices(p, signal),
    placeholderData: keepPreviousData,
  });
}

/** Every matching invoice as CSV (the server streams all rows). */
export async function exportInvoices(p: InvoiceListParams): Promise<Blob> {
  return api.get<Blob>('/api/invoices/{token}', {
    query: { ...filterQuery(p), sort: p.sort ?? undefined, format: 'csv' },
    responseType: 'blob',
  });
}

export async function getInvoicePage(invoiceId: number, signal?: AbortSignal): Promise<InvoicePage> {
  return invoicePage.parse(
    await api.get<unknown>('/api/invoices/{invoiceId}/{token}', { params: { invoiceId }, signal }),
  );
}

export function getInvoicePageQueryOptions(invoiceId: number) {
  return queryOptions({
    queryKey: invoiceKeys.invoice(invoiceId),
    queryFn: ({ signal }) => getInvoicePage(invoiceId, signal),
  });
}

export async function downloadInvoicePdf(invoiceId: number): Promise<Blob> {
  return api.get<Blob>('/api/invoices/{invoiceId}/pdf/{token}', { params: { invoiceId }, responseType: 'blob' });
}

export async function emailInvoice(invoiceId: number): Promise<InvoiceEmailResult> {
  return invoiceEmailResult.parse(
    await api.post<unknown>('/api/invoices/{invoiceId}/email/{token}', undefined, { params: { invoiceId } }),
  );
}

/** Download the invoice's PDF and save it as `fileName` (saved even if the panel was closed meanwhile). */
export function useDownloadInvoicePdf() {
  return useMutation({
    mutationFn: async ({ invoiceId, fileName }: { invoiceId: number; fileName: string }) =>
      downloadFile(fileName, await downloadInvoicePdf(invoiceId)),
    meta: { silentError: true },
  });
}

/** E-mail the invoice to the merchant: its history (the e-mail sent) is asked again. */
export function useEmailInvoice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (invoiceId: number) => emailInvoice(invoiceId),
    meta: { silentError: true },
    onSuccess: async (_sent, invoiceId) => {
      await queryClient.invalidateQueries({ queryKey: invoiceKeys.invoice(invoiceId) });
    },
  });
}

/** Reverse an invoice (the customer accounts' call): every money view refreshes, the customer's page with them. */
export function useReverseInvoice() {
  return useMoneyMutation({
    mutationFn: ({ customerId, ...reversal }: InvoiceReversal & { customerId: number }) =>
      reverseInvoice(customerId, reversal),
    customerOf: ({ customerId }) => customerId,
  });
}
