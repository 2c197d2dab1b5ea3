import { Anchor, Badge, Button, Group, Stack, Table, Text, Title } from '@mantine/core';
import { AGENT_TYPES, isAgentScoped, SALES_CHANNELS } from '@pos/domain';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import {
  bindFilter,
  DataTable,
  emptyListText,
  ExportCsvButton,
  FigureCell,
  FigureHeader,
  FilterBar,
  FilterSelect,
  FilterText,
  ListError,
  listCaption,
  ListPagination,
  NoWrapCell,
  useListState,
} from '../../../components/list';
import { datedFileName } from '../../../lib/download';
import { formatCount } from '../../../lib/format';
import { useSession } from '../../../lib/session';
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

/** The list's state in the address: `#/view-agents?type=REFP&channel=RAM&q=acme&status=all&page=2`. */
const LIST_OPTIONS = { defaults: NO_AGENT_FILTERS } as const;

/**
 * #/view-agents (any session; issue 17 point 1, decision 124): agents of types Distributor, REFP and RDC — filters
 * (type, channel, text, status), paging, CSV; each row opens its stores and, for editors, its edit form.
 * A distributor or agent session sees only its own agent and sub-agents (the server filters). Filters and page are
 * in the address (issue 30): Back, reload and a copied link show the same list.
 */
export default function AgentsPage() {
  const mayEdit = useMayEditAgents();
  const { session, isDistributorToken } = useSession();
  // An agent's own session sees its agent and sub-agents only: a parent above them would be "not found".
  const scoped = isDistributorToken || isAgentScoped({ kind: 'staff', role: session?.role ?? '' });
  const list = useListState<AgentFilters>(LIST_OPTIONS);
  const { applied, page } = list;
  const field = bindFilter(list);
  const agents = useQuery(getAgentListQueryOptions({ ...applied, page }));
  const items = agents.data?.items ?? [];
  const total = agents.data?.total ?? 0;

  const columns = [
    'Agent',
    'Type',
    'Channel',
    'Parent agent',
    'Contact',
    <FigureHeader key="commission">Commission</FigureHeader>,
    <FigureHeader key="stores">Stores</FigureHeader>,
    'Status',
    'Actions',
  ];

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
      <FilterBar label="Filter agents" onApply={() => list.apply()} onClear={list.clear} applyLabel="Apply filters">
        <FilterSelect label="Type" data={TYPE_OPTIONS} w={160} {...field('type')} />
        <FilterSelect label="Sales channel" data={CHANNEL_OPTIONS} w={160} {...field('channel')} />
        <FilterSelect label="Status" data={STATUS_OPTIONS} w={190} {...field('status')} />
        <FilterText label="Name, e-mail or contact" w={240} {...field('q')} />
      </FilterBar>
      <ExportCsvButton
        run={({ signal, onProgress }) => exportAgents(applied, datedFileName('agents', 'csv'), signal, onProgress)}
        disabled={total === 0}
      />
      <ListError error={agents.error} />
      <DataTable
        caption={listCaption('Agents', { isPending: agents.isPending, total })}
        columns={columns}
        minWidth={1100}
        rowCount={items.length}
        emptyText={emptyListText(agents.isPending, 'No agents match. Change or clear the filters.')}
        highlightOnHover
      >
        {items.map((a) => (
          <Table.Tr key={a.agent_id}>
            <Table.Td>
              {a.name}
              <Text component="span" size="xs" c="dimmed" display="block">
                <Anchor component={Link} to={agentStoresPath(a.agent_id, a.name)} inherit>
                  Agent {a.agent_id}
                </Anchor>{' '}
                · {a.email}
              </Text>
            </Table.Td>
            <Table.Td>{a.type}</Table.Td>
            <Table.Td>{a.sales_channel}</Table.Td>
            <Table.Td>
              {!scoped && a.parent_agent_id !== null && a.parent_agent_name !== null ? (
                <Anchor component={Link} to={agentStoresPath(a.parent_agent_id, a.parent_agent_name)} fz="sm">
                  {a.parent_agent_name}
                </Anchor>
              ) : (
                (a.parent_agent_name ?? '—')
              )}
            </Table.Td>
            <Table.Td>
              {a.contact_name ?? '—'}
              {a.phone && (
                <Text component="span" size="xs" c="dimmed" display="block">
                  {a.phone}
                </Text>
              )}
            </Table.Td>
            <FigureCell>{a.commission_percent === null ? '—' : `${a.commission_percent}%`}</FigureCell>
            <FigureCell>{formatCount(a.store_count)}</FigureCell>
            <NoWrapCell>
              <Badge color={a.active ? 'green' : 'gray'} variant="light">
                {a.active ? 'Active' : 'Inactive'}
              </Badge>
            </NoWrapCell>
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
        onChange={list.setPage}
        hideSinglePage
      />
    </Stack>
  );
}
