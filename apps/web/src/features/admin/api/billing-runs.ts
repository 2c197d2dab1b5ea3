import { billingRunList, billingRunStarted, type BillingRunList, type BillingRunStarted } from '@pos/domain';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { adminKeys } from './keys';

/*
 * POST /api/billing/runs/{token} { as_of? }        → 202 { run_id, job_id }   (Admin only; decision 113)
 * GET  /api/billing/runs/{token}?limit&offset      → { items, total }
 */

export const BILLING_RUN_PAGE_SIZE = 10;
/** While a run is queued or running, the list refreshes this often (its progress moves). */
export const BILLING_RUN_REFRESH_MS = 1000;

export async function getBillingRuns(page: number, signal?: AbortSignal): Promise<BillingRunList> {
  const info = await api.get<unknown>('/api/billing/runs/{token}', {
    query: { limit: BILLING_RUN_PAGE_SIZE, offset: (page - 1) * BILLING_RUN_PAGE_SIZE },
    signal,
  });
  return billingRunList.parse(info);
}

export function getBillingRunsQueryOptions(page: number) {
  return queryOptions({
    queryKey: adminKeys.billingRunList(page),
    queryFn: ({ signal }) => getBillingRuns(page, signal),
    placeholderData: keepPreviousData,
    staleTime: 0,
    // Poll only while something is under way.
    refetchInterval: (query) =>
      query.state.data?.items.some((r) => r.status === 'queued' || r.status === 'running')
        ? BILLING_RUN_REFRESH_MS
        : false,
    refetchIntervalInBackground: false,
    meta: { quietRefetch: true },
  });
}

export function useBillingRuns(page: number) {
  return useQuery(getBillingRunsQueryOptions(page));
}

export async function startBillingRun(asOf: string | null): Promise<BillingRunStarted> {
  return billingRunStarted.parse(await api.post<unknown>('/api/billing/runs/{token}', asOf ? { as_of: asOf } : {}));
}

/** "Run billing now": the run list refreshes (the new run shows, queued). */
export function useStartBillingRun() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: startBillingRun,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: adminKeys.billingRuns() });
    },
  });
}
