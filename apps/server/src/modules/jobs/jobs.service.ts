import { JOB_STATES, mayReadJob, type JobRequester, type JobState, type JobStatusInfo } from '@pos/domain';
import type { ServiceCtx } from '../../context';
import { JOB_SCHEMA } from '../../db/client';
import { AppError } from '../../http/errors';

interface JobRow {
  id: string;
  name: string;
  state: JobState;
  retry_count: number;
  retry_limit: number;
  created_on: Date | string;
  started_on: Date | string | null;
  completed_on: Date | string | null;
  output: unknown;
  dead_letter: string | null;
  /** Who asked for the job: `data.requestedBy` (jobs/context.ts JobRequest); absent for scheduled jobs. */
  requested_by: JobRequester | null;
}

const COLUMNS =
  "id, name, state::text AS state, retry_count, retry_limit, created_on, started_on, completed_on, output, dead_letter, data->'requestedBy' AS requested_by";

const iso = (v: Date | string | null): string | null => (v === null ? null : new Date(v).toISOString());

/** The message of a failure pg-boss recorded (a serialized Error: {name, message, stack, …}); never the stack. */
function errorMessage(output: unknown): string | null {
  if (output && typeof output === 'object' && 'message' in output && typeof output.message === 'string') {
    const code = 'code' in output && typeof output.code === 'string' ? `${output.code}: ` : '';
    return `${code}${output.message}`;
  }
  return null;
}

/**
 * A job by id, whatever its queue (live jobs, then the archive of finished ones), for staff: its requester or an
 * Admin (the domain's mayReadJob). A job someone else asked for answers exactly as an unknown one: 404.
 */
export async function getJobStatus(ctx: ServiceCtx, jobId: string): Promise<JobStatusInfo> {
  if (ctx.session.kind !== 'staff') throw new AppError('forbidden', 'Only staff can see jobs.');
  const rows = await ctx.app.database.query<JobRow>(
    `SELECT ${COLUMNS} FROM ${JOB_SCHEMA}.job WHERE id = $1
     UNION ALL
     SELECT ${COLUMNS} FROM ${JOB_SCHEMA}.archive WHERE id = $1
     LIMIT 1`,
    [jobId],
  );
  const row = rows[0];
  const reader = { kind: ctx.session.kind, role: ctx.session.role, actor: ctx.actor };
  if (!row || !mayReadJob(reader, row.requested_by))
    throw new AppError('not_found', `Job ${jobId} was not found (finished jobs are kept for 7 days).`);
  const state = (JOB_STATES as readonly string[]).includes(row.state) ? row.state : 'created';
  const failedAttempt = state === 'failed' || state === 'retry' || (row.retry_count > 0 && state !== 'completed');
  return {
    id: row.id,
    queue: row.name,
    state,
    retryCount: row.retry_count,
    retryLimit: row.retry_limit,
    createdOn: iso(row.created_on)!,
    startedOn: iso(row.started_on),
    completedOn: iso(row.completed_on),
    output: state === 'completed' ? (row.output ?? null) : null,
    error: failedAttempt ? errorMessage(row.output) : null,
    deadLetterQueue: state === 'failed' ? row.dead_letter : null,
  };
}
