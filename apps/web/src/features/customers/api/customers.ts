import {
  auditEntryList,
  createCustomerNoteRequest,
  customerNote,
  customerNoteList,
  customerOrderList,
  customerRecord,
  customerSearchResult,
  domainDataInfo,
  salesHistoryInfo,
  salesPersonInfo,
  storeAddressInfo,
  storeAddressRequest,
  storeEmailsInfo,
  storeRecord,
  updateCustomerRequest,
  updateStoreRequest,
  type AuditEntryList,
  type CreateCustomerNoteRequestInput,
  type CustomerNote,
  type CustomerNoteList,
  type CustomerOrderList,
  type CustomerRecord,
  type CustomerSearchKind,
  type CustomerSearchResult,
  type DomainDataInfo,
  type DomainDataType,
  type SalesHistoryInfo,
  type SalesPersonInfo,
  type StoreAddressInfo,
  type StoreAddressRequestInput,
  type StoreEmailsInfo,
  type StoreRecord,
  type UpdateCustomerRequestInput,
  type UpdateStoreRequestInput,
} from '@pos/domain';
import {
  keepPreviousData,
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
  type MutationFunction,
} from '@tanstack/react-query';
import { refreshCustomer } from '../../../api/customers';
import { api, isConflict } from '../../../lib/api';
import { datedFileName, downloadFile } from '../../../lib/download';
import { notifyError } from '../lib/notify';
import { customerKeys } from './keys';

/*
 * The customers core API (contracts in @pos/domain contracts/customers.ts; every answer is parsed):
 *   GET  /api/customers/{token}/all?<kind>=<value>&limit&offset&sort[&format=csv]
 *   GET  /api/customers/{id}/{token}                               the customer with its stores (api/customers.ts)
 *   GET  /api/customers/{id}/{token}/customerorders?storeid&limit&offset&sort
 *   GET  /api/customers/{id}/{token}/customernotes?customer_store_id&limit&offset;  POST the same path
 *   POST /api/customers/{id}/customerstores/address/{token}        {address, customer_store_id, version}
 *   GET  /api/customers/stores/{storeId}/{token}/emails
 *   PUT  /api/storeinfo/{storeId}/{token};  PUT /api/customerinfo/{id}/{token}   (with version; 409 when stale)
 *   GET  /api/salesperson/{id}/{token};  GET /api/saleshistory/{customerId}/{token}?storeid
 *   GET  /api/customers/{id}/audit/{token}?limit&offset
 *   GET  /api/domaindata/{token}?type=
 */

// ── Search ──────────────────────────────────────────────────────────────────────────────────────────

export const SEARCH_PAGE_SIZE = 25;

export interface CustomerSearchParams {
  readonly kind: CustomerSearchKind;
  readonly value: string;
  /** 1-based. */
  readonly page: number;
  /** 'legal_name' or '-legal_name' (CUSTOMER_SEARCH_SORT_FIELDS). */
  readonly sort: string | null;
}

export async function searchCustomers(
  params: CustomerSearchParams,
  signal?: AbortSignal,
): Promise<CustomerSearchResult> {
  const info = await api.get<unknown>('/api/customers/{token}/all', {
    query: {
      [params.kind]: params.value,
      limit: SEARCH_PAGE_SIZE,
      offset: (params.page - 1) * SEARCH_PAGE_SIZE,
      sort: params.sort ?? undefined,
    },
    signal,
  });
  return customerSearchResult.parse(info);
}

export function getCustomerSearchQueryOptions(params: CustomerSearchParams) {
  return queryOptions({
    queryKey: customerKeys.search(params),
    queryFn: ({ signal }) => searchCustomers(params, signal),
    placeholderData: keepPreviousData,
  });
}

export function useCustomerSearch(params: CustomerSearchParams | null) {
  return useQuery({
    ...getCustomerSearchQueryOptions(params ?? { kind: 'search', value: '', page: 1, sort: null }),
    enabled: params !== null,
  });
}

/** Every matching row as CSV, made by the server (`format=csv`; decision 052 of the customers module). */
export async function exportCustomerSearch(
  params: Pick<CustomerSearchParams, 'kind' | 'value' | 'sort'>,
): Promise<Blob> {
  return api.get<Blob>('/api/customers/{token}/all', {
    query: { [params.kind]: params.value, sort: params.sort ?? undefined, format: 'csv' },
    responseType: 'blob',
  });
}

/** Export CSV of the searched text: the file is saved, and the answer says how many rows and under which name. */
export function useExportCustomerSearch() {
  return useMutation({
    meta: { silentError: true },
    mutationFn: async (params: Pick<CustomerSearchParams, 'kind' | 'value' | 'sort'>) => {
      const blob = await exportCustomerSearch(params);
      const fileName = datedFileName('customers', 'csv');
      downloadFile(fileName, blob);
      const lines = (await blob.text()).split(/\r?\n/).filter((l) => l.trim() !== '').length;
      return { rows: Math.max(0, lines - 1), fileName };
    },
    onError: notifyError,
  });
}

