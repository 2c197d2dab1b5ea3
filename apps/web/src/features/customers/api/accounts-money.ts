import {
  invoiceDetail,
  creditInvoiceList,
  invoiceList,
  transactionActionResult,
  transactionList,
  type InvoiceDetail,
  type InvoiceList,
  type TransactionActionRequest,
  type TransactionActionResult,
  type TransactionList,
} from '@pos/domain';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { reverseInvoice, type InvoiceReversal } from '../../../api/invoices';
import { useMoneyMutation } from '../../../api/money-views';
import { api } from '../../../lib/api';
import { accountPath, compactQuery } from './accounts';
import { accountKeys } from './accounts-keys';

/*
 *   GET    …/transactions?storeid&status&limit&offset&sort             → transactionList
 *   POST $ …/transactions/{txId}          {action: retry|void, version} → transactionActionResult
 *   GET    …/customerinvoices?storeid&status&type&limit&offset&sort    → invoiceList
 *   GET    …/customerinvoices/{invoiceId}                              → invoiceDetail
 *   POST $ …/customerinvoices/{invoiceId}/reverse  {reason, version}   → invoiceReverseResult
 *   GET    …/creditinvoices?storeid                                    → creditInvoiceList
 * $: sent with an Idempotency-Key (one per user action; the same key again when the action is repeated).
 */

export interface MoneyFilter {
  readonly storeId: number;
  readonly status: string | null;
  /** Invoices only: the type letter. */
  readonly type?: string | null;
  readonly limit: number;
  readonly offset: number;
  readonly sort?: string;
}

export async function getTransactions(
  customerId: number,
  filter: MoneyFilter,
  signal?: AbortSignal,
): Promise<TransactionList> {
  const query = compactQuery({
    storeid: filter.storeId,
    status: filter.status,
    limit: filter.limit,
    offset: filter.offset,
    sort: filter.sort,
  });
  return transactionList.parse(
    await api.get<unknown>(accountPath('/transactions'), { params: { id: customerId }, query, signal }),
  );
}

export function getTransactionsQueryOptions(customerId: number, filter: MoneyFilter) {
  return queryOptions({
    queryKey: accountKeys.transactions(customerId, filter),
    queryFn: ({ signal }) => getTransactions(customerId, filter, signal),
    placeholderData: keepPreviousData,
  });
}

export function useTransactions(customerId: number, filter: MoneyFilter, enabled = true) {
  return useQuery({ ...getTransactionsQueryOptions(customerId, filter), enabled });
}

export interface TransactionActionInput {
  readonly txId: number;
  readonly body: TransactionActionRequest;
  readonly idempotencyKey: string;
}

export async function actOnTransaction(
  customerId: number,
  { txId, body, idempotencyKey }: TransactionActionInput,
): Promise<TransactionActionResult> {
  return transactionActionResult.parse(
    await api.post<unknown>(accountPath('/transactions/{txId}'), body, {
      params: { id: customerId, txId },
      idempotencyKey,
    }),
  );
}

/**
 * Retry a charge or void it: money moves, so every money view refreshes with this customer's page — after the
 * answer or a refusal (a 409: the transaction changed meanwhile) — and the mutation settles once they are read
 * again. The tab shows a refusal itself.
 */
export function useTransactionAction(customerId: number) {
  return useMoneyMutation({
    mutationFn: (input: TransactionActionInput) => actOnTransaction(customerId, input),
    customerOf: () => customerId,
  });
}

export async function getInvoices(customerId: number, filter: MoneyFilter, signal?: AbortSignal): Promise<InvoiceList> {
  const query = compactQuery({
    storeid: filter.storeId,
    status: filter.status,
    type: filter.type,
    limit: filter.limit,
    offset: filter.offset,
    sort: filter.sort,
  });
  return invoiceList.parse(
    await api.get<unknown>(accountPath('/customerinvoices'), { params: { id: customerId }, query, signal }),
  );
}

export function getInvoicesQueryOptions(customerId: number, filter: MoneyFilter) {
  return queryOptions({
    queryKey: accountKeys.invoices(customerId, filter),
    queryFn: ({ signal }) => getInvoices(customerId, filter, signal),
    placeholderData: keepPreviousData,
  });
}

export function useInvoices(customerId: number, filter: MoneyFilter, enabled = true) {
  return useQuery({ ...getInvoicesQueryOptions(customerId, filter), enabled });
}

/** GET …/creditinvoices?storeid: the store's credit invoices (R reversals, B promotion rewards; decision 152). */
export async function getCreditInvoices(customerId: number, storeId: number, signal?: AbortSignal) {
  return creditInvoiceList.parse(
    await api.get<unknown>(accountPath('/creditinvoices'), {
      params: { id: customerId },
      query: { storeid: storeId },
      signal,
    }),
  );
}

export function useCreditInvoices(customerId: number, storeId: number) {
  return useQuery({
    queryKey: accountKeys.creditInvoices(customerId, storeId),
    queryFn: ({ signal }) => getCreditInvoices(customerId, storeId, signal),
  });
}

export async function getInvoice(customerId: number, invoiceId: number, signal?: AbortSignal): Promise<InvoiceDetail> {
  return invoiceDetail.parse(
    await api.get<unknown>(accountPath('/customerinvoices/{invoiceId}'), {
      params: { id: customerId, invoiceId },
      signal,
    }),
  );
}

export function useInvoice(customerId: number, invoiceId: number | null) {
  return useQuery({
    queryKey: accountKeys.invoice(customerId, invoiceId ?? 0),
    queryFn: ({ signal }) => getInvoice(customerId, invoiceId ?? 0, signal),
    enabled: invoiceId !== null,
  });
}

/** Reverse an invoice (a paid one becomes a refund credit memo): a money operation, like useTransactionAction. */
export function useReverseInvoice(customerId: number) {
  return useMoneyMutation({
    mutationFn: (input: InvoiceReversal) => reverseInvoice(customerId, input),
    customerOf: () => customerId,
  });
}
