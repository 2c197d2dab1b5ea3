import { randomUUID } from 'node:crypto';
import type {
  BillingRunInfo,
  BillingRunList,
  BillingRunListQuery,
  BillingRunRequest,
  BillingRunStarted,
  BillingRunStatus,
} from '@pos/domain';
import { calendarDayIn } from '@pos/domain';
import { desc, count, eq, sql } from 'drizzle-orm';
import type { AppContext, ServiceCtx } from '../../context';
import { withTx } from '../../context';
import { numberedSql } from '../../db/client';
import { billingRuns } from '../../db/schema';
import { writeAudit } from '../../http/audit';
import { AppError, fieldError } from '../../http/errors';
import { faultPoint } from '../../lib/fault-point';
import { SCHEDULED_DEFINITIONS, SCHEDULED_QUEUE } from '../../jobs/definitions';
import { BILLING_BATCH_SQL, PLANS_DUE_SQL, marketFeesParam } from './billing-run.sql';
import { lapseLicenses, prepareLicenseJobs } from './license.service';

/** Plans billed per batch (one statement, one transaction): large enough for speed, small enough to show progress. */
export const BILLING_BATCH_SIZE = 5000;
/** Batches at once on PostgreSQL (PGlite has one connection: one). */
export const BILLING_CONCURRENCY = 2;

/** "Today" in the billing time zone, as YYYY-MM-DD (the business day, domain calendarDayIn). */
export function billingToday(app: Pick<AppContext, 'config' | 'clock'>): string {
  return calendarDayIn(app.clock.now(), app.config.billing.timeZone);
}

type RunRow = typeof billingRuns.$inferSelect;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function runInfo(r: RunRow): BillingRunInfo {
  return {
    run_id: r.id,
    as_of: r.asOf,
    status: r.status as BillingRunStatus,
    requested_by: r.requestedBy,
    plans_due: r.plansDue,
    plans_done: r.plansDone,
    invoices_created: r.invoicesCreated,
    skipped: r.skipped,
    licenses_lapsed: r.licensesLapsed,
    created_at: r.createdAt.toISOString(),
    started_at: iso(r.startedAt),
    finished_at: iso(r.finishedAt),
    error: r.error,
  };
}

/**
 * POST /api/billing/runs/{token} (Admin): record a queued run and its job in one transaction (the job exists only
 * if the run does), answer 202 with both ids. A date other than today is refused in production (bills are not
 * issued for another day there); elsewhere any date lets a tester move the calendar.
 */
export async function startBillingRun(ctx: ServiceCtx, body: BillingRunRequest): Promise<BillingRunStarted> {
  const { app, actor, requestId } = ctx;
  const today = billingToday(app);
  const asOf = body.as_of ?? today;
  if (app.config.env === 'production' && asOf !== today) {
    throw fieldError(
      'as_of',
      `In production a billing run bills today only (${today}, ${app.config.billing.timeZone}).`,
    );
  }
  // Outside the transaction: creating a queue runs on the pool (PGlite has one connection).
  await app.queue.ensure(SCHEDULED_DEFINITIONS[SCHEDULED_QUEUE.billingRun]);
  const started = await withTx(ctx, async (tx) => {
    const [run] = await tx
      .insert(billingRuns)
      .values({
        asOf,
        status: 'queued',
        requestedBy: ctx.session.email,
        createdAt: app.clock.now(),
        updatedAt: app.clock.now(),
      })
      .returning();
    const jobId = await app.queue.send(SCHEDULED_QUEUE.billingRun, { run_id: run!.id }, {}, tx);
    await tx.update(billingRuns).set({ jobId }).where(eq(billingRuns.id, run!.id));
    await writeAudit(tx, {
      ...actor,
      at: app.clock.now(),
      action: 'create',
      entity: 'billing_run',
      entityId: run!.id,
      after: { as_of: asOf, job_id: jobId },
      requestId,
      customerId: null,
    });
    return { run_id: run!.id, job_id: jobId };
  });
  app.queue.wake(SCHEDULED_QUEUE.billingRun);
  return started;
}

/** GET /api/billing/runs/{token}: newest first. */
export async function listBillingRuns(ctx: ServiceCtx, q: BillingRunListQuery): Promise<BillingRunList> {
  const db = ctx.app.database.db;
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(billingRuns)
      .orderBy(desc(billingRuns.createdAt), desc(billingRuns.id))
      .limit(q.limit)
      .offset(q.offset),
    db.select({ n: count() }).from(billingRuns),
  ]);
  return { items: rows.map(runInfo), total: total?.n ?? 0 };
}

/** GET /api/billing/runs/{runId}/{token}. */
export async function getBillingRun(ctx: Pick<ServiceCtx, 'app'>, runId: number): Promise<BillingRunInfo> {
  const [row] = await ctx.app.database.db.select().from(billingRuns).where(eq(billingRuns.id, runId));
  if (!row) throw new AppError('not_found', `Billing run ${runId} was not found.`);
  return runInfo(row);
}

