import { NativeSelect, Stack, Text, TextInput } from '@mantine/core';
import { AGENT_SEARCH_MIN_LENGTH, type AgentRecord } from '@pos/domain';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { describeError } from '../../../lib/error-message';
import { getAgentSearchQueryOptions } from '../api/order-contracts';

/**
 * Pick one active agent (getagents): "Find an agent" — empty lists the first agents, or a name or e-mail of
 * AGENT_SEARCH_MIN_LENGTH+ characters — and the "Agent" select. Used by "Move to agent…" of the order list and
 * "Add agent…" of the order panel. `unavailable`: agents shown but not offered, with the reason.
 */
export function AgentPicker({
  chosen,
  onChange,
  disabled = false,
  unavailable,
}: {
  readonly chosen: AgentRecord | null;
  readonly onChange: (agent: AgentRecord | null) => void;
  readonly disabled?: boolean;
  readonly unavailable?: (agent: AgentRecord) => string | null;
}) {
  const [search, setSearch] = useState('');
  const term = search.trim();
  const searchable = term === '' || term.length >= AGENT_SEARCH_MIN_LENGTH;
  const agents = useQuery({ ...getAgentSearchQueryOptions(term), enabled: searchable });
  const agentList = agents.data?.agents ?? [];
  return (
    <Stack gap="sm">
      <TextInput
        label="Find an agent"
        description={`Name or e-mail, ${AGENT_SEARCH_MIN_LENGTH}+ characters; empty lists the first agents`}
        value={search}
        onChange={(e) => {
          setSearch(e.currentTarget.value);
          onChange(null);
        }}
        error={searchable ? undefined : `Type at least ${AGENT_SEARCH_MIN_LENGTH} characters.`}
        disabled={disabled}
      />
      <NativeSelect
        label="Agent"
        value={chosen ? String(chosen.agent_id) : ''}
        onChange={(e) => {
          const id = e.currentTarget.value;
          onChange(agentList.find((a) => String(a.agent_id) === id) ?? null);
        }}
        disabled={disabled}
        data={[
          {
            value: '',
            label: agents.isFetching ? 'Searching…' : agents.data ? `${agents.data.total} found` : 'Search first',
          },
          ...agentList.map((a) => {
            const reason = unavailable?.(a) ?? null;
            return {
              value: String(a.agent_id),
              label: `${a.name} (${a.type})${reason ? ` — ${reason}` : ''}`,
              disabled: reason !== null,
            };
          }),
        ]}
      />
      {agents.isError && <Text c="red">{describeError(agents.error).message}</Text>}
    </Stack>
  );
}
