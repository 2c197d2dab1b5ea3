import {
  reconcileDayRequest,
  reconcileDayResult,
  reconciliationList,
  reconciliationRunDetail,
  type ReconcileDayRequest,
  type ReconcileDayResult,
  type ReconciliationList,
  type ReconciliationRunDetail,
} from '@pos/domain';
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { datedFileName } from '../../../lib/download';
import { streamDownload, type StreamProgress } from '../../../lib/stream-download';

export const RECONCILIATION_PAGE_SIZE = 25;

/** The runs list's filters ('' for any), as they are kept in the address (#/admin/reconciliation?from=…&status=…). */
export interface ReconciliationFilters {
  readonly from: string;
  readonly to: string;
  readonly currency: string;
  readonly status: string;
}

/** The runs list's state, as it is kept in the address (…&sort=…&page=…). */
export interface ReconciliationListParams extends ReconciliationFilters {
  readonly sort: string | null;
  /** 1-based. */
  readonly page: number;
}

export const reconciliationKeys = {
  all: ['reconciliation'] as const,
  list: (p: ReconciliationListParams) => [...reconciliationKeys.all, 'list', p] as const,
  run: (id: number) => [...reconciliationKeys.all, 'run', id] as const,
};

function filterQuery(p: ReconciliationListParams) {
  return {
    from: p.from || undefined,
    to: p.to || undefined,
    currency: p.currency || undefined,
    status: p.status || undefined,
    sort: p.sort ?? undefined,
  };
}

export async function listRuns(p: ReconciliationListParams, signal?: AbortSignal): Promise<ReconciliationList> {
  const info = await api.get<unknown>('/api/reconciliation/runs/{token}', {
    query: {
      ...filterQuery(p),
      limit: RECONCILIATION_PAGE_SIZE,
      offset: (p.page - 1) * RECONCILIATION_PAGE_SIZE,
    },
    signal,
  });
  return reconciliationList.parse(info);
}

export function getReconciliationListQueryOptions(p: ReconciliationListParams) {
  return queryOptions({
    queryKey: reconciliationKeys.list(p),
    queryFn: ({ signal }) => listRuns(p, signal),
    placeholderData: keepPreviousData,
  });
}

/** Every matching run as CSV (the server streams all rows), saved with rows-so-far progress; Cancel aborts. */
export function exportRuns(
  p: ReconciliationListParams,
  options: { signal?: AbortSignal; onProgress?: (progress: StreamProgress) => void } = {},
): Promise<StreamProgress> {
  return streamDownload({
    path: '/api/reconciliation/runs/{token}',
    query: { ...filterQuery(p), format: 'csv' },
    fileName: datedFileName('reconciliation', 'csv'),
    ...options,
  });
}

export async function getRun(runId: number, signal?: AbortSignal): Promise<ReconciliationRunDetail> {
  return reconciliationRunDetail.parse(
    await api.get<unknown>('/api/reconciliation/runs/{runId}/{token}', { params: { runId }, signal }),
  );
}

export function getReconciliationRunQueryOptions(runId: number) {
  return queryOptions({ queryKey: reconciliationKeys.run(runId), queryFn: ({ signal }) => getRun(runId, signal) });
}

export async function reconcileDay(body: ReconcileDayRequest, idempotencyKey: string): Promise<ReconcileDayResult> {
  return reconcileDayResult.parse(
    await api.post<unknown>('/api/reconciliation/runs/{token}', reconcileDayRequest.parse(body), { idempotencyKey }),
  );
}

/** Reconcile a day now (one run per currency, or the one asked for): the runs are asked again. */
export function useReconcileDay() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, idempotencyKey }: { body: ReconcileDayRequest; idempotencyKey: string }) =>
      reconcileDay(body, idempotencyKey),
    meta: { silentError: true },
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: reconciliationKeys.all });
    },
  });
}
