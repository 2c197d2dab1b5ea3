import { JOB_QUEUE } from '@pos/domain';
import { eq } from 'drizzle-orm';
import { stores } from '../../db/schema';
import { writeAudit } from '../../http/audit';
import { requesterEmail, type WorkerDefinition } from '../context';
import { applyOnce, completedOutput, systemActor } from '../effect';
import { PermanentJobError } from '../queue';

/**
 * The CRM feature-change (accessories) request: CRM port requestFeatureChange; the CRM's reference is the job's
 * output and is audited on the store. A CRM that cannot be reached throws 'unavailable' → the job is retried.
 * The CRM call is outside our transaction (it is someone else's system): a worker that dies between the call
 * and the record may ask the CRM twice; the CRM's reference tells the two apart.
 */
export const crmAccessoriesOrderWorker: WorkerDefinition<typeof JOB_QUEUE.crmAccessoriesOrder> = {
  queue: JOB_QUEUE.crmAccessoriesOrder,
  async run(ctx, request, job) {
    const done = await completedOutput(ctx.database.db, job);
    if (done) return done;
    const { storeid: storeId, features, notes } = request.input;
    const [store] = await ctx.database.db
      .select({ id: stores.id, customerId: stores.customerId })
      .from(stores)
      .where(eq(stores.id, storeId));
    if (!store) throw new PermanentJobError(`Store ${storeId} does not exist.`, 'not_found');
    const { reference } = await ctx.crm.requestFeatureChange({
      storeId,
      customerId: store.customerId,
      features,
      requestedBy: requesterEmail(request),
      ...(notes ? { notes } : {}),
    });
    return applyOnce(
      ctx,
      job,
      async (tx, now) => {
        await writeAudit(tx, {
          ...systemActor(job),
          at: now,
          action: 'crm_feature_change_requested',
          entity: 'store',
          entityId: storeId,
          customerId: store.customerId,
          after: { reference, features, requested_by: requesterEmail(request) },
        });
        return { storeId, reference };
      },
      { customerId: store.customerId },
    );
  },
};
