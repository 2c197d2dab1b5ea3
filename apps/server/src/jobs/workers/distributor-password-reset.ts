import { JOB_QUEUE } from '@pos/domain';
import { systemCtx } from '../../context';
import { mailPasswordResetLink } from '../../modules/auth';
import type { WorkerDefinition } from '../context';
import { applyOnce, systemActor } from '../effect';

/**
 * The distributor "forgot password" e-mail (decision 141): the request only enqueued the e-mail as typed; here the
 * account is looked up and, when active, gets a new single-use link (earlier ones stop working). Once per job.
 */
export const distributorPasswordResetWorker: WorkerDefinition<typeof JOB_QUEUE.distributorPasswordReset> = {
  queue: JOB_QUEUE.distributorPasswordReset,
  async run(ctx, request, job) {
    const work = systemCtx(ctx, systemActor(job), request.requestId ?? job.id);
    return applyOnce(ctx, job, (tx) => mailPasswordResetLink(work, tx, request.input.email));
  },
};
