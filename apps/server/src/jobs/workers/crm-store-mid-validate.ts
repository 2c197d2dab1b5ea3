import { JOB_QUEUE } from '@pos/domain';
import { eq } from 'drizzle-orm';
import { stores } from '../../db/schema';
import type { WorkerDefinition } from '../context';
import { applyOnce, completedOutput } from '../effect';

/**
 * MID validation by the CRM port; the job's output is the answer: { MID, valid, reason? }. The validation of
 * a store's MID is filed under the store's customer (its done mark shows on the customer's Activity).
 */
export const crmStoreMidValidateWorker: WorkerDefinition<typeof JOB_QUEUE.crmStoreMidValidate> = {
  queue: JOB_QUEUE.crmStoreMidValidate,
  async run(ctx, request, job) {
    const done = await completedOutput(ctx.database.db, job);
    if (done) return done;
    const { MID, storeid } = request.input;
    const answer = await ctx.crm.validateMid(MID, storeid === undefined ? {} : { excludeStoreId: storeid });
    return applyOnce(ctx, job, async (tx, _now, mark) => {
      if (storeid !== undefined) {
        const [store] = await tx.select({ customerId: stores.customerId }).from(stores).where(eq(stores.id, storeid));
        mark.customerId = store?.customerId ?? null;
      }
      return { MID, valid: answer.valid, ...(answer.reason ? { reason: answer.reason } : {}) };
    });
  },
};
