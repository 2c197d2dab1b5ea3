import {
  RUNNABLE_SCHEDULED_QUEUE_LABELS,
  SEARCH_TOTAL_CAP,
  type JobRunInfo,
  type JobStateValue,
  type RunnableScheduledQueue,
  type JobSummary,
  type MailMessageInfo,
  type MailSummary,
} from '@pos/domain';
import { and, desc, eq, ilike, type SQL } from 'drizzle-orm';
import type { ServiceCtx } from '../../context';
import { cappedCount, cappedTotal } from '../../db/capped-count';
import { JOB_SCHEMA, type Db } from '../../db/client';
import { mailLog } from '../../db/schema';
import { writeAudit } from '../../http/audit';
import { SCHEDULED_DEFINITIONS } from '../../jobs/definitions';
import { escapeLike } from '../../lib/sql-like';
import { AppError, notFound } from '../../http/errors';

type MailRow = typeof mailLog.$inferSelect;
const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

function toSummary(row: MailRow): MailSummary {
  return {
    id: row.id,
    to: row.to,
    subject: row.subject,
    template: row.template,
    status: row.status as MailSummary['status'],
    links: row.links ?? [],
    created_at: iso(row.createdAt) as string,
    sent_at: iso(row.sentAt),
  };
}

/**
 * The Mailbox, newest first: a backward walk of `mail_log_created_idx (created_at, id)` — or of
 * `mail_log_template_created_idx` for one template — that stops at the page; `to` is matched through the trigram
 * index. The total is exact up to SEARCH_TOTAL_CAP (`total_capped` beyond; decision 109).
 */
export async function listMail(ctx: ServiceCtx, q: MailListQuery) {
  const db = ctx.app.database.db;
  const where = mailListWhere(q);
  const [rows, total] = await Promise.all([mailPage(db, where, q), cappedCount(db, mailLog, where)]);
  return { items: rows.map(toSummary), ...total };
}

type MailListQuery = { to?: string; template?: string; limit: number; offset: number };

export function mailListWhere(q: MailListQuery): SQL | undefined {
  return and(
    q.to ? ilike(mailLog.to, `%${escapeLike(q.to)}%`) : undefined,
    q.template ? eq(mailLog.template, q.template) : undefined,
  );
}

export function mailPage(db: Db, where: SQL | undefined, q: MailListQuery) {
  return db
    .select()
    .from(mailLog)
    .where(where)
    .orderBy(desc(mailLog.createdAt), desc(mailLog.id))
    .limit(q.limit)
    .offset(q.offset);
}

export async function getMail(ctx: ServiceCtx, id: number): Promise<MailMessageInfo> {
  const [row] = await ctx.app.database.db.select().from(mailLog).where(eq(mailLog.id, id));
  if (!row) throw notFound(`Message ${id}`);
  return { ...toSummary(row), html: row.html, text: row.text, error: row.error };
}

interface JobRow {
  id: string;
  name: string;
  state: JobStateValue;
  retry_count: number;
  retry_limit: number;
  created_on: Date;
  started_on: Date | null;
  completed_on: Date | null;
  data: unknown;
  output: unknown;
  dead_letter: string | null;
}

const JOB_COLUMNS = [
  'id',
  'name',
  'state',
  'retry_count',
  'retry_limit',
  'created_on',
  'started_on',
  'completed_on',
  'data',
  'output',
  'dead_letter',
];
const jobColumns = (alias: string) => JOB_COLUMNS.map((c) => `${alias}.${c}`).join(', ');

type JobListQuery = { queue?: string; state?: JobStateValue; limit: number; offset: number };

/** The filter of the job list as a where clause over either table, and its parameters ($1, $2). */
function jobFilter(q: JobListQuery): { filter: string; params: unknown[] } {
  const params: unknown[] = [];
  const where: string[] = [];
  if (q.queue) {
    params.push(q.queue);
    where.push(`name = $${params.length}`);
  }
  if (q.state) {
    params.push(q.state);
    where.push(`state = $${params.length}::${JOB_SCHEMA}.job_state`);
  }
  return { filter: where.length ? `where ${where.join(' and ')}` : '', params };
}

/**
 * The page. pg-boss's tables have no index on created_on (none is added to its schema), so: the newest
 * `offset + limit` keys of the live table (a bounded top-N sort of the live jobs: queued, active, and the last
 * hours of finished work); then those of the archive — which holds a week of finished jobs — read through its own
 * index on archived_on: a job is archived after it was created, so an archived job newer than the oldest of those
 * live keys was archived after that time too (`archived_on >= floor`). When the live table has fewer rows than
 * the page needs there is no floor, and the other branch (a one-time filter on `floor is null`) reads the archive
 * whole — two branches, so that each gets its own plan (index range, or a scan). The two are merged and cut to the page, and the
 * page's rows read by primary key (name, id).
 */
export function jobPageSql(q: JobListQuery): { text: string; params: unknown[] } {
  const { filter, params } = jobFilter(q);
  const n = params.length;
  const keys = `name, id, created_on`;
  const newest = `order by created_on desc, id limit $${n + 1}`;
  const and = filter ? `${filter} and ` : 'where ';
  return {
    text: `with live as (select 'job' as source, ${keys} from ${JOB_SCHEMA}.job ${filter} ${newest}),
       floor as (select case when count(*) = $${n + 1} then min(created_on) end as at from live),
       archived as (
         (select 'archive' as source, ${keys} from ${JOB_SCHEMA}.archive
           ${and}archived_on >= (select at from floor) ${newest})
         union all
         (select 'archive' as source, ${keys} from ${JOB_SCHEMA}.archive ${and}(select at from floor) is null ${newest})),
       page as (select * from (select * from live union all select * from archived) k
         order by created_on desc, id limit $${n + 2} offset $${n + 3})
       select * from (
         select p.created_on as sort_on, ${jobColumns('j')}
           from page p join ${JOB_SCHEMA}.job j on p.source = 'job' and j.name = p.name and j.id = p.id
         union all
         select p.created_on, ${jobColumns('a')}
           from page p join ${JOB_SCHEMA}.archive a on p.source = 'archive' and a.name = p.name and a.id = p.id) r
       order by sort_on desc, id`,
    params: [...params, q.offset + q.limit, q.limit, q.offset],
  };
}

