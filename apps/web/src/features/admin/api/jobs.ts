import {
  jobActionInfo,
  jobList,
  jobRunInfo,
  type JobRunInfo,
  type JobStateValue,
  type RunnableScheduledQueue,
} from '@pos/domain';
import {
  keepPreviousData,
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
  type UseMutationOptions,
} from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '../../../lib/api';
import { adminKeys } from './keys';

/*
 * GET  /api/admin/jobs/{token}?queue=&state=&limit&offset → { items, total, queues }   (Admin only)
 * POST /api/admin/jobs/{queue}/{id}/retry/{token}          → { id, state }  (409 when not allowed)
 * POST /api/admin/jobs/{queue}/{id}/cancel/{token}         → { id, state }
 * POST /api/admin/jobs/{queue}/run/{token}                  → { queue, job_id, message }  (a scheduled job now)
 */

export type JobList = z.infer<typeof jobList>;
export type JobActionInfo = z.infer<typeof jobActionInfo>;

export interface JobFilter {
  readonly queue: string | null;
  readonly state: JobStateValue | null;
}

export const JOB_PAGE_SIZE = 25;
/** The job monitor refreshes itself this often while the tab is visible. */
export const JOB_REFRESH_MS = 5000;

export async function getJobList(
  filter: JobFilter,
  page: { limit: number; offset: number },
  signal?: AbortSignal,
): Promise<JobList> {
  const info = await api.get<unknown>('/api/admin/jobs/{token}', {
    query: { queue: filter.queue ?? undefined, state: filter.state ?? undefined, ...page },
    signal,
  });
  return jobList.parse(info);
}

/** One page (1-based) of recent jobs, refreshed every JOB_REFRESH_MS while the page is visible. */
export function getJobListQueryOptions(filter: JobFilter, page: number) {
  return queryOptions({
    queryKey: adminKeys.jobList({ queue: filter.queue, state: filter.state, page }),
    queryFn: ({ signal }) => getJobList(filter, { limit: JOB_PAGE_SIZE, offset: (page - 1) * JOB_PAGE_SIZE }, signal),
    placeholderData: keepPreviousData,
    staleTime: 0,
    refetchInterval: JOB_REFRESH_MS,
    // TanStack pauses the interval while the document is hidden.
    refetchIntervalInBackground: false,
    // An automatic refresh of a list already on screen does not cover the page with the global spinner.
    meta: { quietRefetch: true },
  });
}

export function useJobList(filter: JobFilter, page: number) {
  return useQuery(getJobListQueryOptions(filter, page));
}

export type JobAction = 'retry' | 'cancel';

export interface JobActionInput {
  readonly queue: string;
  readonly id: string;
  readonly action: JobAction;
}

const ACTION_PATHS: Readonly<Record<JobAction, string>> = {
  retry: '/api/admin/jobs/{queue}/{id}/retry/{token}',
  cancel: '/api/admin/jobs/{queue}/{id}/cancel/{token}',
};

export async function actOnJob({ queue, id, action }: JobActionInput): Promise<JobActionInfo> {
  return jobActionInfo.parse(await api.post<unknown>(ACTION_PATHS[action], undefined, { params: { queue, id } }));
}

/** Retry or cancel a job; the job lists refresh afterwards. A caller's own onSuccess runs too. */
export function useJobAction(
  options: Pick<UseMutationOptions<JobActionInfo, Error, JobActionInput>, 'onSuccess'> = {},
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: actOnJob,
    onSuccess: async (...args) => {
      await queryClient.invalidateQueries({ queryKey: adminKeys.jobs() });
      await options.onSuccess?.(...args);
    },
  });
}

export async function runScheduledJob(queue: RunnableScheduledQueue): Promise<JobRunInfo> {
  return jobRunInfo.parse(
    await api.post<unknown>('/api/admin/jobs/{queue}/run/{token}', undefined, { params: { queue } }),
  );
}

/** Run a scheduled job now (the payment sweep, …); the job lists refresh afterwards. */
export function useRunScheduledJob(
  options: Pick<UseMutationOptions<JobRunInfo, Error, RunnableScheduledQueue>, 'onSuccess' | 'onError'> = {},
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: runScheduledJob,
    onSuccess: async (...args) => {
      await queryClient.invalidateQueries({ queryKey: adminKeys.jobs() });
      await options.onSuccess?.(...args);
    },
    onError: options.onError,
  });
}
