import {
  agentDetail,
  agentInviteResult,
  agentPage,
  agentStorePage,
  checkEmailInfo,
  type AgentCreateInput,
  type AgentDetail,
  type AgentInviteResult,
  type AgentPage,
  type AgentStorePage,
} from '@pos/domain';
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { streamDownload, type StreamProgress } from '../../../lib/stream-download';

/*
 * The agents screens' API (issue 17; decision 124; contracts in @pos/domain contracts/agents.ts, every answer parsed):
 *   GET  /api/agents/{token}?type&channel&q&status&limit&offset[&format=csv]
 *   GET  /api/agents/{agentId}/{token}            GET /api/agents/{agentId}/{token}/stores?limit&offset
 *   POST /api/agents/{token}                      PUT /api/agents/{agentId}/{token}
 *   POST /api/agents/{agentId}/{token}/deactivate POST /api/agents/{agentId}/{token}/invite
 *   POST /api/customers/agents/checkemail/{token} {email} (lowercased)
 */

export const AGENT_PAGE_SIZE = 25;

export interface AgentFilters {
  readonly type: string;
  readonly channel: string;
  readonly q: string;
  /** active, inactive or all. */
  readonly status: string;
}

export const NO_AGENT_FILTERS: AgentFilters = { type: '', channel: '', q: '', status: 'active' };

export interface AgentListParams extends AgentFilters {
  /** 1-based. */
  readonly page: number;
}

const filterQuery = (f: AgentFilters) => ({
  type: f.type || undefined,
  channel: f.channel || undefined,
  q: f.q.trim() || undefined,
  status: f.status || undefined,
});

export const agentKeys = {
  all: ['agents'] as const,
  list: (p: AgentListParams) => [...agentKeys.all, 'list', p] as const,
  one: (id: number) => [...agentKeys.all, 'one', id] as const,
  stores: (id: number, page: number) => [...agentKeys.all, 'stores', id, page] as const,
};

export async function listAgents(p: AgentListParams, signal?: AbortSignal): Promise<AgentPage> {
  const info = await api.get<unknown>('/api/agents/{token}', {
    query: { ...filterQuery(p), limit: AGENT_PAGE_SIZE, offset: (p.page - 1) * AGENT_PAGE_SIZE },
    signal,
  });
  return agentPage.parse(info);
}

export function getAgentListQueryOptions(p: AgentListParams) {
  return queryOptions({
    queryKey: agentKeys.list(p),
    queryFn: ({ signal }) => listAgents(p, signal),
    placeholderData: keepPreviousData,
  });
}

/** Every matching agent as CSV, saved as `fileName`: the server streams all rows, read with progress. */
export function exportAgents(
  f: AgentFilters,
  fileName: string,
  signal: AbortSignal,
  onProgress: (progress: StreamProgress) => void,
): Promise<StreamProgress> {
  return streamDownload({
    path: '/api/agents/{token}',
    query: { ...filterQuery(f), format: 'csv' },
    fileName,
    signal,
    onProgress,
  });
}

export function getAgentQueryOptions(agentId: number) {
  return queryOptions({
    queryKey: agentKeys.one(agentId),
    queryFn: async ({ signal }) =>
      agentDetail.parse(await api.get<unknown>('/api/agents/{agentId}/{token}', { params: { agentId }, signal })),
  });
}

export function getAgentStoresQueryOptions(agentId: number, page: number) {
  return queryOptions({
    queryKey: agentKeys.stores(agentId, page),
    queryFn: async ({ signal }): Promise<AgentStorePage> =>
      agentStorePage.parse(
        await api.get<unknown>('/api/agents/{agentId}/{token}/stores', {
          params: { agentId },
          query: { limit: AGENT_PAGE_SIZE, offset: (page - 1) * AGENT_PAGE_SIZE },
          signal,
        }),
      ),
    placeholderData: keepPreviousData,
  });
}

export async function saveAgent(
  agentId: number | null,
  body: AgentCreateInput,
  version: number | null,
): Promise<AgentDetail> {
  const info =
    agentId === null
      ? await api.post<unknown>('/api/agents/{token}', body)
      : await api.put<unknown>('/api/agents/{agentId}/{token}', { ...body, version }, { params: { agentId } });
  return agentDetail.parse(info);
}

export async function deactivateAgent(agentId: number, version: number): Promise<AgentDetail> {
  return agentDetail.parse(
    await api.post<unknown>('/api/agents/{agentId}/{token}/deactivate', { version }, { params: { agentId } }),
  );
}

export async function inviteAgent(agentId: number): Promise<AgentInviteResult> {
  return agentInviteResult.parse(
    await api.post<unknown>('/api/agents/{agentId}/{token}/invite', undefined, { params: { agentId } }),
  );
}

// ── Mutations: one hook per operation, each owning what it refreshes (issue 30, item 3) ─────────────────────────

/** Every agent query is asked again (not awaited: a caller may navigate away at once). */
function useRefreshAgents() {
  const queryClient = useQueryClient();
  return () => void queryClient.invalidateQueries({ queryKey: agentKeys.all });
}

/** Create an agent (`agentId` null) or edit one (its version guards the edit); the form shows a refusal itself. */
export function useSaveAgent() {
  const refresh = useRefreshAgents();
  return useMutation({
    mutationFn: ({
      agentId,
      body,
      version,
    }: {
      agentId: number | null;
      body: AgentCreateInput;
      version: number | null;
    }) => saveAgent(agentId, body, version),
    meta: { silentError: true },
    onSuccess: refresh,
  });
}

/** Give a Distributor agent a distributor login (or send the invitation again): the agent shows it has one. */
export function useInviteAgent(agentId: number) {
  const refresh = useRefreshAgents();
  return useMutation({
    mutationFn: () => inviteAgent(agentId),
    meta: { silentError: true },
    onSuccess: refresh,
  });
}

/** Deactivate the agent (its version guards it): the agents refresh, also after a refusal (someone changed it). */
export function useDeactivateAgent(agentId: number) {
  const refresh = useRefreshAgents();
  return useMutation({
    mutationFn: (version: number) => deactivateAgent(agentId, version),
    meta: { silentError: true },
    onSettled: refresh,
  });
}

/** Is the e-mail an agent's already? (sent lowercased, spec §4.) */
export async function checkAgentEmail(email: string) {
  return checkEmailInfo.parse(
    await api.post<unknown>('/api/customers/agents/checkemail/{token}', { email: email.trim().toLowerCase() }),
  );
}
