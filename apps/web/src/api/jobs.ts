import { jobStatusInfo, type JobStatusInfo } from '@pos/domain';
import { api, ApiError } from '../lib/api';

/*
 * Following a queued job (spec §7: a queue call answers 202 {jobId} and a worker does the work), shared by the
 * features that start jobs (customers' store actions, failed payments, the collection page):
 *   GET /api/jobs/{jobId}/{token}   the job's state and output
 */

export async function getJobStatus(jobId: string, signal?: AbortSignal): Promise<JobStatusInfo> {
  return jobStatusInfo.parse(await api.get<unknown>('/api/jobs/{jobId}/{token}', { params: { jobId }, signal }));
}

export interface PollOptions {
  /** Between two looks at the job (default 500 ms). */
  readonly intervalMs?: number;
  /** Give up after this long (default 30 s). */
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Wait for a job to finish: its output when completed; an ApiError when it failed, was cancelled or took too long. */
export async function waitForJob(
  jobId: string,
  { intervalMs = 500, timeoutMs = 30_000, signal }: PollOptions = {},
): Promise<unknown> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = await getJobStatus(jobId, signal);
    if (job.state === 'completed') return job.output;
    if (job.state === 'failed' || job.state === 'cancelled') {
      throw new ApiError({
        status: 502,
        code: 'job_failed',
        message: job.error ? `The request failed: ${job.error}` : 'The request failed.',
      });
    }
    if (Date.now() >= deadline) {
      throw new ApiError({
        status: 504,
        code: 'job_timeout',
        message: 'No answer yet; the request is still queued. Try again in a minute',
      });
    }
    await sleep(intervalMs);
  }
}
