import {
  AGENT_SEARCH_MIN_LENGTH,
  agentList,
  agentOrderAssignments,
  contractLinkSent,
  orderContractList,
} from '@pos/domain';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { orderKeys } from './orders';

/*
 * The order panel's contract and agent calls (contracts in @pos/domain):
 *   GET    /api/customers/contracts/{orderId}/{token}                    → {contracts}
 *   POST   /api/customers/contracts/{orderId}/send/{token} {kind}         → {sent_to, expires_at}
 *   GET    /api/customers/getagents/{token}?search=                       → {agents}
 *   PUT    /api/customers/agentorders/{token}/updateagentid {order_id, agent_id, version}
 *   DELETE /api/customers/agentorders/{token}/delete {order_id, agent_id}
 */

export async function listOrderContracts(orderId: number, signal?: AbortSignal) {
  return orderContractList.parse(
    await api.get<unknown>('/api/customers/contracts/{orderId}/{token}', { params: { orderId }, signal }),
  );
}

export function getOrderContractsQueryOptions(orderId: number) {
  return queryOptions({
    queryKey: orderKeys.contracts(orderId),
    queryFn: ({ signal }) => listOrderContracts(orderId, signal),
  });
}

export async function sendOrderContractLink(orderId: number, kind: 'sign' | 'reauthorize') {
  return contractLinkSent.parse(
    await api.post<unknown>('/api/customers/contracts/{orderId}/send/{token}', { kind }, { params: { orderId } }),
  );
}

export async function searchAgents(search: string, signal?: AbortSignal) {
  return agentList.parse(await api.get<unknown>('/api/customers/getagents/{token}', { query: { search }, signal }));
}

/** Agents by name or e-mail; asked once the search has AGENT_SEARCH_MIN_LENGTH characters. */
export function getAgentSearchQueryOptions(search: string) {
  return queryOptions({
    queryKey: orderKeys.agents(search),
    queryFn: ({ signal }) => searchAgents(search, signal),
    enabled: search.length >= AGENT_SEARCH_MIN_LENGTH,
  });
}

export async function setOrderAgent(orderId: number, agentId: number, version: number) {
  return agentOrderAssignments.parse(
    await api.put<unknown>('/api/customers/agentorders/{token}/updateagentid', {
      order_id: orderId,
      agent_id: agentId,
      version,
    }),
  );
}

export async function removeOrderAgent(orderId: number, agentId: number) {
  return agentOrderAssignments.parse(
    await api.delete<unknown>('/api/customers/agentorders/{token}/delete', { order_id: orderId, agent_id: agentId }),
  );
}

// ── Mutations: one hook per operation, each owning what it refreshes (issue 30, item 3) ─────────────────────────

/** Send the merchant a signing or re-authorization link: the order's contract versions refresh. */
export function useSendOrderContractLink(orderId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (kind: 'sign' | 'reauthorize') => sendOrderContractLink(orderId, kind),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: orderKeys.contracts(orderId) });
    },
  });
}

/**
 * The order's agent changed: its row (read by id), the list's pages, which show the agent, and the section "Agents on
 * this order" refresh.
 */
function useRefreshOrderAgent(orderId: number) {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: orderKeys.row(orderId) }),
      queryClient.invalidateQueries({ queryKey: orderKeys.lists() }),
      queryClient.invalidateQueries({ queryKey: orderKeys.assignments(orderId) }),
    ]);
}

/** Assign the order to an agent, or switch it to another (the order's version guards the change). */
export function useSetOrderAgent(orderId: number) {
  const refresh = useRefreshOrderAgent(orderId);
  return useMutation({
    mutationFn: ({ agentId, version }: { agentId: number; version: number }) =>
      setOrderAgent(orderId, agentId, version),
    onSuccess: refresh,
  });
}

/** Take the agent off the order. */
export function useRemoveOrderAgent(orderId: number) {
  const refresh = useRefreshOrderAgent(orderId);
  return useMutation({
    mutationFn: (agentId: number) => removeOrderAgent(orderId, agentId),
    onSuccess: refresh,
  });
}
