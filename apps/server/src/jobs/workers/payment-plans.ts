import { JOB_QUEUE } from '@pos/domain';
import { eq, inArray, sql } from 'drizzle-orm';
import { customerPaymentPlans, stores } from '../../db/schema';
import { writeAudit } from '../../http/audit';
import { requesterEmail, type WorkerDefinition } from '../context';
import { applyOnce, soleCustomer, systemActor } from '../effect';
import { PermanentJobError } from '../queue';

/** Service plans: their license expiry is the store's license expiry (what push-license publishes). */
const SERVICE_PLAN_KINDS = new Set(['monthly', 'yearly']);

/** Apply plan changes: license expiry (a service plan carries it to its store), next billing date, status. */
export const paymentPlansWorker: WorkerDefinition<typeof JOB_QUEUE.paymentPlans> = {
  queue: JOB_QUEUE.paymentPlans,
  async run(ctx, request, job) {
    const changes = request.input.plans;
    return applyOnce(ctx, job, async (tx, now, mark) => {
      const ids = changes.map((c) => c.customerplanid);
      const plans = await tx
        .select()
        .from(customerPaymentPlans)
        .where(inArray(customerPaymentPlans.id, ids))
        .orderBy(customerPaymentPlans.id)
        .for('update');
      const missing = ids.filter((id) => !plans.some((p) => p.id === id));
      if (missing.length > 0)
        throw new PermanentJobError(`Payment plan(s) ${missing.join(', ')} do not exist.`, 'not_found');
      mark.customerId = soleCustomer(plans.map((p) => p.customerId));

      const applied: Array<{ customerplanid: number; version: number }> = [];
      for (const change of changes) {
        const plan = plans.find((p) => p.id === change.customerplanid)!;
        const set = {
          ...(change.licenseExpiresOn === undefined ? {} : { licenseExpiresOn: change.licenseExpiresOn }),
          ...(change.nextBillingOn === undefined ? {} : { nextBillingOn: change.nextBillingOn }),
          ...(change.status === undefined ? {} : { status: change.status }),
        };
        const [updated] = await tx
          .update(customerPaymentPlans)
          .set({ ...set, updatedAt: now, version: sql`${customerPaymentPlans.version} + 1` })
          .where(eq(customerPaymentPlans.id, plan.id))
          .returning({ version: customerPaymentPlans.version });
        let storeLicense: string | null = null;
        if (change.licenseExpiresOn !== undefined && plan.storeId !== null && SERVICE_PLAN_KINDS.has(plan.kind)) {
          await tx
            .update(stores)
            .set({ licenseExpiresOn: change.licenseExpiresOn, updatedAt: now, version: sql`${stores.version} + 1` })
            .where(eq(stores.id, plan.storeId));
          storeLicense = change.licenseExpiresOn;
        }
        await writeAudit(tx, {
          ...systemActor(job),
          at: now,
          action: 'update',
          entity: 'customer_payment_plan',
          entityId: plan.id,
          customerId: plan.customerId,
          before: {
            licenseExpiresOn: plan.licenseExpiresOn,
            nextBillingOn: plan.nextBillingOn,
            status: plan.status,
            version: plan.version,
          },
          after: {
            ...set,
            version: updated!.version,
            ...(storeLicense ? { store_license_expires_on: storeLicense, store_id: plan.storeId } : {}),
            requested_by: requesterEmail(request),
          },
        });
        applied.push({ customerplanid: plan.id, version: updated!.version });
      }
      return { applied };
    });
  },
};