/** The total, capped: each table stops after SEARCH_TOTAL_CAP + 1 matching rows. */
export function jobTotalSql(q: JobListQuery): { text: string; params: unknown[] } {
  const { filter, params } = jobFilter(q);
  const cap = `$${params.length + 1}`;
  return {
    text: `select count(*)::int as n from ((select 1 from ${JOB_SCHEMA}.job ${filter} limit ${cap})
         union all (select 1 from ${JOB_SCHEMA}.archive ${filter} limit ${cap})) m`,
    params: [...params, SEARCH_TOTAL_CAP + 1],
  };
}

/**
 * Recent jobs from pg-boss's live table and its archive, newest first (jobPageSql), with counts per queue and
 * state (decision 109). The total is capped at SEARCH_TOTAL_CAP (each table stops after the cap). The counts are
 * those of the live table (jobs not yet archived: queued, active, and the last hours of finished work): the archive
 * is history, and counting it meant reading a week of jobs at every refresh of the screen (5 s).
 */
export async function listJobs(ctx: ServiceCtx, q: JobListQuery) {
  const { database } = ctx.app;
  const page = jobPageSql(q);
  const total = jobTotalSql(q);
  const [rows, totals, counts] = await Promise.all([
    database.query<JobRow>(page.text, page.params),
    database.query<{ n: number }>(total.text, total.params),
    database.query<{ name: string; state: string; n: number }>(
      `select name, state::text as state, count(*)::int as n from ${JOB_SCHEMA}.job group by name, state order by name`,
    ),
  ]);
  const queues = new Map<string, Record<string, number>>();
  for (const c of counts) {
    const entry = queues.get(c.name) ?? {};
    entry[c.state] = c.n;
    queues.set(c.name, entry);
  }
  const items: JobSummary[] = rows.map((r) => ({
    id: r.id,
    queue: r.name,
    state: r.state,
    retry_count: r.retry_count,
    retry_limit: r.retry_limit,
    created_on: iso(r.created_on) as string,
    started_on: iso(r.started_on),
    completed_on: iso(r.completed_on),
    data: r.data,
    output: r.output,
    dead_lettered: r.state === 'failed' && r.dead_letter !== null,
  }));
  return { items, ...cappedTotal(totals[0]?.n ?? 0), queues: [...queues].map(([queue, c]) => ({ queue, counts: c })) };
}

/** Retry a failed (or cancelled) job, or cancel one that has not finished (audited). */
export async function actOnJob(ctx: ServiceCtx, input: { queue: string; id: string; action: 'retry' | 'cancel' }) {
  const job = await ctx.app.queue.getJob(input.queue, input.id);
  if (!job) throw notFound(`Job ${input.id}`);
  if (input.action === 'retry') {
    if (job.state !== 'failed' && job.state !== 'cancelled') {
      throw new AppError('conflict', `Only a failed or cancelled job can be retried; this one is ${job.state}.`);
    }
    if ((job as { archivedOn?: Date }).archivedOn)
      throw new AppError('conflict', 'This job has been archived; send it again instead.');
    await ctx.app.queue.boss.retry(input.queue, input.id);
  } else {
    if (job.state === 'completed' || job.state === 'failed' || job.state === 'cancelled') {
      throw new AppError('conflict', `Only a job that has not finished can be cancelled; this one is ${job.state}.`);
    }
    await ctx.app.queue.boss.cancel(input.queue, input.id);
  }
  const after = await ctx.app.queue.getJob(input.queue, input.id);
  const state = (after?.state ?? job.state) as JobStateValue;
  await writeAudit(ctx.app.database.db, {
    ...ctx.actor,
    at: ctx.app.clock.now(),
    action: `job_${input.action}`,
    entity: 'job',
    entityId: input.id,
    after: { queue: input.queue, state },
    requestId: ctx.requestId,
  });
  return { id: input.id, state };
}

/**
 * Run a scheduled job now (Admin; decision 151): the same job its schedule sends, queued at once — the payment sweep
 * after a bank-paid order completes, the reconciliation after a gateway outage. Audited.
 */
export async function runScheduledJobNow(ctx: ServiceCtx, queue: RunnableScheduledQueue): Promise<JobRunInfo> {
  // The queue exists in this process even where its worker runs in another one (as the billing run's "Run now").
  await ctx.app.queue.ensure(SCHEDULED_DEFINITIONS[queue]);
  const id = await ctx.app.queue.send(queue, {});
  ctx.app.queue.wake(queue);
  if (!id) throw new AppError('conflict', `${RUNNABLE_SCHEDULED_QUEUE_LABELS[queue]} is already queued.`);
  await writeAudit(ctx.app.database.db, {
    ...ctx.actor,
    at: ctx.app.clock.now(),
    action: 'job_run',
    entity: 'job',
    entityId: id,
    after: { queue },
    requestId: ctx.requestId,
  });
  return {
    queue,
    job_id: id,
    message: `${RUNNABLE_SCHEDULED_QUEUE_LABELS[queue]} is queued; it shows in the list below when it has run.`,
  };
}
