import type { JobState, JobStatusInfo } from '@pos/domain';
import type { TestApp } from './test-app';

/**
 * Poll GET /api/jobs/{jobId}/{token} until the job reaches one of `states` (default: finished), and return it.
 * Workers must be running in the test app (startWorkers).
 */
export async function waitForJob(
  t: TestApp,
  token: string,
  jobId: string,
  options: { states?: readonly JobState[]; timeoutMs?: number } = {},
): Promise<JobStatusInfo> {
  const states = options.states ?? ['completed', 'failed', 'cancelled'];
  const deadline = Date.now() + (options.timeoutMs ?? 20_000);
  let last: JobStatusInfo | undefined;
  for (;;) {
    const res = await t.request({ method: 'GET', url: `/api/jobs/${jobId}/${token}` });
    if (res.statusCode !== 200) throw new Error(`job ${jobId}: ${res.statusCode} ${res.body}`);
    last = (res.json() as { info: JobStatusInfo }).info;
    if (states.includes(last.state)) return last;
    if (Date.now() > deadline)
      throw new Error(`job ${jobId} did not reach ${states.join('/')} in time; last seen ${JSON.stringify(last)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
