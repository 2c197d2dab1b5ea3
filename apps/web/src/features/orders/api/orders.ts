import {
  customerMatchInfo,
  ORDER_TYPE,
  orderInfoRecord,
  orderNoteInfo,
  orderNotesInfo,
  orderRowInfo,
  orderSearchResult,
  orderStatusChangeInfo,
  orderStatusHistoryInfo,
  orderStatusReasonsInfo,
  type CustomerMatchDecisionRequest,
  type CustomerMatchRecord,
  type OrderNoteItem,
  type OrderSearchRecord,
  type OrderSearchResult,
  type OrderStatusChangeInfo,
  type OrderStatusChangeRequest,
  type OrderStatusCode,
  type OrderStatusReasonsInfo,
} from '@pos/domain';
import { keepPreviousData, queryOptions, useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import type { z } from 'zod';
import { useMoneyMutation } from '../../../api/money-views';
import { orderKeys as sharedOrderKeys } from '../../../api/orders';
import { api, isVersionConflict } from '../../../lib/api';
import { streamDownload, type StreamProgress } from '../../../lib/stream-download';
import { LIVE_QUEUE } from '../../../lib/live-queue';

/*
 * The order list API (contracts in @pos/domain; every answer is parsed):
 *   GET  /api/customers/orders/search/{token}?status&flow&sales_rep&date_from&date_to&q&limit&offset&sort[&format=csv]
 *   GET  /api/customers/orders/{orderId}/{token}  one order as a list row (404 when not found or not the caller's to see)
 *   GET  /api/customers/orderstatus/history/{orderId}/{token}
 *   GET  /api/customers/ordernotes/{orderId}/{token};  POST the same path {note}
 *   GET  /api/customers/orderstatus/{token}?status=
 *   PUT  /api/customers/ordernotes/{token} {order_id, status, status_reason_id?, note?, version, terminal_serials?}
 *        (409 when stale, or Complete while a terminal has no serial number — decision 150)
 *   GET  /api/customers/orderinfo/{token}?id=  the order's document, read for its terminals (count and serials)
 *   GET  /api/customers/orderinfo/{orderId}/customermatch/{token}  the order's existing-customer match, or null (142)
 *   POST the same path {customer_id, decision: 'confirm' | 'reject'}  (customer_details_edit; never an agent's session)
 */

export const ORDER_PAGE_SIZE = 25;

export interface OrderFilters {
  /** A §4 code or '' for any. */
  readonly status: string;
  /** 'AR' | 'RAM' | ''. */
  readonly flow: string;
  readonly salesRep: string;
  readonly dateFrom: string;
  readonly dateTo: string;
  readonly q: string;
}

export interface OrderListParams extends OrderFilters {
  /** 1-based. */
  readonly page: number;
  /** 'legal_name' or '-legal_name' (ORDER_SEARCH_SORT_FIELDS). */
  readonly sort: string | null;
}

function searchQuery(p: OrderFilters) {
  return {
    status: p.status || undefined,
    flow: p.flow || undefined,
    sales_rep: p.salesRep.trim() || undefined,
    date_from: p.dateFrom || undefined,
    date_to: p.dateTo || undefined,
    q: p.q.trim() || undefined,
  };
}

export async function searchOrders(p: OrderListParams, signal?: AbortSignal): Promise<OrderSearchResult> {
  const info = await api.get<unknown>('/api/customers/orders/search/{token}', {
    query: {
      ...searchQuery(p),
      limit: ORDER_PAGE_SIZE,
      offset: (p.page - 1) * ORDER_PAGE_SIZE,
      sort: p.sort ?? undefined,
    },
    signal,
  });
  return orderSearchResult.parse(info);
}

/** All matching orders as CSV, saved as `fileName`: the server streams every row, read with progress (lib/stream-download). */
export function exportOrders(
  p: OrderListParams,
  fileName: string,
  signal: AbortSignal,
  onProgress: (progress: StreamProgress) => void,
): Promise<StreamProgress> {
  return streamDownload({
    path: '/api/customers/orders/search/{token}',
    query: { ...searchQuery(p), sort: p.sort ?? undefined, format: 'csv' },
    fileName,
    signal,
    onProgress,
  });
}

/** One order as a row of the list, for a link to it (#/order?id=…); 404 when the session may not see it (decision 102). */
export async function getOrderRow(orderId: number, signal?: AbortSignal): Promise<OrderSearchRecord> {
  const info = await api.get<unknown>('/api/customers/orders/{orderId}/{token}', { params: { orderId }, signal });
  return orderRowInfo.parse(info).order;
}

export type OrderHistoryItem = z.infer<typeof orderStatusHistoryInfo>['history'][number];

export async function getOrderHistory(orderId: number, signal?: AbortSignal): Promise<OrderHistoryItem[]> {
  const info = await api.get<unknown>('/api/customers/orderstatus/history/{orderId}/{token}', {
    params: { orderId },
    signal,
  });
  return orderStatusHistoryInfo.parse(info).history;
}

export async function getOrderNotes(orderId: number, signal?: AbortSignal): Promise<OrderNoteItem[]> {
  const info = await api.get<unknown>('/api/customers/ordernotes/{orderId}/{token}', { params: { orderId }, signal });
  return orderNotesInfo.parse(info).notes;
}

export async function addOrderNote(orderId: number, note: string): Promise<OrderNoteItem> {
  const info = await api.post<unknown>(
    '/api/customers/ordernotes/{orderId}/{token}',
    { note },
    { params: { orderId } },
  );
  return orderNoteInfo.parse(info).note;
}

export async function getStatusReasons(status: OrderStatusCode, signal?: AbortSignal): Promise<OrderStatusReasonsInfo> {
  const info = await api.get<unknown>('/api/customers/orderstatus/{token}', { query: { status }, signal });
  return orderStatusReasonsInfo.parse(info);
}

export async function changeOrderStatus(body: OrderStatusChangeRequest): Promise<OrderStatusChangeInfo> {
  const info = await api.put<unknown>('/api/customers/ordernotes/{token}', body);
  return orderStatusChangeInfo.parse(info);
}

/** The terminals of an order to install: how many (none for a non-POS order) and the serials already entered. */
export interface OrderTerminals {
  readonly count: number;
  readonly serials: readonly string[];
}

export async function getOrderTerminals(orderId: number, signal?: AbortSignal): Promise<OrderTerminals> {
  const info = await api.get<{ order: unknown }>('/api/customers/orderinfo/{token}', {
    query: { id: orderId },
    signal,
  });
  const doc = orderInfoRecord.parse(info.order).json;
  const pos = (doc.orderType ?? ORDER_TYPE.POS) === ORDER_TYPE.POS;
  const count = pos && typeof doc.noOfTerminals === 'number' ? Math.max(0, doc.noOfTerminals) : 0;
  const saved = Array.isArray(doc.TerminalSerials) ? doc.TerminalSerials : [];
  return { count, serials: saved.map((s) => (typeof s === 'string' ? s : '')) };
}

/** The order's existing-customer match (decision 142), or null when it waits for none. */
export async function getCustomerMatch(orderId: number, signal?: AbortSignal): Promise<CustomerMatchRecord | null> {
  const info = await api.get<unknown>('/api/customers/orderinfo/{orderId}/customermatch/{token}', {
    params: { orderId },
    signal,
  });
  return customerMatchInfo.parse(info).match;
}

/** Confirm the match (onboarding attaches the order to that customer) or reject it (onboard as a new customer). */
export async function decideCustomerMatch(
  orderId: number,
  body: CustomerMatchDecisionRequest,
): Promise<CustomerMatchRecord | null> {
  const info = await api.post<unknown>('/api/customers/orderinfo/{orderId}/customermatch/{token}', body, {
    params: { orderId },
  });
  return customerMatchInfo.parse(info).match;
}

/** The order screens' keys: the shared ones of api/orders.ts (all, order(id)) and the lists only they read. */
export const orderKeys = {
  ...sharedOrderKeys,
  /** One order's list record, read by id (the #/order?id= link; decision 102). */
  row: (orderId: number) => [...sharedOrderKeys.order(orderId), 'row'] as const,
  /** The prefix of every page of the list. */
  lists: () => [...sharedOrderKeys.all, 'list'] as const,
  list: (p: OrderListParams) => [...sharedOrderKeys.all, 'list', p] as const,
  history: (orderId: number) => [...sharedOrderKeys.order(orderId), 'history'] as const,
  notes: (orderId: number) => [...sharedOrderKeys.order(orderId), 'notes'] as const,
  contracts: (orderId: number) => [...sharedOrderKeys.order(orderId), 'contracts'] as const,
  terminals: (orderId: number) => [...sharedOrderKeys.order(orderId), 'terminals'] as const,
  customerMatch: (orderId: number) => [...sharedOrderKeys.order(orderId), 'customer-match'] as const,
  /** The agents on the order (agent_orders; decision 162). */
  assignments: (orderId: number) => [...sharedOrderKeys.order(orderId), 'assignments'] as const,
  reasons: (status: string) => [...sharedOrderKeys.all, 'reasons', status] as const,
  agents: (search: string) => [...sharedOrderKeys.all, 'agents', search] as const,
};

export function getOrderListQueryOptions(params: OrderListParams) {
  return queryOptions({
    queryKey: orderKeys.list(params),
    queryFn: ({ signal }) => searchOrders(params, signal),
    placeholderData: keepPreviousData,
    ...LIVE_QUEUE,
  });
}

/** The open order's record: live like the queue, so a status moved by someone else shows in its panel. */
export function getOrderRowQueryOptions(orderId: number) {
  return queryOptions({
    queryKey: orderKeys.row(orderId),
    queryFn: ({ signal }) => getOrderRow(orderId, signal),
    ...LIVE_QUEUE,
  });
}

export function getOrderHistoryQueryOptions(orderId: number) {
  return queryOptions({
    queryKey: orderKeys.history(orderId),
    queryFn: ({ signal }) => getOrderHistory(orderId, signal),
  });
}

export function getOrderNotesQueryOptions(orderId: number) {
  return queryOptions({ queryKey: orderKeys.notes(orderId), queryFn: ({ signal }) => getOrderNotes(orderId, signal) });
}

/** The reasons to pick from for a move to `status` (asked only when the move needs one). */
export function getStatusReasonsQueryOptions(status: OrderStatusCode | null) {
  return queryOptions({
    queryKey: orderKeys.reasons(status ?? ''),
    queryFn: ({ signal }) => getStatusReasons(status!, signal),
    enabled: status !== null,
  });
}

export function getCustomerMatchQueryOptions(orderId: number) {
  return queryOptions({
    queryKey: orderKeys.customerMatch(orderId),
    queryFn: ({ signal }) => getCustomerMatch(orderId, signal),
    // The panel shows nothing about a match it could not read; the rest of the panel says what went wrong.
    meta: { silentError: true },
  });
}

export function getOrderTerminalsQueryOptions(orderId: number, enabled: boolean) {
  return queryOptions({
    queryKey: orderKeys.terminals(orderId),
    queryFn: ({ signal }) => getOrderTerminals(orderId, signal),
    enabled,
  });
}

// ── Mutations: one hook per operation, each owning what it refreshes (issue 30, item 3) ─────────────────────────

/**
 * A change to one part of the open order (the panel shows a refusal itself): that part's query is asked again once
 * the change is made — or, `'settled'`, also after a refusal (the part moved on meanwhile).
 */
function useOrderPartMutation<TVariables, TData>(
  mutationFn: (variables: TVariables) => Promise<TData>,
  part: QueryKey,
  refreshAfter: 'success' | 'settled',
) {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: part });
  return useMutation({
    mutationFn,
    meta: { silentError: true },
    onSuccess: refreshAfter === 'success' ? refresh : undefined,
    onSettled: refreshAfter === 'settled' ? refresh : undefined,
  });
}

