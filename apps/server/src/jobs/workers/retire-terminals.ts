import { JOB_QUEUE } from '@pos/domain';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { domainData, terminals } from '../../db/schema';
import { writeAudit } from '../../http/audit';
import { requesterEmail, type WorkerDefinition } from '../context';
import { applyOnce, soleCustomer, systemActor } from '../effect';
import { PermanentJobError } from '../queue';

/**
 * Retire terminals with a retire reason (domain_data type 'retire_reason'). A terminal already retired is left
 * as it is (no-op). Each retirement is audited (actor system; the requester is in the entry).
 */
export const retireTerminalsWorker: WorkerDefinition<typeof JOB_QUEUE.retireTerminals> = {
  queue: JOB_QUEUE.retireTerminals,
  async run(ctx, request, job) {
    const { elmer_ids: elmerIds, reason_id: reasonId, note } = request.input;
    return applyOnce(ctx, job, async (tx, now, mark) => {
      const [reason] = await tx
        .select({ id: domainData.id, code: domainData.code, label: domainData.label })
        .from(domainData)
        .where(and(eq(domainData.id, reasonId), eq(domainData.type, 'retire_reason')));
      if (!reason) throw new PermanentJobError(`Retire reason ${reasonId} does not exist.`, 'not_found');
      const rows = await tx
        .select()
        .from(terminals)
        .where(inArray(terminals.elmerId, elmerIds))
        .orderBy(terminals.id)
        .for('update');
      const missing = elmerIds.filter((id) => !rows.some((r) => r.elmerId === id));
      if (missing.length > 0)
        throw new PermanentJobError(`Terminal(s) ${missing.join(', ')} do not exist.`, 'not_found');
      mark.customerId = soleCustomer(rows.map((r) => r.customerId));

      const retired: string[] = [];
      const alreadyRetired: string[] = [];
      for (const terminal of rows) {
        if (terminal.status === 'retired') {
          alreadyRetired.push(terminal.elmerId);
          continue;
        }
        await tx
          .update(terminals)
          .set({
            status: 'retired',
            retiredAt: now,
            retireReasonId: reason.id,
            updatedAt: now,
            version: sql`${terminals.version} + 1`,
          })
          .where(eq(terminals.id, terminal.id));
        await writeAudit(tx, {
          ...systemActor(job),
          at: now,
          action: 'retire',
          entity: 'terminal',
          entityId: terminal.elmerId,
          customerId: terminal.customerId,
          before: { status: terminal.status, retired_at: null, retire_reason_id: null },
          after: {
            status: 'retired',
            retired_at: now.toISOString(),
            retire_reason_id: reason.id,
            retire_reason: reason.code,
            note: note ?? null,
            requested_by: requesterEmail(request),
          },
        });
        retired.push(terminal.elmerId);
      }
      return { retired, alreadyRetired, reason: reason.code };
    });
  },
};
