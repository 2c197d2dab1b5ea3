import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { auditLog } from '../db/schema';
import { writeAudit, type AuditEntry } from '../http/audit';
import type { JobContext, JobRef } from './context';

/** The audit action that marks a job's effect as applied (entity = queue, entity id = job id). */
export const JOB_DONE_ACTION = 'job_completed';

/** The recorded output when this job's effect was already applied (a retry after a crash), else null. */
export async function completedOutput(db: Db, job: JobRef): Promise<object | null> {
  const [row] = await db
    .select({ after: auditLog.after })
    .from(auditLog)
    .where(and(eq(auditLog.entity, job.queue), eq(auditLog.entityId, job.id), eq(auditLog.action, JOB_DONE_ACTION)))
    .limit(1);
  return row ? ((row.after as object | null) ?? {}) : null;
}

/**
 * Run a job's effect once: in one transaction with an audit row that marks it done. pg-boss delivers a job at
 * least once (a worker that dies after committing has its job retried), so a retry of a job whose effect
 * committed finds the mark and answers the recorded output instead of doing the work twice. Concurrent runs
 * of one job (an expired job picked up while the first run still works) wait on an advisory lock.
 */
export async function applyOnce<T extends object>(
  ctx: JobContext,
  job: JobRef,
  effect: (tx: Db, now: Date) => Promise<T>,
): Promise<T> {
  return ctx.database.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${job.id}, 0))`);
    const done = await completedOutput(tx, job);
    if (done) return done as T;
    const now = ctx.clock.now();
    const output = await effect(tx, now);
    await writeAudit(tx, { ...systemActor(job), at: now, action: JOB_DONE_ACTION, entity: job.queue, entityId: job.id, after: output, requestId: job.id });
    return output;
  });
}

/** Audit fields of a worker's own entries: actor 'system' (the job), request id = the job id. */
export function systemActor(job: JobRef): Pick<AuditEntry, 'actorType' | 'actorId' | 'requestId'> {
  return { actorType: 'system', actorId: `job:${job.queue}`, requestId: job.id };
}