// ── The customer ────────────────────────────────────────────────────────────────────────────────────

// The record itself (GET /api/customers/{id}/{token}, useCustomer) is api/customers.ts: the order flow reads it too.

export interface CustomerMutationOptions {
  /**
   * Settle only once the customer's queries are fetched again (the account tabs: a closing dialog reveals the
   * new rows). Without it the refresh runs in the background and the caller's callbacks run at once.
   */
  readonly waitForRefresh?: boolean;
}

/**
 * A change to one customer (its record, stores, notes or accounts). Afterwards everything shown for the
 * customer is asked again (`customerKeys.customer(id)`: record, stores, notes, Activity, account lists): on
 * success, and on a version conflict (409), so the screen shows the record someone else changed. The global
 * toast is off (forms show field errors); `notifyError` says what happened and what to do. A caller's own
 * onSuccess/onError (to `mutate`) run as well.
 */
export function useCustomerMutation<TVariables, TResult>(
  customerId: number,
  mutationFn: MutationFunction<TResult, TVariables>,
  { waitForRefresh = false }: CustomerMutationOptions = {},
) {
  const queryClient = useQueryClient();
  const refresh = async () => {
    const done = refreshCustomer(queryClient, customerId);
    if (waitForRefresh) await done;
  };
  return useMutation<TResult, Error, TVariables>({
    mutationFn,
    meta: { silentError: true },
    onSuccess: refresh,
    onError: async (error) => {
      notifyError(error);
      if (isConflict(error)) await refresh();
    },
  });
}

export async function updateCustomer(id: number, input: UpdateCustomerRequestInput): Promise<CustomerRecord> {
  const body = updateCustomerRequest.parse(input);
  return customerRecord.parse(await api.put<unknown>('/api/customerinfo/{id}/{token}', body, { params: { id } }));
}

export function useUpdateCustomer(customerId: number) {
  return useCustomerMutation(customerId, (input: UpdateCustomerRequestInput) => updateCustomer(customerId, input));
}

export async function updateStore(storeId: number, input: UpdateStoreRequestInput): Promise<StoreRecord> {
  const body = updateStoreRequest.parse(input);
  return storeRecord.parse(await api.put<unknown>('/api/storeinfo/{id}/{token}', body, { params: { id: storeId } }));
}

export function useUpdateStore(customerId: number) {
  return useCustomerMutation(customerId, ({ storeId, input }: { storeId: number; input: UpdateStoreRequestInput }) =>
    updateStore(storeId, input),
  );
}

export async function saveStoreAddress(customerId: number, input: StoreAddressRequestInput): Promise<StoreAddressInfo> {
  const body = storeAddressRequest.parse(input);
  return storeAddressInfo.parse(
    await api.post<unknown>('/api/customers/{id}/customerstores/address/{token}', body, { params: { id: customerId } }),
  );
}

export function useSaveStoreAddress(customerId: number) {
  return useCustomerMutation(customerId, (input: StoreAddressRequestInput) => saveStoreAddress(customerId, input));
}

// ── Notes ───────────────────────────────────────────────────────────────────────────────────────────

export const NOTES_PAGE_SIZE = 20;

export async function getCustomerNotes(
  customerId: number,
  storeId: number | null,
  page: number,
  signal?: AbortSignal,
): Promise<CustomerNoteList> {
  const info = await api.get<unknown>('/api/customers/{id}/{token}/customernotes', {
    params: { id: customerId },
    query: { customer_store_id: storeId ?? undefined, limit: NOTES_PAGE_SIZE, offset: (page - 1) * NOTES_PAGE_SIZE },
    signal,
  });
  return customerNoteList.parse(info);
}

export function getCustomerNotesQueryOptions(customerId: number, storeId: number | null, page: number) {
  return queryOptions({
    queryKey: customerKeys.notesPage(customerId, storeId, page),
    queryFn: ({ signal }) => getCustomerNotes(customerId, storeId, page, signal),
    placeholderData: keepPreviousData,
  });
}

export function useCustomerNotes(customerId: number, storeId: number | null, page: number) {
  return useQuery(getCustomerNotesQueryOptions(customerId, storeId, page));
}

export async function createCustomerNote(
  customerId: number,
  input: CreateCustomerNoteRequestInput,
): Promise<CustomerNote> {
  const body = createCustomerNoteRequest.parse(input);
  return customerNote.parse(
    await api.post<unknown>('/api/customers/{id}/{token}/customernotes', body, { params: { id: customerId } }),
  );
}

