import { Alert, Anchor, Badge, Button, Group, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { AGENT_TYPE, effectivePrivileges } from '@pos/domain';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import {
  DataTable,
  emptyListText,
  FigureCell,
  FigureHeader,
  listCaption,
  ListPagination,
  NoWrapCell,
  useListState,
} from '../../../components/list';
import { describeError } from '../../../lib/error-message';
import { formatCents, formatDate } from '../../../lib/format';
import { useSession } from '../../../lib/session';
import { AGENT_PAGE_SIZE, getAgentStoresQueryOptions, useDeactivateAgent, useInviteAgent } from '../api/agents';
import { useMayEditAgents } from '../may-edit';

/** No filters: the page of stores is the list's state in the address (`#/view-agent-stores/12/Acme?page=2`). */
const LIST_OPTIONS = { defaults: {} } as const;

function showError(error: unknown, what: string) {
  const { title, message } = describeError(error);
  notifications.show({ color: 'red', title, message: `${message} ${what}`, autoClose: 8000 });
}

/**
 * #/view-agent-stores/{agent-id}/{agent-name} (any session; decision 124): the agent's stores (agent_stores) with
 * their status and open balance; editors invite a Distributor agent to the distributor login and deactivate it.
 * Another agent's page is "not found" for a distributor session (the server answers 404).
 */
export default function AgentStoresPage() {
  const params = useParams();
  const agentId = /^\d+$/.test(params.agentId ?? '') ? Number(params.agentId) : 0;
  const mayEdit = useMayEditAgents();
  const { page, setPage } = useListState<Record<string, never>>(LIST_OPTIONS);
  const { session } = useSession();
  const mayOpenCustomers = session
    ? effectivePrivileges(session.role, session.additional_privileges).some(
        (p) => p === 'customer_details_view' || p === 'customer_details_edit',
      )
    : false;
  const [confirming, setConfirming] = useState(false);
  const query = useQuery({ ...getAgentStoresQueryOptions(agentId, page), enabled: agentId > 0 });
  const agent = query.data?.agent;
  const items = query.data?.items ?? [];
  const total = query.data?.total ?? 0;

  const invite = useInviteAgent(agentId);
  const sendInvite = () =>
    invite.mutate(undefined, {
      onSuccess: (r) =>
        notifications.show({
          color: 'green',
          title: r.created ? 'Distributor login created' : 'Invitation sent again',
          message: `A link to set the password was e-mailed to ${r.email}.`,
        }),
      onError: (e) => showError(e, 'Check the agent and try again.'),
    });
  const deactivate = useDeactivateAgent(agentId);
  const deactivateAgent = () =>
    deactivate.mutate(agent!.version, {
      onSuccess: (a) => {
        setConfirming(false);
        notifications.show({ color: 'green', title: 'Agent deactivated', message: `${a.name} is no longer active.` });
      },
      onError: (e) => {
        setConfirming(false);
        showError(e, 'Reload the page and try again.');
      },
    });

  const name = agent?.name ?? params.agentName ?? `Agent ${agentId}`;
  return (
    <Stack gap="md">
      <Anchor component={Link} to="/view-agents" fz="sm">
        Back to agents
      </Anchor>
      <Group justify="space-between" align="flex-start">
        <div>
          <Title order={1} size="h2">
            Stores of {name}
          </Title>
          {agent && (
            <Text size="sm" c="dimmed">
              {agent.type} · {agent.sales_channel} channel · {agent.email}
              {agent.contact_name ? ` · contact ${agent.contact_name}` : ''}
              {agent.parent_agent_name ? ` · under ${agent.parent_agent_name}` : ''}{' '}
              <Badge color={agent.active ? 'green' : 'gray'} variant="light">
                {agent.active ? 'Active' : 'Inactive'}
              </Badge>
              {agent.has_login && (
                <Badge ml="xs" variant="light">
                  Has distributor login
                </Badge>
              )}
            </Text>
          )}
        </div>
        {mayEdit && agent && (
          <Group gap="sm">
            <Button component={Link} to={`/new-agent/${agent.agent_id}`} variant="default">
              Edit agent
            </Button>
            {agent.type === AGENT_TYPE.DISTRIBUTOR && agent.active && (
              <Button variant="default" onClick={sendInvite} loading={invite.isPending}>
                {agent.has_login ? 'Send login invitation again' : 'Invite to distributor login'}
              </Button>
            )}
            {agent.active && (
              <Button color="red" variant="light" onClick={() => setConfirming(true)}>
                Deactivate agent
              </Button>
            )}
          </Group>
        )}
      </Group>
      {agentId === 0 && <Alert color="red">This address names no agent. Open an agent from the agents list.</Alert>}
      {query.isError && (
        <Alert color="red" title={describeError(query.error).title}>
          {describeError(query.error).message} Open an agent from the agents list.
        </Alert>
      )}
      <DataTable
        caption={
          query.isPending
            ? 'Stores (loading…)'
            : listCaption(`Stores of ${name}`, { isPending: false, total }, { one: 'store', many: 'stores' })
        }
        columns={[
          'Store',
          'Merchant',
          'State',
          'Status',
          <FigureHeader key="balance">Open balance</FigureHeader>,
          'Linked since',
        ]}
        minWidth={800}
        rowCount={items.length}
        emptyText={emptyListText(query.isPending, 'No stores are linked to this agent yet.')}
        highlightOnHover
      >
        {items.map((s) => (
          <Table.Tr key={s.store_id}>
            <Table.Td>
              {s.store_name}
              <Text component="span" size="xs" c="dimmed" display="block">
                Store {s.store_id}
              </Text>
            </Table.Td>
            <Table.Td>
              {s.customer_name}
              <Text component="span" size="xs" c="dimmed" display="block">
                {mayOpenCustomers ? (
                  <Anchor component={Link} to={`/customer?id=${s.customer_id}`} inherit>
                    Customer {s.customer_id}
                  </Anchor>
                ) : (
                  `Customer ${s.customer_id}`
                )}
              </Text>
            </Table.Td>
            <Table.Td>{s.state ?? '—'}</Table.Td>
            <NoWrapCell>{s.status_label}</NoWrapCell>
            <FigureCell>{formatCents(s.open_balance_cents, s.currency)}</FigureCell>
            <NoWrapCell>{formatDate(s.assigned_at)}</NoWrapCell>
          </Table.Tr>
        ))}
      </DataTable>
      <ListPagination
        label="Store pages"
        total={total}
        totalCapped={false}
        pageRows={items.length}
        pageSize={AGENT_PAGE_SIZE}
        page={page}
        onChange={setPage}
        hideSinglePage
      />
      <ConfirmDialog
        opened={confirming}
        title={`Deactivate ${name}?`}
        message="The agent is no longer offered for orders, and its distributor logins stop working at once."
        confirmLabel="Deactivate"
        color="red"
        busy={deactivate.isPending}
        onConfirm={deactivateAgent}
        onClose={() => setConfirming(false)}
      />
    </Stack>
  );
}
