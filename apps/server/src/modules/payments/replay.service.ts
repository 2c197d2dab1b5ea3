import {
  invoicesCollectDueSnsRequest,
  JOB_QUEUE,
  paymentCollectionSnsRequest,
  paymentInstrumentAddRequest,
  transactionsSnsRequest,
} from '@pos/domain';
import type { z } from 'zod';
import type { AppContext } from '../../context';
import { writeAudit } from '../../http/audit';
import { QUEUE_DEFINITIONS } from '../../jobs/definitions';

/** The audit action the billing queues wrote before issue 15 (entity = the queue, entity id = the job). */
const DEFERRED_ACTION = 'deferred';
const REPLAYED = 'deferred_replayed';
const REPLAY_FAILED = 'deferred_replay_failed';

const DEFERRED_QUEUES: Record<string, z.ZodType> = {
  [JOB_QUEUE.transactions]: transactionsSnsRequest,
  [JOB_QUEUE.invoicesCollectDue]: invoicesCollectDueSnsRequest,
  [JOB_QUEUE.paymentCollection]: paymentCollectionSnsRequest,
  [JOB_QUEUE.paymentInstrumentAdd]: paymentInstrumentAddRequest,
};

/**
 * Issue 15 point 9 (decision 116): requests the four billing queues recorded as deferred before their workers were
 * real are replayed once — sent again to their queue, now real — or, when their input no longer passes today's
 * contract, recorded as failed with the reason (audit 'deferred_replay_failed', filed under their customer, so the
 * Activity tab shows it). Each deferred entry gets exactly one of the two answers (the answer names its job id).
 */
export async function replayDeferredRequests(app: AppContext): Promise<{ replayed: number; failed: number }> {
  const rows = await app.database.query<{
    entity: string;
    entity_id: string;
    customer_id: number | null;
    after: unknown;
  }>(
    `select d.entity, d.entity_id, d.customer_id, d.after from audit_log d
     where d.action = $1 and d.entity = any($2::text[])
       and not exists (select 1 from audit_log r where r.entity = d.entity and r.entity_id = d.entity_id
                       and r.action in ($3, $4))
     order by d.id limit 1000`,
    [DEFERRED_ACTION, `{${Object.keys(DEFERRED_QUEUES).join(',')}}`, REPLAYED, REPLAY_FAILED],
  );
  let replayed = 0;
  let failed = 0;
  for (const row of rows) {
    const after = (row.after ?? {}) as { input?: unknown; requested_by?: string };
    const parsed = DEFERRED_QUEUES[row.entity]!.safeParse(after.input);
    const now = app.clock.now();
    if (!parsed.success) {
      failed++;
      await app.database.db.transaction((tx) =>
        writeAudit(tx, {
          actorType: 'system',
          actorId: 'deferred-replay',
          at: now,
          action: REPLAY_FAILED,
          entity: row.entity,
          entityId: row.entity_id,
          customerId: row.customer_id,
          after: {
            reason: `The request no longer passes its contract: ${parsed.error.issues[0]?.message ?? 'invalid'}`,
          },
        }),
      );
      continue;
    }
    const queue = row.entity as keyof typeof QUEUE_DEFINITIONS;
    await app.queue.ensure(QUEUE_DEFINITIONS[queue]);
    await app.database.db.transaction(async (tx) => {
      const jobId = await app.queue.send(
        queue,
        {
          input: parsed.data,
          requestedBy: { actorType: 'system', actorId: 'deferred-replay', actorEmail: after.requested_by ?? null },
          requestId: null,
        },
        {},
        tx,
      );
      await writeAudit(tx, {
        actorType: 'system',
        actorId: 'deferred-replay',
        at: now,
        action: REPLAYED,
        entity: row.entity,
        entityId: row.entity_id,
        customerId: row.customer_id,
        after: { new_job_id: jobId },
      });
    });
    replayed++;
  }
  return { replayed, failed };
}
