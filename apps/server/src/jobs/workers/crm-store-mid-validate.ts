import { JOB_QUEUE } from '@pos/domain';
import type { WorkerDefinition } from '../context';
import { applyOnce, completedOutput } from '../effect';

/** MID validation by the CRM port; the job's output is the answer: { MID, valid, reason? }. */
export const crmStoreMidValidateWorker: WorkerDefinition<typeof JOB_QUEUE.crmStoreMidValidate> = {
  queue: JOB_QUEUE.crmStoreMidValidate,
  async run(ctx, request, job) {
    const done = await completedOutput(ctx.database.db, job);
    if (done) return done;
    const { MID, storeid } = request.input;
    const answer = await ctx.crm.validateMid(MID, storeid === undefined ? {} : { excludeStoreId: storeid });
    return applyOnce(ctx, job, async () => ({ MID, valid: answer.valid, ...(answer.reason ? { reason: answer.reason } : {}) }));
  },
};
