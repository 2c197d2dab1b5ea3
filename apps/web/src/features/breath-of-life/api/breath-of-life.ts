import {
  winbackCase,
  winbackListResult,
  winbackReactivation,
  type WinbackActivityCreate,
  type WinbackCase,
  type WinbackListResult,
  type WinbackOfferCreate,
  type WinbackOutcomeCreate,
  type WinbackReactivate,
  type WinbackReactivation,
} from '@pos/domain';
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, isApiError } from '../../../lib/api';
import { datedFileName } from '../../../lib/download';
import { streamDownload, type StreamProgress } from '../../../lib/stream-download';
import { MONEY_ROOTS, useMoneyMutation } from '../../../api/money-views';

/*
 * Breath of life's API (decision 131; contracts in @pos/domain/contracts/breath-of-life.ts, every answer parsed):
 *   GET  /api/breathoflife/{token}?reason&country&status&q&sort&limit&offset[&format=csv]
 *   GET  /api/breathoflife/{storeId}/{token}
 *   POST /api/breathoflife/{storeId}/activities|offer|outcome/{token}
 *   POST /api/breathoflife/{storeId}/reactivate/{token}  (Idempotency-Key)
 */

export const WINBACK_PAGE_SIZE = 25;

export interface WinbackFilters {
  /** lapsed, canceled or '' for both. */
  readonly reason: string;
  /** US, CA or ''. */
  readonly country: string;
  /** A win-back status or ''. */
  readonly status: string;
  readonly q: string;
}

export const NO_WINBACK_FILTERS: WinbackFilters = { reason: '', country: '', status: '', q: '' };

export interface WinbackListParams extends WinbackFilters {
  /** 1-based. */
  readonly page: number;
  /** 'customer' or '-customer' (WINBACK_SORT_FIELDS); null: the latest lapse first. */
  readonly sort: string | null;
}

function filterQuery(f: WinbackFilters) {
  return {
    reason: f.reason || undefined,
    country: f.country || undefined,
    status: f.status || undefined,
    q: f.q.trim() || undefined,
  };
}

export const winbackKeys = {
  all: MONEY_ROOTS.winback,
  /** The prefix of every page of the list. */
  lists: () => [...winbackKeys.all, 'list'] as const,
  list: (p: WinbackListParams) => [...winbackKeys.all, 'list', p] as const,
  case: (storeId: number) => [...winbackKeys.all, 'case', storeId] as const,
};

export async function listWinback(p: WinbackListParams, signal?: AbortSignal): Promise<WinbackListResult> {
  const info = await api.get<unknown>('/api/breathoflife/{token}', {
    query: {
      ...filterQuery(p),
      limit: WINBACK_PAGE_SIZE,
      offset: (p.page - 1) * WINBACK_PAGE_SIZE,
      sort: p.sort ?? undefined,
    },
    signal,
  });
  return winbackListResult.parse(info);
}

export function winbackListQueryOptions(p: WinbackListParams) {
  return queryOptions({
    queryKey: winbackKeys.list(p),
    queryFn: ({ signal }) => listWinback(p, signal),
    placeholderData: keepPreviousData,
  });
}

/** Every matching store as CSV (the server streams all rows), saved with rows-so-far progress; Cancel aborts. */
export function exportWinback(
  p: WinbackListParams,
  options: { signal?: AbortSignal; onProgress?: (progress: StreamProgress) => void } = {},
): Promise<StreamProgress> {
  return streamDownload({
    path: '/api/breathoflife/{token}',
    query: { ...filterQuery(p), sort: p.sort ?? undefined, format: 'csv' },
    fileName: datedFileName('breath-of-life', 'csv'),
    ...options,
  });
}

export async function getWinbackCase(storeId: number, signal?: AbortSignal): Promise<WinbackCase> {
  return winbackCase.parse(
    await api.get<unknown>('/api/breathoflife/{storeId}/{token}', { params: { storeId }, signal }),
  );
}

export function winbackCaseQueryOptions(storeId: number) {
  return queryOptions({
    queryKey: winbackKeys.case(storeId),
    queryFn: ({ signal }) => getWinbackCase(storeId, signal),
  });
}

export async function logWinbackActivity(storeId: number, body: WinbackActivityCreate): Promise<WinbackCase> {
  return winbackCase.parse(
    await api.post<unknown>('/api/breathoflife/{storeId}/activities/{token}', body, { params: { storeId } }),
  );
}

export async function makeWinbackOffer(storeId: number, body: WinbackOfferCreate): Promise<WinbackCase> {
  return winbackCase.parse(
    await api.post<unknown>('/api/breathoflife/{storeId}/offer/{token}', body, { params: { storeId } }),
  );
}

export async function recordWinbackOutcome(storeId: number, body: WinbackOutcomeCreate): Promise<WinbackCase> {
  return winbackCase.parse(
    await api.post<unknown>('/api/breathoflife/{storeId}/outcome/{token}', body, { params: { storeId } }),
  );
}

export async function reactivateWinback(
  storeId: number,
  body: WinbackReactivate,
  idempotencyKey: string,
): Promise<WinbackReactivation> {
  return winbackReactivation.parse(
    await api.post<unknown>('/api/breathoflife/{storeId}/reactivate/{token}', body, {
      params: { storeId },
      idempotencyKey,
    }),
  );
}

// ── Mutations: one hook per operation, each owning what it refreshes (issue 30, item 3) ─────────────────────────

/**
 * A change to one store's case that moves no money (a call or note, an offer, an outcome): the answer is the case
 * as it is now, shown at once, and the list's pages (status, last activity) are asked again; after a version conflict
 * (409: someone else changed the case) the case is read again. The drawer shows a refusal itself.
 */
function useCaseMutation<TBody>(storeId: number, call: (storeId: number, body: TBody) => Promise<WinbackCase>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TBody) => call(storeId, body),
    meta: { silentError: true },
    onSuccess: (c) => {
      queryClient.setQueryData(winbackKeys.case(storeId), c);
      void queryClient.invalidateQueries({ queryKey: winbackKeys.lists() });
    },
    onError: (error) => {
      if (isApiError(error) && error.status === 409)
        void queryClient.invalidateQueries({ queryKey: winbackKeys.case(storeId) });
    },
  });
}

/** Log a call or add a note to the case. */
export function useLogWinbackActivity(storeId: number) {
  return useCaseMutation(storeId, logWinbackActivity);
}

/** Record the offer made (the fee waived, or a promotion). */
export function useMakeWinbackOffer(storeId: number) {
  return useCaseMutation(storeId, makeWinbackOffer);
}

/** Record the outcome: won, or lost and why. */
export function useRecordWinbackOutcome(storeId: number) {
  return useCaseMutation(storeId, recordWinbackOutcome);
}

/**
 * Reactivate the store: a money operation (it may invoice the reactivation fee and e-mails a payment link), so every
 * money view refreshes — this screen's case and list among them — with the store's customer's page.
 */
export function useReactivateWinback(storeId: number) {
  return useMoneyMutation({
    mutationFn: ({ version, idempotencyKey }: { version: number; customerId: number; idempotencyKey: string }) =>
      reactivateWinback(storeId, { version }, idempotencyKey),
    customerOf: ({ customerId }) => customerId,
  });
}