/**
 * Execute a run (the job's work): batch after batch until no plan is due on its date — each batch one statement
 * in its own transaction, the run's figures moved in the same transaction, so a run killed midway and executed
 * again (the job's retry) goes on from where it stopped; a period is never billed twice (BILLING_BATCH_SQL).
 * A finished run executed again does nothing.
 */
export async function executeBillingRun(
  app: AppContext,
  runId: number,
  options: {
    batchSize?: number;
    concurrency?: number;
    afterBatch?: (batch: number) => Promise<void>;
    /** Lapse the licenses past their grace at the end (default; needs `app.queue`). */
    licenses?: boolean;
  } = {},
): Promise<BillingRunInfo> {
  const db = app.database.db;
  const [run] = await db.select().from(billingRuns).where(eq(billingRuns.id, runId));
  if (!run) throw new AppError('not_found', `Billing run ${runId} was not found.`);
  if (run.status === 'done') return runInfo(run);
  const [due] = await app.database.query<{ n: number }>(PLANS_DUE_SQL, [run.asOf]);
  await db
    .update(billingRuns)
    .set({
      status: 'running',
      startedAt: run.startedAt ?? app.clock.now(),
      // A restarted run keeps what it counted first: plans done so far + still due.
      plansDue: run.status === 'queued' ? (due?.n ?? 0) : run.plansDone + (due?.n ?? 0),
      error: null,
      updatedAt: app.clock.now(),
    })
    .where(eq(billingRuns.id, runId));
  const batchSize = options.batchSize ?? BILLING_BATCH_SIZE;
  // One batch: bill up to batchSize due plans one period each and count them on the run, in one transaction.
  const batch = () =>
    withTx({ app }, async (tx) => {
      const res = (await tx.execute(
        numberedSql(BILLING_BATCH_SQL, [
          run.asOf,
          batchSize,
          app.clock.now(),
          marketFeesParam(app.config.fees.markets),
        ]),
      )) as unknown as { rows: Array<{ plans: number; created: number; skipped: number }> };
      const r = res.rows[0]!;
      if (r.plans > 0) {
        await tx
          .update(billingRuns)
          .set({
            plansDone: sql`${billingRuns.plansDone} + ${r.plans}`,
            invoicesCreated: sql`${billingRuns.invoicesCreated} + ${r.created}`,
            skipped: sql`${billingRuns.skipped} + ${r.skipped}`,
            updatedAt: app.clock.now(),
          })
          .where(eq(billingRuns.id, runId));
        await faultPoint(app.config, 'billing-run:batch-uncommitted');
      }
      return r.plans;
    });
  // Batches run side by side on PostgreSQL (each takes plans the others have not locked; invoice numbers are
  // handed out in turn by the year's counter row). A worker stops when it finds nothing due it could lock: the
  // plans the others hold are theirs to finish, and they stop only when nothing is left.
  const workers = options.concurrency ?? (app.database.kind === 'postgres' ? BILLING_CONCURRENCY : 1);
  let batches = 0;
  let failed = false;
  const work = async () => {
    try {
      while (!failed) {
        if ((await batch()) === 0) return;
        await faultPoint(app.config, 'billing-run:batch-committed');
        await options.afterBatch?.(++batches);
      }
    } catch (err) {
      failed = true; // the other workers stop after their batch in flight
      throw err;
    }
  };
  try {
    await Promise.all(Array.from({ length: workers }, work));
    if (options.licenses !== false) {
      await prepareLicenseJobs(app);
      await withTx({ app }, async (tx) => {
        const lapsed = await lapseLicenses(
          tx,
          app,
          run.asOf,
          app.clock.now(),
          { actorType: 'system', actorId: `billing-run:${runId}` },
          run.jobId ?? randomUUID(),
        );
        await tx
          .update(billingRuns)
          .set({ licensesLapsed: sql`${billingRuns.licensesLapsed} + ${lapsed}` })
          .where(eq(billingRuns.id, runId));
      });
    }
    await db
      .update(billingRuns)
      .set({ status: 'done', finishedAt: app.clock.now(), updatedAt: app.clock.now() })
      .where(eq(billingRuns.id, runId));
  } catch (err) {
    await db
      .update(billingRuns)
      .set({ status: 'failed', error: (err as Error).message.slice(0, 500), updatedAt: app.clock.now() })
      .where(eq(billingRuns.id, runId));
    throw err;
  }
  return getBillingRun({ app }, runId);
}

/** The daily schedule's run: today's run in the billing time zone, recorded and executed. */
export async function runScheduledBilling(app: AppContext): Promise<BillingRunInfo> {
  const [run] = await app.database.db
    .insert(billingRuns)
    .values({
      asOf: billingToday(app),
      status: 'queued',
      requestedBy: 'schedule',
      createdAt: app.clock.now(),
      updatedAt: app.clock.now(),
    })
    .returning({ id: billingRuns.id });
  return executeBillingRun(app, run!.id);
}
