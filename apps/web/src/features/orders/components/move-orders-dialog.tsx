import { Alert, Button, Group, List, Modal, Stack, Text } from '@mantine/core';
import type { AgentRecord, OrderSearchRecord } from '@pos/domain';
import { useState } from 'react';
import { describeError } from '../../../lib/error-message';
import { useIdempotencyKeys } from '../../../lib/idempotency';
import { useMoveOrdersToAgent, type AgentMoveResult } from '../api/agent-switch';
import { AgentPicker } from './agent-picker';

const plural = (n: number) => `${n} ${n === 1 ? 'order' : 'orders'}`;

/**
 * "Move to agent…" of the order list (issue 31): pick an agent (the first page of agents, or a search by name or
 * e-mail), confirm "Move N orders", follow the job ("Moving N orders…"), then each order's result. The same key is
 * sent again when the outcome is unknown (no answer, the job still queued), so pressing again follows the same job.
 */
export function MoveOrdersDialog({
  orders,
  onClose,
  onDone,
}: {
  readonly orders: readonly OrderSearchRecord[];
  readonly onClose: () => void;
  /** The job ended: the ids of the orders moved (the page drops them from its selection). */
  readonly onDone: (movedIds: readonly number[]) => void;
}) {
  const [agent, setAgent] = useState<AgentRecord | null>(null);
  const move = useMoveOrdersToAgent();
  const keys = useIdempotencyKeys();
  const [results, setResults] = useState<{ agent: string; items: readonly AgentMoveResult[] } | null>(null);
  const orderIds = orders.map((o) => o.id);
  const n = orders.length;

  const confirm = () => {
    if (!agent) return;
    const action = `agent-switch:${agent.agent_id}:${[...orderIds].sort((a, b) => a - b).join(',')}`;
    const name = agent.name;
    move.mutate(
      { orderIds, agentId: agent.agent_id, idempotencyKey: keys.keyFor(action) },
      {
        onSuccess: (outcome) => {
          keys.settle(action);
          setResults({ agent: name, items: outcome.results });
          onDone(outcome.results.filter((r) => r.moved).map((r) => r.orderId));
        },
        onError: (error) => keys.settle(action, error),
      },
    );
  };

  const byId = new Map(orders.map((o) => [o.id, o]));
  const movedCount = results?.items.filter((r) => r.moved).length ?? 0;

  return (
    <Modal opened onClose={move.isPending ? () => undefined : onClose} title={`Move ${plural(n)} to an agent`} centered>
      {results ? (
        <Stack gap="sm">
          <Text fw={600} role="status">
            {`${movedCount} of ${plural(n)} moved to ${results.agent}.`}
          </Text>
          <List aria-label="Move results" spacing={4} size="sm">
            {results.items.map((r) => {
              const order = byId.get(r.orderId);
              const name = order?.unified_order_id ?? `Order ${r.orderId}`;
              const already = r.moved && order?.agent === results.agent;
              return (
                <List.Item key={r.orderId}>
                  {r.moved
                    ? `${name}: ${already ? 'already with' : 'moved to'} ${results.agent}`
                    : `${name}: not moved — ${r.reason ?? 'no reason given'}`}
                </List.Item>
              );
            })}
          </List>
          <Group justify="flex-end">
            <Button onClick={onClose}>Done</Button>
          </Group>
        </Stack>
      ) : (
        <Stack gap="sm">
          <Text size="sm">{orders.map((o) => o.unified_order_id).join(', ')}</Text>
          <AgentPicker chosen={agent} onChange={setAgent} disabled={move.isPending} />
          {move.isPending && (
            <Text role="status" aria-live="polite">
              {`Moving ${plural(n)}…`}
            </Text>
          )}
          {move.isError && (
            <Alert color="yellow" title="No answer yet">
              {`${describeError(move.error).message} Press "Move ${plural(n)}" again: the same request is followed, never sent twice.`}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={move.isPending}>
              Cancel
            </Button>
            <Button onClick={confirm} disabled={!agent} loading={move.isPending}>
              {`Move ${plural(n)}`}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
