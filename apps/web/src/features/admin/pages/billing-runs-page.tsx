import {
  Badge,
  Button,
  Group,
  Paper,
  Progress,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  type MantineColor,
} from '@mantine/core';
import { assertNever, BILLING_RUN_STATUS_LABELS, type BillingRunInfo, type BillingRunStatus } from '@pos/domain';
import { useState, type FormEvent } from 'react';
import { ListPagination } from '../../../components/list/list-pagination';
import { isApiError } from '../../../lib/api';
import { formatCount, formatDate, formatDateTime } from '../../../lib/format';
import { BILLING_RUN_PAGE_SIZE, useBillingRuns, useStartBillingRun } from '../api/billing-runs';

function colorOf(status: BillingRunStatus): MantineColor {
  switch (status) {
    case 'queued':
      return 'gray';
    case 'running':
      return 'blue';
    case 'done':
      return 'green';
    case 'failed':
      return 'red';
    default:
      return assertNever(status);
  }
}

/** How far a run is: plans billed of those due (a plan owing several periods counts once per period). */
function RunProgress({ run }: { readonly run: BillingRunInfo }) {
  const due = Math.max(run.plans_due, run.plans_done);
  const value = due === 0 ? (run.status === 'done' ? 100 : 0) : Math.round((run.plans_done / due) * 100);
  return (
    <Stack gap={2}>
      <Progress
        value={value}
        size="sm"
        aria-label={`Run ${run.run_id}: ${formatCount(run.plans_done)} of ${formatCount(due)} plans billed`}
        animated={run.status === 'running'}
      />
      <Text size="xs" c="dimmed">
        {formatCount(run.plans_done)} of {formatCount(due)} plans
      </Text>
    </Stack>
  );
}

/**
 * #/admin/billing (Admin): start a billing run now and watch it (decision 113). The daily run starts by itself;
 * "Run billing now" bills every active plan due on the date (today by default); running it twice bills nothing twice.
 */
export default function BillingRunsPage() {
  const [asOf, setAsOf] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [page, setPage] = useState(1);
  const runs = useBillingRuns(page);
  const start = useStartBillingRun();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFieldError(null);
    start.mutate(asOf || null, {
      onSuccess: () => setPage(1),
      onError: (error) => {
        const message = isApiError(error) ? error.fields.as_of : undefined;
        if (message) setFieldError(message);
      },
    });
  }

  return (
    <Stack gap="md">
      <div>
        <Title order={1} size="h2">
          Billing runs
        </Title>
        <Text c="dimmed" size="sm">
          A run bills every active plan due on its date: monthly and yearly service fees and hardware installments, one
          invoice per plan and period (a plan behind gets one per missed period). It runs every night by itself.
        </Text>
      </div>

      <Paper withBorder p="md" component="section" aria-labelledby="run-now-title">
        <Title order={2} size="h4" id="run-now-title" mb="sm">
          Run billing now
        </Title>
        <form onSubmit={submit} noValidate>
          <Group align="flex-start">
            <TextInput
              type="date"
              label="Bill as of"
              description="Empty: today in the billing time zone"
              value={asOf}
              onChange={(e) => {
                setAsOf(e.currentTarget.value);
                setFieldError(null);
              }}
              error={fieldError}
              inputWrapperOrder={['label', 'input', 'description', 'error']}
              w={220}
            />
            <Button type="submit" loading={start.isPending} mt={24}>
              Run billing now
            </Button>
          </Group>
        </form>
        {start.isSuccess && (
          <Text role="status" size="sm" mt="sm">
            Billing run {start.data.run_id} started.
          </Text>
        )}
      </Paper>

      <section aria-labelledby="runs-title">
        <Title order={2} size="h4" id="runs-title" mb="sm">
          Recent runs
        </Title>
        {runs.data ? (
          runs.data.items.length === 0 ? (
            <Text c="dimmed">No billing run yet.</Text>
          ) : (
            <Table striped aria-labelledby="runs-title">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">Run</Table.Th>
                  <Table.Th scope="col">As of</Table.Th>
                  <Table.Th scope="col">Status</Table.Th>
                  <Table.Th scope="col">Progress</Table.Th>
                  <Table.Th scope="col">Invoices created</Table.Th>
                  <Table.Th scope="col">Already billed</Table.Th>
                  <Table.Th scope="col">Licenses lapsed</Table.Th>
                  <Table.Th scope="col">Started by</Table.Th>
                  <Table.Th scope="col">Started</Table.Th>
                  <Table.Th scope="col">Finished</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {runs.data.items.map((r) => (
                  <Table.Tr key={r.run_id} data-run-id={r.run_id}>
                    <Table.Td>{r.run_id}</Table.Td>
                    <Table.Td>{formatDate(r.as_of)}</Table.Td>
                    <Table.Td>
                      <Badge color={colorOf(r.status)} variant="light">
                        {BILLING_RUN_STATUS_LABELS[r.status]}
                      </Badge>
                      {r.error && (
                        <Text size="xs" c="red" mt={4}>
                          {r.error}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td miw={160}>
                      <RunProgress run={r} />
                    </Table.Td>
                    <Table.Td>{formatCount(r.invoices_created)}</Table.Td>
                    <Table.Td>{formatCount(r.skipped)}</Table.Td>
                    <Table.Td>{formatCount(r.licenses_lapsed)}</Table.Td>
                    <Table.Td>{r.requested_by === 'schedule' ? 'Daily schedule' : r.requested_by}</Table.Td>
                    <Table.Td>{formatDateTime(r.started_at)}</Table.Td>
                    <Table.Td>{formatDateTime(r.finished_at)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )
        ) : (
          <Text c="dimmed">{runs.isError ? 'The runs could not be loaded. Try Refresh.' : 'Loading runs…'}</Text>
        )}
        <ListPagination
          hideSinglePage
          label="Run pages"
          total={runs.data?.total ?? 0}
          pageSize={BILLING_RUN_PAGE_SIZE}
          page={page}
          onChange={setPage}
        />
      </section>
    </Stack>
  );
}
