import { JOB_QUEUE } from '@pos/domain';
import { eq, inArray, sql } from 'drizzle-orm';
import { customerPaymentPlans } from '../../db/schema';
import { writeAudit } from '../../http/audit';
import { requesterEmail, type WorkerDefinition } from '../context';
import { applyOnce, soleCustomer, systemActor } from '../effect';
import { PermanentJobError } from '../queue';

/** Change plans' recurring amounts (cents, in the plan's own currency). */
export const recurringPlansWorker: WorkerDefinition<typeof JOB_QUEUE.recurringPlans> = {
  queue: JOB_QUEUE.recurringPlans,
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
      for (const change of changes) {
        const plan = plans.find((p) => p.id === change.customerplanid)!;
        if (plan.currency !== change.recurringAmount.currency) {
          throw new PermanentJobError(
            `Plan ${plan.id} is billed in ${plan.currency}, not ${change.recurringAmount.currency}.`,
            'validation_failed',
          );
        }
      }

      const applied: Array<{ customerplanid: number; recurringAmountCents: number; currency: string }> = [];
      for (const change of changes) {
        const plan = plans.find((p) => p.id === change.customerplanid)!;
        await tx
          .update(customerPaymentPlans)
          .set({
            recurringAmountCents: change.recurringAmount.cents,
            updatedAt: now,
            version: sql`${customerPaymentPlans.version} + 1`,
          })
          .where(eq(customerPaymentPlans.id, plan.id));
        await writeAudit(tx, {
          ...systemActor(job),
          at: now,
          action: 'update_recurring_amount',
          entity: 'customer_payment_plan',
          entityId: plan.id,
          customerId: plan.customerId,
          before: { recurringAmountCents: plan.recurringAmountCents, currency: plan.currency },
          after: {
            recurringAmountCents: change.recurringAmount.cents,
            currency: plan.currency,
            requested_by: requesterEmail(request),
          },
        });
        applied.push({
          customerplanid: plan.id,
          recurringAmountCents: change.recurringAmount.cents,
          currency: plan.currency,
        });
      }
      return { applied };
    });
  },
};
