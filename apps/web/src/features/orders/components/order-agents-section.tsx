import { Alert, Anchor, Badge, Button, Group, Modal, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { AgentOrderAssignments, AgentRecord, OrderSearchRecord } from '@pos/domain';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { isVersionConflict } from '../../../lib/api';
import { describeError } from '../../../lib/error-message';
import { formatDateTime } from '../../../lib/format';
import {
  getOrderAgentsQueryOptions,
  useAddOrderAgent,
  useMakeSoleOrderAgent,
  useTakeAgentOffOrder,
} from '../api/order-agents';
import { AgentPicker } from './agent-picker';

type Assignment = AgentOrderAssignments['agents'][number];

/** The agent's page (#/view-agent-stores/{id}/{name}; any session, scoped on the server — decision 124). */
const agentPath = (agentId: number, name: string) => `/view-agent-stores/${agentId}/${encodeURIComponent(name)}`;

function failed(error: unknown) {
  const { title, message } = describeError(error);
  notifications.show({ color: 'red', title, message, autoClose: 8000, withBorder: true });
}

/**
 * "Agents on this order" (decision 162): the order's agent_orders — agent (a link to its page), type, who added it
 * and when — and, for users who may edit orders (search_orders_edit, the routes' guard), "Add agent…", "Make sole
 * agent" and "Remove" per row.
 */
export function OrderAgentsSection({
  order,
  canEdit,
  onChanged,
}: {
  readonly order: OrderSearchRecord;
  readonly canEdit: boolean;
  /** After "Make sole agent": the order with its new agent and version. */
  readonly onChanged: (order: OrderSearchRecord) => void;
}) {
  const assignments = useQuery({ ...getOrderAgentsQueryOptions(order.id), meta: { silentError: true } });
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<Assignment | null>(null);
  const sole = useMakeSoleOrderAgent(order.id);
  const takeOff = useTakeAgentOffOrder(order.id);
  const orderName = order.unified_order_id;
  const data = assignments.data;
  const rows = data?.agents ?? [];

  const makeSole = (a: Assignment) => {
    if (!data) return;
    sole.mutate(
      { agentId: a.agent_id, version: data.version },
      {
        onSuccess: (result) => {
          const others = rows.filter((r) => r.agent_id !== a.agent_id).length;
          notifications.show({
            color: 'green',
            title: 'Sole agent set',
            message:
              others > 0
                ? `${a.name} is now the only agent on order ${orderName}; ${others === 1 ? '1 other agent was' : `${others} other agents were`} taken off.`
                : `${a.name} is now the only agent on order ${orderName}.`,
          });
          onChanged({ ...order, agent_id: result.agent_id, agent: a.name, version: result.version });
        },
        onError: (error) => {
          if (isVersionConflict(error)) {
            notifications.show({
              id: 'order-agents-conflict',
              color: 'orange',
              title: 'Changed by someone else',
              message: `Order ${orderName} was changed while you had it open, so its agents were not changed. Reload the page to see the order as it is now, then try again.`,
              autoClose: 10_000,
              withBorder: true,
            });
            return;
          }
          failed(error);
        },
      },
    );
  };

  const remove = (a: Assignment) =>
    takeOff.mutate(a.agent_id, {
      onSuccess: () => {
        notifications.show({
          color: 'green',
          title: 'Agent removed',
          message: `${a.name} is no longer on order ${orderName}.`,
        });
        setRemoving(null);
      },
      onError: (error) => {
        setRemoving(null);
        failed(error);
      },
    });

  const busyId = sole.isPending ? sole.variables?.agentId : takeOff.isPending ? takeOff.variables : undefined;

  return (
    <section aria-label="Agents on this order">
      <Group justify="space-between" mb="xs">
        <Title order={3} size="h5">
          Agents on this order
        </Title>
        {canEdit && data && (
          <Button size="xs" variant="light" onClick={() => setAdding(true)}>
            Add agent…
          </Button>
        )}
      </Group>
      {assignments.isPending ? (
        <Text c="dimmed">Loading…</Text>
      ) : assignments.isError ? (
        <Alert color="red" title="Could not read the order’s agents">
          {describeError(assignments.error).message}
        </Alert>
      ) : rows.length === 0 ? (
        <Text c="dimmed">No agents on this order yet.</Text>
      ) : (
        <Table fz="sm" striped aria-label="Agents on this order">
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Agent</Table.Th>
              <Table.Th scope="col">Type</Table.Th>
              <Table.Th scope="col">Added by</Table.Th>
              <Table.Th scope="col">When</Table.Th>
              {canEdit && (
                <Table.Th scope="col">
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              )}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((a) => {
              const main = data?.agent_id === a.agent_id;
              const onlyOne = main && rows.length === 1;
              return (
                <Table.Tr key={a.agent_id}>
                  <Table.Td>
                    <Group gap={6} wrap="nowrap">
                      <Anchor component={Link} to={agentPath(a.agent_id, a.name)}>
                        {a.name}
                      </Anchor>
                      {main && (
                        <Badge size="xs" variant="light" title="The order's own agent">
                          Main
                        </Badge>
                      )}
                    </Group>
                  </Table.Td>
                  <Table.Td>{a.type}</Table.Td>
                  <Table.Td>{a.assigned_by_email}</Table.Td>
                  <Table.Td>{formatDateTime(a.assigned_at)}</Table.Td>
                  {canEdit && (
                    <Table.Td>
                      <Group gap={4} wrap="nowrap" justify="flex-end">
                        <Button
                          size="compact-xs"
                          variant="subtle"
                          aria-label={`Make ${a.name} the sole agent`}
                          disabled={onlyOne || (busyId !== undefined && busyId !== a.agent_id)}
                          loading={sole.isPending && busyId === a.agent_id}
                          onClick={() => makeSole(a)}
                        >
                          Make sole agent
                        </Button>
                        <Button
                          size="compact-xs"
                          variant="subtle"
                          color="red"
                          aria-label={`Remove ${a.name}`}
                          disabled={busyId !== undefined}
                          onClick={() => setRemoving(a)}
                        >
                          Remove
                        </Button>
                      </Group>
                    </Table.Td>
                  )}
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      )}
      {canEdit && adding && data && (
        <AddOrderAgentDialog order={order} current={data} onClose={() => setAdding(false)} />
      )}
      <ConfirmDialog
        opened={removing !== null}
        title="Remove the agent from this order?"
        message={
          removing
            ? `${removing.name} will no longer be on order ${orderName}.${data?.agent_id === removing.agent_id ? ' The order keeps it as its main agent until you make another agent its sole agent.' : ''}`
            : ''
        }
        confirmLabel="Remove agent"
        color="red"
        busy={takeOff.isPending}
        onConfirm={() => removing && remove(removing)}
        onClose={() => setRemoving(null)}
      />
    </section>
  );
}

/** "Add agent…": pick an active agent (the shared picker) and put it on the order. */
function AddOrderAgentDialog({
  order,
  current,
  onClose,
}: {
  readonly order: OrderSearchRecord;
  /** The order's agents now: they are shown in the picker but not offered. */
  readonly current: AgentOrderAssignments;
  readonly onClose: () => void;
}) {
  const [agent, setAgent] = useState<AgentRecord | null>(null);
  const add = useAddOrderAgent(order.id);
  const onOrder = new Set(current.agents.map((a) => a.agent_id));
  const submit = () => {
    if (!agent) return;
    add.mutate(agent.agent_id, {
      onSuccess: () => {
        notifications.show({
          color: 'green',
          title: 'Agent added',
          message: `${agent.name} is now on order ${order.unified_order_id}.`,
        });
        onClose();
      },
      onError: failed,
    });
  };
  return (
    <Modal
      opened
      onClose={add.isPending ? () => undefined : onClose}
      title={`Add an agent to order ${order.unified_order_id}`}
      centered
    >
      <Stack gap="sm">
        <AgentPicker
          chosen={agent}
          onChange={setAgent}
          disabled={add.isPending}
          unavailable={(a) => (onOrder.has(a.agent_id) ? 'already on this order' : null)}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={add.isPending}>
            Cancel
          </Button>
          <Button onClick={submit} disabled={!agent} loading={add.isPending}>
            Add agent
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
