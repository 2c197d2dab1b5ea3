import { Button, Group, Table, Text } from '@mantine/core';
import type { JobStateValue, JobSummary } from '@pos/domain';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { DataTable } from '../../../components/list/data-table';
import { useJobAction, type JobAction } from '../api/jobs';
import { formatDateTime } from '../../../lib/format';
import { jobErrorMessage, queueLabel } from '../lib/jobs';
import { JobStateBadge } from './job-state-badge';

/** Which jobs each action applies to (the server answers 409 otherwise). */
export const RETRYABLE: readonly JobStateValue[] = ['failed', 'cancelled'];
export const CANCELLABLE: readonly JobStateValue[] = ['created', 'retry', 'active'];

/** A failed attempt's error is shown for jobs that failed, wait for a retry, or were dead-lettered. */
function errorOf(job: JobSummary): string | null {
  if (job.state !== 'failed' && job.state !== 'retry' && !job.dead_lettered) return null;
  return jobErrorMessage(job.output);
}

const COLUMNS = ['Queue', 'State', 'Retries', 'Created', 'Finished', 'Error', 'Actions'];

const QUESTIONS: Readonly<Record<JobAction, { title: string; message: (job: JobSummary) => string; confirm: string }>> =
  {
    retry: {
      title: 'Retry this job?',
      message: (job) => `The ${queueLabel(job.queue)} job ${job.id} runs again from the start.`,
      confirm: 'Retry job',
    },
    cancel: {
      title: 'Cancel this job?',
      message: (job) =>
        `The ${queueLabel(job.queue)} job ${job.id} will not run (again). A job already running finishes its current attempt.`,
      confirm: 'Cancel job',
    },
  };

/** Recent jobs: Queue, State, Retries, Created, Finished, the error of a failed one, and Retry / Cancel. */
export function JobsTable({ items }: { readonly items: readonly JobSummary[] }) {
  const [pending, setPending] = useState<{ job: JobSummary; action: JobAction } | null>(null);
  const act = useJobAction({ onSuccess: () => setPending(null) });
  const question = pending ? QUESTIONS[pending.action] : null;

  return (
    <>
      <DataTable
        caption="Recent jobs, newest first"
        columns={COLUMNS}
        minWidth={860}
        rowCount={items.length}
        emptyText="No jobs match."
      >
        {items.map((job) => {
          const error = errorOf(job);
          return (
            <Table.Tr key={`${job.queue}:${job.id}`}>
              <Table.Td>
                <Text size="sm">{queueLabel(job.queue)}</Text>
                <Text size="xs" c="dimmed" ff="monospace">
                  {job.id}
                </Text>
              </Table.Td>
              <Table.Td>
                <JobStateBadge state={job.state} deadLettered={job.dead_lettered} />
              </Table.Td>
              <Table.Td>
                {job.retry_count} of {job.retry_limit}
              </Table.Td>
              <Table.Td>{formatDateTime(job.created_on, { seconds: true })}</Table.Td>
              <Table.Td>{formatDateTime(job.completed_on, { seconds: true })}</Table.Td>
              <Table.Td maw={320} style={{ overflowWrap: 'anywhere' }}>
                {error && (
                  <Text size="sm" c="red">
                    {error}
                  </Text>
                )}
              </Table.Td>
              <Table.Td>
                <Group gap={6} wrap="nowrap">
                  {RETRYABLE.includes(job.state) && (
                    <Button size="compact-sm" variant="light" onClick={() => setPending({ job, action: 'retry' })}>
                      Retry
                    </Button>
                  )}
                  {CANCELLABLE.includes(job.state) && (
                    <Button
                      size="compact-sm"
                      variant="light"
                      color="red"
                      onClick={() => setPending({ job, action: 'cancel' })}
                    >
                      Cancel
                    </Button>
                  )}
                </Group>
              </Table.Td>
            </Table.Tr>
          );
        })}
      </DataTable>
      <ConfirmDialog
        opened={pending !== null}
        title={question?.title ?? ''}
        message={pending && question ? question.message(pending.job) : ''}
        confirmLabel={question?.confirm ?? ''}
        cancelLabel="Keep as is"
        color="red"
        busy={act.isPending}
        onClose={() => setPending(null)}
        onConfirm={() =>
          pending && act.mutate({ queue: pending.job.queue, id: pending.job.id, action: pending.action })
        }
      />
    </>
  );
}
