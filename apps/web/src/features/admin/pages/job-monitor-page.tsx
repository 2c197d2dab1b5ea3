import { Button, Group, NativeSelect, Stack, Text, Title } from '@mantine/core';
import {
  JOB_QUEUE_NAMES,
  JOB_STATE_VALUES,
  RUNNABLE_SCHEDULED_QUEUES,
  RUNNABLE_SCHEDULED_QUEUE_LABELS,
  type JobStateValue,
  type RunnableScheduledQueue,
} from '@pos/domain';
import { notifications } from '@mantine/notifications';
import { describeError } from '../../../lib/error-message';
import { useState } from 'react';
import { ListPagination } from '../../../components/list/list-pagination';
import { JOB_PAGE_SIZE, JOB_REFRESH_MS, useJobList, useRunScheduledJob, type JobFilter } from '../api/jobs';
import { JobCountsTable } from '../components/job-counts-table';
import { JobsTable } from '../components/jobs-table';
import { SendPaymentLinkPanel } from '../components/send-payment-link-panel';
import { queueLabel } from '../lib/jobs';
import { FilterSelect, LiveFilterBar } from '../../../components/list';

const STATE_OPTIONS = [{ value: '', label: 'Any state' }, ...JOB_STATE_VALUES.map((s) => ({ value: s, label: s }))];

function isJobState(value: string): value is JobStateValue {
  return (JOB_STATE_VALUES as readonly string[]).includes(value);
}

/**
 * #/admin/jobs (Admin): per-queue counts, recent jobs with their errors, Retry / Cancel, and the admin's
 * 'Send update-payment link' (issue 5 item 3). Refreshes itself every 5 s while the tab is visible.
 */
export default function JobMonitorPage() {
  const [queue, setQueue] = useState('');
  const [state, setState] = useState('');
  const filter: JobFilter = { queue: queue || null, state: isJobState(state) ? state : null };
  const filterKey = JSON.stringify(filter);
  // A new filter starts again at page 1.
  const [paging, setPaging] = useState({ filterKey, page: 1 });
  const page = paging.filterKey === filterKey ? paging.page : 1;

  const list = useJobList(filter, page);
  const known = new Set<string>(JOB_QUEUE_NAMES);
  const queueNames = [
    ...JOB_QUEUE_NAMES,
    ...(list.data?.queues.map((q) => q.queue).filter((q) => !known.has(q)) ?? []),
  ];
  const queueOptions = [
    { value: '', label: 'All queues' },
    ...queueNames.map((q) => ({ value: q, label: queueLabel(q) })).sort((a, b) => a.label.localeCompare(b.label)),
  ];

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={1} size="h2">
            Job monitor
          </Title>
          <Text c="dimmed" size="sm">
            Background work by queue and state. Refreshes every {JOB_REFRESH_MS / 1000} seconds.
          </Text>
        </div>
        <Button variant="default" onClick={() => void list.refetch()}>
          Refresh
        </Button>
      </Group>

      <RunScheduledJobPanel />

      <SendPaymentLinkPanel />

      <section aria-label="Jobs by queue">
        {list.data ? (
          <JobCountsTable queues={list.data.queues} />
        ) : (
          <Text c="dimmed">{list.isError ? 'The jobs could not be loaded.' : 'Loading jobs…'}</Text>
        )}
      </section>

      <LiveFilterBar label="Filter jobs">
        <FilterSelect label="Queue" data={queueOptions} value={queue} onChange={setQueue} w={300} />
        <FilterSelect label="State" data={STATE_OPTIONS} value={state} onChange={setState} />
      </LiveFilterBar>

      <section aria-label="Recent jobs" aria-busy={list.isFetching}>
        <Stack gap="sm">
          {list.data && <JobsTable items={list.data.items} />}
          <ListPagination
            label="Job pages"
            total={list.data?.total ?? 0}
            totalCapped={list.data?.total_capped ?? false}
            pageRows={list.data?.items.length ?? 0}
            pageSize={JOB_PAGE_SIZE}
            page={page}
            onChange={(p) => setPaging({ filterKey, page: p })}
          />
        </Stack>
      </section>
    </Stack>
  );
}

/** Run a scheduled job now instead of waiting for its schedule (decision 151): e.g. the payment sweep. */
function RunScheduledJobPanel() {
  const [queue, setQueue] = useState<RunnableScheduledQueue>(RUNNABLE_SCHEDULED_QUEUES[0]);
  const run = useRunScheduledJob({
    onSuccess: (info) => notifications.show({ color: 'green', title: 'Job queued', message: info.message }),
    onError: (error) => {
      const said = describeError(error);
      notifications.show({ color: 'red', title: said.title, message: said.message });
    },
  });
  return (
    <section aria-label="Run a scheduled job now">
      <Group align="flex-end">
        <NativeSelect
          label="Scheduled job"
          description="Runs now, besides its schedule"
          data={RUNNABLE_SCHEDULED_QUEUES.map((q) => ({ value: q, label: RUNNABLE_SCHEDULED_QUEUE_LABELS[q] }))}
          value={queue}
          onChange={(e) => setQueue(e.currentTarget.value as RunnableScheduledQueue)}
          w={520}
        />
        <Button onClick={() => run.mutate(queue)} loading={run.isPending}>
          Run now
        </Button>
      </Group>
    </section>
  );
}
