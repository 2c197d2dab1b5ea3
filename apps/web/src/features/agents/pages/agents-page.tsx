import { Alert, Anchor, Badge, Button, Group, NativeSelect, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { AGENT_TYPES, SALES_CHANNELS } from '@pos/domain';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { DataTable } from '../../../components/list/data-table';
import { formatTotal, ListPagination } from '../../../components/list/list-pagination';
import { datedFileName, downloadFile } from '../../../lib/download';
import { describeError } from '../../../lib/error-message';
import {
  AGENT_PAGE_SIZE,
  exportAgents,
  getAgentListQueryOptions,
  NO_AGENT_FILTERS,
  type AgentFilters,
} from '../api/agents';
import { agentStoresPath, useMayEditAgents } from '../may-edit';

const TYPE_OPTIONS = [{ value: '', label: 'Any type' }, ...AGENT_TYPES.map((t) => ({ value: t, label: t }))];
const CHANNEL_OPTIONS = [{ value: '', label: 'Any channel' }, ...SALES_CHANNELS.map((c) => ({ value: c, label: c }))];
const STATUS_OPTIONS = [
  { value: 'active', label: 'Active' },
  { value: 'inactive', label: 'Inactive' },
  { value: 'all', label: 'Active and inactive' },
];

/**
 * #/view-agents (any session; issue 17 point 1, decision 124): agents of types Distributor, REFP and RDC — filters
 * (type, channel, text, status), paging, CSV; each row opens its stores and, for editors, its edit form.
 * A distributor or agent session sees only its own agent and sub-agents (the server filters).
 */
export default function AgentsPage() {
  const mayEdit = useMayEditAgents();
  const [draft, setDraft] = useState<AgentFilters>(NO_AGENT_FILTERS);
  const [applied, setApplied] = useState<AgentFilters>(NO_AGENT_FILTERS);
  const [page, setPage] = useState(1);
  const list = useQuery(getAgentListQueryOptions({ ...applied, page }));
  const items = list.data?.items ?? [];
  const total = list.data?.total ?? 0;

  const exportCsv = useMutation({
    mutationFn: () => exportAgents(applied),
    meta: { silentError: true },
    onSuccess: (blob) => downloadFile(datedFileName('agents', 'csv'), blob),
    onError: (error) => {
      const { title, message } = describeError(error);
      notifications.show({ color: 'red', title, message: `${message} Try the export again.`, autoClose: 8000 });
    },
  });

  const set = (key: keyof AgentFilters) => (value: string) => setDraft((d) => ({ ...d, [key]: value }));
  function apply(e: FormEvent) {
    e.preventDefault();
    setApplied(draft);
    setPage(1);
  }
  function clear() {
    setDraft(NO_AGENT_FILTERS);
    setApplied(NO_AGENT_FILTERS);
    setPage(1);
  }

  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={1} size="h2">
          Agents
        </Title>
        {mayEdit && (
          <Button component={Link} to="/new-agent/0">
            New agent
          </Button>
        )}
      </Group>
      <form onSubmit={apply} aria-label="Filter agents">
        <Group align="flex-end" gap="sm" wrap="wrap">
          <NativeSelect
            label="Type"
            data={TYPE_OPTIONS}
            value={draft.type}
            onChange={(e) => set('type')(e.currentTarget.value)}
            w={160}
          />
          <NativeSelect
            label="Sales channel"
            data={CHANNEL_OPTIONS}
            value={draft.channel}
            onChange={(e) => set('channel')(e.currentTarget.value)}
            w={160}
          />
          <NativeSelect
            label="Status"
            data={STATUS_OPTIONS}
            value={draft.status}
            onChange={(e) => set('status')(e.currentTarget.value)}
            w={190}
          />
          <TextInput
            label="Name, e-mail or contact"
            value={draft.q}
            onChange={(e) => set('q')(e.currentTarget.value)}
            w={240}
          />
          <Button type="submit">Apply filters</Button>
          <Button variant="subtle" onClick={clear}>
            Clear filters
          </Button>
        </Group>
      </form>
      <Group justify="flex-end">
        <Button
          variant="default"
          onClick={() => exportCsv.mutate()}
          loading={exportCsv.isPending}
          disabled={total === 0}
        >
          Export CSV
        </Button>
      </Group>
      {list.isError && (
        <Alert color="red" title={describeError(list.error).title}>
          {describeError(list.error).message}
        </Alert>
      )}
      <DataTable
        caption={
          list.isPending
            ? 'Agents (loading…)'
            : `Agents — ${formatTotal(total, false)} ${total === 1 ? 'match' : 'matches'}`
        }
        columns={['Agent', 'Type', 'Channel', 'Parent agent', 'Contact', 'Commission', 'Stores', 'Status', 'Actions']}
        minWidth={1000}
        rowCount={items.length}
        emptyText={list.isPending ? 'Loading…' : 'No agents match. Change or clear the filters.'}
        highlightOnHover
      >
        {items.map((a) => (
          <Table.Tr key={a.agent_id}>
            <Table.Td>
              {a.name}
              <Text component="span" size="xs" c="dimmed" display="block">
                Agent {a.agent_id} · {a.email}
              </Text>
            </Table.Td>
            <Table.Td>{a.type}</Table.Td>
            <Table.Td>{a.sales_channel}</Table.Td>
            <Table.Td>{a.parent_agent_name ?? '—'}</Table.Td>
            <Table.Td>
              {a.contact_name ?? '—'}
              {a.phone && (
                <Text component="span" size="xs" c="dimmed" display="block">
                  {a.phone}
                </Text>
              )}
            </Table.Td>
            <Table.Td>{a.commission_percent === null ? '—' : `${a.commission_percent}%`}</Table.Td>
            <Table.Td>{a.store_count}</Table.Td>
            <Table.Td>
              <Badge color={a.active ? 'green' : 'gray'} variant="light">
                {a.active ? 'Active' : 'Inactive'}
              </Badge>
            </Table.Td>
            <Table.Td>
              <Group gap="sm" wrap="nowrap">
                <Anchor component={Link} to={agentStoresPath(a.agent_id, a.name)} fz="sm">
                  Stores of {a.name}
                </Anchor>
                {mayEdit && (
                  <Anchor component={Link} to={`/new-agent/${a.agent_id}`} fz="sm">
                    Edit {a.name}
                  </Anchor>
                )}
              </Group>
            </Table.Td>
          </Table.Tr>
        ))}
      </DataTable>
      <ListPagination
        label="Agent pages"
        total={total}
        totalCapped={false}
        pageRows={items.length}
        pageSize={AGENT_PAGE_SIZE}
        page={page}
        onChange={setPage}
        hideSinglePage
      />
    </Stack>
  );
}