/** A note on the order: its notes refresh. */
export function useAddOrderNote(orderId: number) {
  return useOrderPartMutation((note: string) => addOrderNote(orderId, note), orderKeys.notes(orderId), 'success');
}

/**
 * Move an order to another status. A move to Complete captures the order's card holds (paying its sale invoice) and
 * Rejected or POS Canceled releases them (decision 148), so this is a money operation: every money view refreshes.
 * Every order query refreshes too (the list, the open row, its history, the order flow's document) — after the move,
 * and after a version conflict (someone else moved it: the panel shows the latest version). The panel shows a
 * refusal itself.
 */
export function useMoveOrderStatus() {
  const queryClient = useQueryClient();
  const refreshOrders = () => queryClient.invalidateQueries({ queryKey: orderKeys.all });
  return useMoneyMutation({
    mutationFn: async (body: OrderStatusChangeRequest) => {
      try {
        const info = await changeOrderStatus(body);
        await refreshOrders();
        return info;
      } catch (error) {
        if (isVersionConflict(error)) await refreshOrders();
        throw error;
      }
    },
  });
}

/** Confirm or reject the order's existing-customer match: the match refreshes, also after a refusal (it moved on). */
export function useDecideCustomerMatch(orderId: number) {
  return useOrderPartMutation(
    (body: CustomerMatchDecisionRequest) => decideCustomerMatch(orderId, body),
    orderKeys.customerMatch(orderId),
    'settled',
  );
}
