import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { auditLog } from '../db/schema';
import { writeAudit, type AuditEntry } from '../http/audit';
import type { AppContext } from '../context';
import type { JobRef } from './context';

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

/** What an effect may tell about its done mark: the one customer the job was about (their Activity lists it). */
export interface JobDoneMark {
  customerId?: number | null;
}

/**
 * Run a job's effect once: in one transaction with an audit row that marks it done. pg-boss delivers a job at
 * least once (a worker that dies after committing has its job retried), so a retry of a job whose effect
 * committed finds the mark and answers the recorded output instead of doing the work twice. Concurrent runs
 * of one job (an expired job picked up while the first run still works) wait on an advisory lock.
 * The mark is filed under `mark.customerId` (given here or set by the effect) when the job concerned one customer.
 */
export async function applyOnce<T extends object>(
  ctx: AppContext,
  job: JobRef,
  effect: (tx: Db, now: Date, mark: JobDoneMark) => Promise<T>,
  mark: JobDoneMark = {},
): Promise<T> {
  return ctx.database.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${job.id}, 0))`);
    const done = await completedOutput(tx, job);
    if (done) return done as T;
    const now = ctx.clock.now();
    const doneMark: JobDoneMark = { ...mark };
    const output = await effect(tx, now, doneMark);
    await writeAudit(tx, {
      ...systemActor(job),
      at: now,
      action: JOB_DONE_ACTION,
      entity: job.queue,
      entityId: job.id,
      after: output,
      requestId: job.id,
      customerId: doneMark.customerId ?? null,
    });
    return output;
  });
}

/** The one customer of a set of rows' customer ids, else null (none, or more than one). */
export function soleCustomer(ids: ReadonlyArray<number | null | undefined>): number | null {
  const distinct = new Set(ids);
  const [only] = distinct;
  return distinct.size === 1 && typeof only === 'number' ? only : null;
}

/** Audit fields of a worker's own entries: actor 'system' (the job), request id = the job id. */
export function systemActor(job: JobRef): Pick<AuditEntry, 'actorType' | 'actorId' | 'requestId'> {
  return { actorType: 'system', actorId: `job:${job.queue}`, requestId: job.id };
}
