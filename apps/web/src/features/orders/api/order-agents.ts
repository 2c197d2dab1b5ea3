import { agentOrderAssignments, type AgentOrderAssignments } from '@pos/domain';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, isVersionConflict } from '../../../lib/api';
import { removeOrderAgent, setOrderAgent } from './order-contracts';
import { orderKeys } from './orders';

/*
 * The agents on an order (agent_orders; spec §7 Orders, decision 162), for the order panel:
 *   GET    /api/customers/agentorders/{orderId}/{token}                         → agentOrderAssignments (our addition)
 *   POST   /api/customers/agentorders/{token}/add            {order_id, agent_id}           (409: already on it)
 *   PUT    /api/customers/agentorders/{token}/updateagentid  {order_id, agent_id, version}  (409: version stale)
 *   DELETE /api/customers/agentorders/{token}/delete         {order_id, agent_id}           (404: not on it)
 * Every write answers the order's agents after the change; the section shows that answer at once. None of these
 * routes takes an Idempotency-Key (not money, and each is safe to repeat: a second add is a 409, a second remove a
 * 404), like the panel's other agent calls.
 */

export async function getOrderAgents(orderId: number, signal?: AbortSignal): Promise<AgentOrderAssignments> {
  const info = await api.get<unknown>('/api/customers/agentorders/{orderId}/{token}', { params: { orderId }, signal });
  return agentOrderAssignments.parse(info);
}

export async function addOrderAgent(orderId: number, agentId: number): Promise<AgentOrderAssignments> {
  const info = await api.post<unknown>('/api/customers/agentorders/{token}/add', {
    order_id: orderId,
    agent_id: agentId,
  });
  return agentOrderAssignments.parse(info);
}

export function getOrderAgentsQueryOptions(orderId: number) {
  return queryOptions({
    queryKey: orderKeys.assignments(orderId),
    queryFn: ({ signal }) => getOrderAgents(orderId, signal),
  });
}

/**
 * A change to the order's agents: the section shows the answer; `mainAgent` — the order's own agent and version
 * changed too (updateagentid), so its row and the list's pages, which show the agent, refresh. After a version
 * conflict the section reads the order's agents again (the caller says to reload).
 */
function useOrderAgentsMutation<TVariables>(
  orderId: number,
  mutationFn: (variables: TVariables) => Promise<AgentOrderAssignments>,
  mainAgent: boolean,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    meta: { silentError: true },
    onSuccess: async (result) => {
      queryClient.setQueryData(orderKeys.assignments(orderId), result);
      if (mainAgent)
        await Promise.all([
          queryClient.invalidateQueries({ queryKey: orderKeys.row(orderId) }),
          queryClient.invalidateQueries({ queryKey: orderKeys.lists() }),
        ]);
    },
    onError: (error) => {
      if (isVersionConflict(error)) void queryClient.invalidateQueries({ queryKey: orderKeys.assignments(orderId) });
    },
  });
}

/** Put one more agent on the order. */
export function useAddOrderAgent(orderId: number) {
  return useOrderAgentsMutation(orderId, (agentId: number) => addOrderAgent(orderId, agentId), false);
}

/** Make the agent the order's sole agent (and its main agent), guarded by the order's version. */
export function useMakeSoleOrderAgent(orderId: number) {
  return useOrderAgentsMutation(
    orderId,
    ({ agentId, version }: { agentId: number; version: number }) => setOrderAgent(orderId, agentId, version),
    true,
  );
}

/** Take one agent off the order. */
export function useTakeAgentOffOrder(orderId: number) {
  return useOrderAgentsMutation(orderId, (agentId: number) => removeOrderAgent(orderId, agentId), false);
}
