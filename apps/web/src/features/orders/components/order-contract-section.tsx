import { Anchor, Button, Group, NativeSelect, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { AGENT_SEARCH_MIN_LENGTH, ORDER_STATUS, type OrderSearchRecord } from '@pos/domain';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { apiUrl } from '../../../lib/api';
import { describeError } from '../../../lib/error-message';
import {
  getAgentSearchQueryOptions,
  getOrderContractsQueryOptions,
  useRemoveOrderAgent,
  useSendOrderContractLink,
  useSetOrderAgent,
} from '../api/order-contracts';
import { formatDateTime } from '../../../lib/format';

const STATUS_TEXT: Readonly<Record<string, string>> = {
  generated: 'Generated',
  sent: 'Sent to the merchant',
  signed: 'Signed',
  superseded: 'Replaced',
  uploaded: 'Paper copy uploaded',
};

function failed(error: unknown) {
  const { title, message } = describeError(error);
  notifications.show({ color: 'red', title, message, autoClose: 8000 });
}

/** The order's contract versions, the merchant links and the paper upload (decision 082). */
export function OrderContractSection({
  order,
  canEdit,
}: {
  readonly order: OrderSearchRecord;
  readonly canEdit: boolean;
}) {
  const list = useQuery(getOrderContractsQueryOptions(order.id));
  const [confirm, setConfirm] = useState<'sign' | 'reauthorize' | null>(null);
  const send = useSendOrderContractLink(order.id);
  const sendLink = (kind: 'sign' | 'reauthorize') =>
    send.mutate(kind, {
      onSuccess: (sent) =>
        notifications.show({
          color: 'green',
          title: 'Link sent',
          message: `The ${sent.kind === 'sign' ? 'signing' : 're-authorization'} link went to ${sent.sent_to}.`,
        }),
      onError: failed,
      onSettled: () => setConfirm(null),
    });
  const contracts = list.data?.contracts ?? [];
  return (
    <section aria-label="Contract">
      <Title order={3} size="h5" mb="xs">
        Contract
      </Title>
      {list.isError && <Text c="red">{describeError(list.error).message}</Text>}
      {contracts.length === 0 && !list.isPending && (
        <Text c="dimmed">No contract yet: it is made when the order is submitted.</Text>
      )}
      {contracts.length > 0 && (
        <Table aria-label="Contract versions">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Version</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>Signed</Table.Th>
              <Table.Th>PDF</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {contracts.map((c) => (
              <Table.Tr key={c.id}>
                <Table.Td>v{c.version_no}</Table.Td>
                <Table.Td>{STATUS_TEXT[c.status] ?? c.status}</Table.Td>
                <Table.Td>
                  {c.signed_at
                    ? `${c.signed_by_name ?? ''} · ${formatDateTime(c.signed_at)}${c.signed_from_ip ? ` · ${c.signed_from_ip}` : ''}`
                    : '—'}
                </Table.Td>
                <Table.Td>
                  <Anchor href={apiUrl(c.pdf_url)} aria-label={`Download contract v${c.version_no}`}>
                    Download
                  </Anchor>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {canEdit && (
        <Group gap="xs" mt="sm">
          {order.status === ORDER_STATUS.PENDING_CONTRACT_SIGN && (
            <Button size="xs" variant="light" onClick={() => setConfirm('sign')}>
              Send contract link
            </Button>
          )}
          <Button size="xs" variant="light" onClick={() => setConfirm('reauthorize')}>
            Send re-authorization link
          </Button>
          {order.status === ORDER_STATUS.PENDING_CONTRACT_SIGN && (
            <Button size="xs" variant="default" component={Link} to={`/upload-contract?order=${order.id}`}>
              Upload signed contract
            </Button>
          )}
        </Group>
      )}
      <ConfirmDialog
        opened={confirm !== null}
        title={confirm === 'sign' ? 'Send the contract link?' : 'Send the re-authorization link?'}
        message={`The merchant of order ${order.unified_order_id} gets a new link by e-mail; earlier links of this kind stop working.`}
        confirmLabel="Send link"
        busy={send.isPending}
        onConfirm={() => confirm && sendLink(confirm)}
        onClose={() => setConfirm(null)}
      />
    </section>
  );
}

/** The order's agent: assign or switch by search, or remove (decision 076). */
export function OrderAgentSection({
  order,
  canEdit,
  onChanged,
}: {
  readonly order: OrderSearchRecord;
  readonly canEdit: boolean;
  readonly onChanged: (o: OrderSearchRecord) => void;
}) {
  const [search, setSearch] = useState('');
  const [chosen, setChosen] = useState('');
  const term = search.trim();
  const agents = useQuery(getAgentSearchQueryOptions(term));
  const assign = useSetOrderAgent(order.id);
  const remove = useRemoveOrderAgent(order.id);
  const assignAgent = (agentId: number) =>
    assign.mutate(
      { agentId, version: order.version },
      {
        onSuccess: (result) => {
          const agent = result.agents.find((a) => a.agent_id === result.agent_id);
          notifications.show({
            color: 'green',
            title: 'Agent assigned',
            message: `${agent?.name ?? 'The agent'} now has order ${order.unified_order_id}.`,
          });
          onChanged({ ...order, agent_id: result.agent_id, agent: agent?.name ?? null, version: result.version });
          setSearch('');
          setChosen('');
        },
        onError: failed,
      },
    );
  const removeAgent = (agentId: number) =>
    remove.mutate(agentId, {
      onSuccess: (result) => {
        notifications.show({
          color: 'green',
          title: 'Agent removed',
          message: `Order ${order.unified_order_id} has no agent now.`,
        });
        onChanged({ ...order, agent_id: result.agent_id, agent: null, version: result.version });
      },
      onError: failed,
    });
  return (
    <section aria-label="Agent">
      <Title order={3} size="h5" mb="xs">
        Agent
      </Title>
      <Text>{order.agent ?? 'No agent'}</Text>
      {canEdit && (
        <Stack gap="xs" mt="xs">
          <Group align="flex-end" gap="xs">
            <TextInput
              label="Find an agent"
              description={`Name or e-mail, ${AGENT_SEARCH_MIN_LENGTH}+ characters`}
              value={search}
              onChange={(e) => setSearch(e.currentTarget.value)}
              w={240}
            />
            <NativeSelect
              label="Agent"
              value={chosen}
              onChange={(e) => setChosen(e.currentTarget.value)}
              data={[
                { value: '', label: agents.data ? `${agents.data.total} found` : 'Search first' },
                ...(agents.data?.agents ?? []).map((a) => ({
                  value: String(a.agent_id),
                  label: `${a.name} (${a.type})`,
                })),
              ]}
              w={260}
            />
            <Button size="sm" disabled={!chosen} loading={assign.isPending} onClick={() => assignAgent(Number(chosen))}>
              {order.agent_id ? 'Switch agent' : 'Assign agent'}
            </Button>
          </Group>
          {order.agent_id != null && (
            <Button
              size="xs"
              variant="subtle"
              color="red"
              w="fit-content"
              loading={remove.isPending}
              onClick={() => removeAgent(order.agent_id!)}
            >
              Remove agent
            </Button>
          )}
        </Stack>
      )}
    </section>
  );
}
