import {
  returnCreateRequest,
  returnDetail,
  returnEligibility,
  returnRefundRequest,
  returnSearchResult,
  returnStatusRequest,
  type ReturnAction,
  type ReturnCreateRequest,
  type ReturnDetail,
  type ReturnEligibility,
  type ReturnRefundMethod,
  type ReturnSearchResult,
} from '@pos/domain';
import { keepPreviousData, queryOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { MONEY_ROOTS, useMoneyMutation } from '../../../api/money-views';
import { api } from '../../../lib/api';

/*
 * The returns screens' API (decision 122; contracts in @pos/domain/contracts/returns.ts, every answer parsed):
 *   GET  /api/returns/eligible/{token}?storeid&customerid&q
 *   GET  /api/returns/{token}?status&customer_id&age&q&sort&limit&offset[&format=csv]
 *   POST /api/returns/{token}                      → 201 the return
 *   GET  /api/returns/{id}/{token}
 *   POST /api/returns/{id}/status/{token}          {action, version, reason?}
 *   POST /api/returns/{id}/refund/{token}          {method, version}, Idempotency-Key
 * Requesting a return refreshes the returns; its steps and refund move money and refresh every money view.
 */

export const RETURNS_PAGE_SIZE = 25;

/** The open return in the address: #/viewreturns?id=12. */
export function returnIdOf(value: string | null): number | null {
  return value && /^[1-9]\d{0,9}$/.test(value) ? Number(value) : null;
}

export interface ReturnFilters {
  readonly status: string;
  /** Requested within this many days ('' for any). */
  readonly age: string;
  readonly customerId: string;
  readonly q: string;
}
export const NO_RETURN_FILTERS: ReturnFilters = { status: '', age: '', customerId: '', q: '' };

export interface ReturnListParams extends ReturnFilters {
  readonly page: number;
  readonly sort: string | null;
  /** Rows per page (default RETURNS_PAGE_SIZE). */
  readonly limit?: number;
}

function filterQuery(f: ReturnFilters) {
  return {
    status: f.status || undefined,
    age: f.age.trim() || undefined,
    customer_id: f.customerId.trim() || undefined,
    q: f.q.trim() || undefined,
  };
}

export const returnKeys = {
  all: MONEY_ROOTS.returns,
  list: (p: ReturnListParams) => [...returnKeys.all, 'list', p] as const,
  one: (id: number) => [...returnKeys.all, 'one', id] as const,
  eligible: (q: EligibleQuery) => [...returnKeys.all, 'eligible', q] as const,
};

export async function searchReturns(p: ReturnListParams, signal?: AbortSignal): Promise<ReturnSearchResult> {
  const limit = p.limit ?? RETURNS_PAGE_SIZE;
  const info = await api.get<unknown>('/api/returns/{token}', {
    query: { ...filterQuery(p), limit, offset: (p.page - 1) * limit, sort: p.sort ?? undefined },
    signal,
  });
  return returnSearchResult.parse(info);
}

export function getReturnListQueryOptions(p: ReturnListParams) {
  return queryOptions({
    queryKey: returnKeys.list(p),
    queryFn: ({ signal }) => searchReturns(p, signal),
    placeholderData: keepPreviousData,
  });
}

export function exportReturns(p: ReturnListParams): Promise<Blob> {
  return api.get<Blob>('/api/returns/{token}', {
    query: { ...filterQuery(p), sort: p.sort ?? undefined, format: 'csv' },
    responseType: 'blob',
  });
}

export async function getReturn(id: number, signal?: AbortSignal): Promise<ReturnDetail> {
  return returnDetail.parse(await api.get<unknown>('/api/returns/{id}/{token}', { params: { id }, signal }));
}

export function getReturnQueryOptions(id: number) {
  return queryOptions({ queryKey: returnKeys.one(id), queryFn: ({ signal }) => getReturn(id, signal) });
}

export interface EligibleQuery {
  readonly storeId?: number;
  readonly customerId?: number;
  readonly q?: string;
}

export async function getEligible(q: EligibleQuery, signal?: AbortSignal): Promise<ReturnEligibility> {
  return returnEligibility.parse(
    await api.get<unknown>('/api/returns/eligible/{token}', {
      query: { storeid: q.storeId, customerid: q.customerId, q: q.q },
      signal,
    }),
  );
}

export function getEligibleQueryOptions(q: EligibleQuery) {
  return queryOptions({ queryKey: returnKeys.eligible(q), queryFn: ({ signal }) => getEligible(q, signal) });
}

export async function createReturn(body: ReturnCreateRequest): Promise<ReturnDetail> {
  return returnDetail.parse(await api.post<unknown>('/api/returns/{token}', returnCreateRequest.parse(body)));
}

export async function changeReturnStatus(
  id: number,
  input: { action: ReturnAction; version: number; reason?: string },
): Promise<ReturnDetail> {
  const body = returnStatusRequest.parse(input);
  return returnDetail.parse(await api.post<unknown>('/api/returns/{id}/status/{token}', body, { params: { id } }));
}

export async function refundReturn(
  id: number,
  input: { method: ReturnRefundMethod; version: number },
  idempotencyKey: string,
): Promise<ReturnDetail> {
  const body = returnRefundRequest.parse(input);
  return returnDetail.parse(
    await api.post<unknown>('/api/returns/{id}/refund/{token}', body, { params: { id }, idempotencyKey }),
  );
}

/** Request a return: the returns lists and eligible sales are asked again. */
export function useCreateReturn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createReturn,
    meta: { silentError: true },
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: returnKeys.all });
    },
  });
}

/** The answer of a step is the return as it is now: shown at once (every money view is then asked again). */
async function shown(queryClient: QueryClient, answer: Promise<ReturnDetail>): Promise<ReturnDetail> {
  const r = await answer;
  queryClient.setQueryData(returnKeys.one(r.id), r);
  return r;
}

/** Mark a return received or inspected, or reject it: its steps move money (the credit, the restocking fee). */
export function useChangeReturnStatus() {
  const queryClient = useQueryClient();
  return useMoneyMutation({
    mutationFn: ({ id, ...input }: { id: number; action: ReturnAction; version: number; reason?: string }) =>
      shown(queryClient, changeReturnStatus(id, input)),
    customerOf: (_input, r) => r?.customer_id,
  });
}

/** Refund an inspected return to the card or by check. */
export function useRefundReturn() {
  const queryClient = useQueryClient();
  return useMoneyMutation({
    mutationFn: ({
      id,
      idempotencyKey,
      ...input
    }: {
      id: number;
      method: ReturnRefundMethod;
      version: number;
      idempotencyKey: string;
    }) => shown(queryClient, refundReturn(id, input, idempotencyKey)),
    customerOf: (_input, r) => r?.customer_id,
  });
}
