import type { JobQueueName } from '@pos/domain';
import { customerIdIn, writeAudit } from '../../http/audit';
import { requesterEmail, type WorkerDefinition } from '../context';
import { applyOnce, systemActor } from '../effect';

/** The audit action of a request whose effect a later issue implements (find them: entity = queue, action = this). */
export const DEFERRED_ACTION = 'deferred';

/**
 * A worker for a queue whose effect belongs to a later issue: it records the request (audit, action 'deferred',
 * with the input, so the later issue can replay what waited) and completes with output `{deferred: issue}`.
 */
export function deferredWorker<Q extends JobQueueName>(queue: Q, issue: 'billing'): WorkerDefinition<Q> {
  return {
    queue,
    async run(ctx, request, job) {
      // The billing requests name their customer (customer_id of the input).
      const customerId = customerIdIn(request.input);
      return applyOnce(
        ctx,
        job,
        async (tx, now) => {
          await writeAudit(tx, {
            ...systemActor(job),
            at: now,
            action: DEFERRED_ACTION,
            entity: queue,
            entityId: job.id,
            customerId,
            after: { waiting_for: issue, input: request.input, requested_by: requesterEmail(request) },
          });
          return { deferred: issue };
        },
        { customerId },
      );
    },
  };
}