export function useCreateCustomerNote(customerId: number) {
  return useCustomerMutation(customerId, (input: CreateCustomerNoteRequestInput) =>
    createCustomerNote(customerId, input),
  );
}

// ── Orders, e-mails, sales ──────────────────────────────────────────────────────────────────────────

export const ORDERS_PAGE_SIZE = 20;

export interface OrdersParams {
  readonly storeId: number | null;
  readonly page: number;
  readonly sort: string | null;
}

export async function getCustomerOrders(
  customerId: number,
  params: OrdersParams,
  signal?: AbortSignal,
): Promise<CustomerOrderList> {
  const info = await api.get<unknown>('/api/customers/{id}/{token}/customerorders', {
    params: { id: customerId },
    query: {
      storeid: params.storeId ?? undefined,
      limit: ORDERS_PAGE_SIZE,
      offset: (params.page - 1) * ORDERS_PAGE_SIZE,
      sort: params.sort ?? undefined,
    },
    signal,
  });
  return customerOrderList.parse(info);
}

export function getCustomerOrdersQueryOptions(customerId: number, params: OrdersParams) {
  return queryOptions({
    queryKey: customerKeys.orders(customerId, params),
    queryFn: ({ signal }) => getCustomerOrders(customerId, params, signal),
    placeholderData: keepPreviousData,
  });
}

export function useCustomerOrders(customerId: number, params: OrdersParams) {
  return useQuery(getCustomerOrdersQueryOptions(customerId, params));
}

export async function getStoreEmails(storeId: number, signal?: AbortSignal): Promise<StoreEmailsInfo> {
  return storeEmailsInfo.parse(
    await api.get<unknown>('/api/customers/stores/{storeId}/{token}/emails', { params: { storeId }, signal }),
  );
}

export function useStoreEmails(storeId: number) {
  return useQuery({
    queryKey: customerKeys.storeEmails(storeId),
    queryFn: ({ signal }) => getStoreEmails(storeId, signal),
  });
}

export async function getSalesPerson(id: number, signal?: AbortSignal): Promise<SalesPersonInfo> {
  return salesPersonInfo.parse(await api.get<unknown>('/api/salesperson/{id}/{token}', { params: { id }, signal }));
}

export function useSalesPerson(id: number | null) {
  return useQuery({
    queryKey: customerKeys.salesPerson(id ?? 0),
    queryFn: ({ signal }) => getSalesPerson(id ?? 0, signal),
    enabled: id !== null,
    staleTime: 5 * 60_000,
  });
}

export async function getSalesHistory(
  customerId: number,
  storeId: number | null,
  signal?: AbortSignal,
): Promise<SalesHistoryInfo> {
  const info = await api.get<unknown>('/api/saleshistory/{id}/{token}', {
    params: { id: customerId },
    query: { storeid: storeId ?? undefined },
    signal,
  });
  return salesHistoryInfo.parse(info);
}

export function useSalesHistory(customerId: number, storeId: number | null) {
  return useQuery({
    queryKey: customerKeys.salesHistory(customerId, storeId),
    queryFn: ({ signal }) => getSalesHistory(customerId, storeId, signal),
  });
}

// ── Activity (audit trail) ──────────────────────────────────────────────────────────────────────────

export const AUDIT_PAGE_SIZE = 20;

export async function getCustomerAudit(
  customerId: number,
  page: number,
  signal?: AbortSignal,
): Promise<AuditEntryList> {
  const info = await api.get<unknown>('/api/customers/{id}/audit/{token}', {
    params: { id: customerId },
    query: { limit: AUDIT_PAGE_SIZE, offset: (page - 1) * AUDIT_PAGE_SIZE },
    signal,
  });
  return auditEntryList.parse(info);
}

export function getCustomerAuditQueryOptions(customerId: number, page: number) {
  return queryOptions({
    queryKey: customerKeys.audit(customerId, { page }),
    queryFn: ({ signal }) => getCustomerAudit(customerId, page, signal),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

export function useCustomerAudit(customerId: number, page: number) {
  return useQuery(getCustomerAuditQueryOptions(customerId, page));
}

// ── Look-ups ────────────────────────────────────────────────────────────────────────────────────────

export async function getDomainData(type: DomainDataType, signal?: AbortSignal): Promise<DomainDataInfo> {
  return domainDataInfo.parse(await api.get<unknown>('/api/domaindata/{token}', { query: { type }, signal }));
}

export function getDomainDataQueryOptions(type: DomainDataType) {
  return queryOptions({
    queryKey: customerKeys.domainData(type),
    queryFn: ({ signal }) => getDomainData(type, signal),
    staleTime: 10 * 60_000,
  });
}

export function useDomainData(type: DomainDataType) {
  return useQuery(getDomainDataQueryOptions(type));
}
