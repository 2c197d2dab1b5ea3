import { Alert, Anchor, Button, Group, NativeSelect, NumberInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  AGENT_TYPES,
  SALES_CHANNELS,
  agentCreateRequest,
  agentPage,
  fieldsFromZodError,
  type AgentCreateInput,
  type AgentDetail,
} from '@pos/domain';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api, isApiError, isVersionConflict } from '../../../lib/api';
import { describeError } from '../../../lib/error-message';
import { agentKeys, checkAgentEmail, getAgentQueryOptions, useSaveAgent } from '../api/agents';
import { agentStoresPath, useMayEditAgents } from '../may-edit';

interface Draft {
  name: string;
  email: string;
  phone: string;
  contact_name: string;
  type: string;
  sales_channel: string;
  parent_agent_id: string;
  commission_percent: string | number;
}

const EMPTY: Draft = {
  name: '',
  email: '',
  phone: '',
  contact_name: '',
  type: AGENT_TYPES[0]!,
  sales_channel: 'Distributor',
  parent_agent_id: '',
  commission_percent: '',
};

const draftOf = (a: AgentDetail): Draft => ({
  name: a.name,
  email: a.email,
  phone: a.phone ?? '',
  contact_name: a.contact_name ?? '',
  type: a.type,
  sales_channel: a.sales_channel,
  parent_agent_id: a.parent_agent_id === null ? '' : String(a.parent_agent_id),
  commission_percent: a.commission_percent ?? '',
});

/** The parent choices: active agents (the server checks the choice again). */
function useParentOptions() {
  return useQuery({
    queryKey: [...agentKeys.all, 'parents'],
    queryFn: async ({ signal }) =>
      agentPage.parse(await api.get<unknown>('/api/agents/{token}', { query: { limit: 500 }, signal })).items,
  });
}

/**
 * #/new-agent/{agent-id} (any session; decision 124): #/new-agent/0 creates an agent, #/new-agent/{id} edits one.
 * The e-mail is checked (lowercased) with POST /api/customers/agents/checkemail when it is left; only Admin, RAM
 * and IS staff may save (the server refuses others), and only they are asked the e-mail check (it answers only them).
 */
export default function AgentFormPage() {
  const params = useParams();
  const agentId = /^\d+$/.test(params.agentId ?? '') ? Number(params.agentId) : 0;
  const existing = useQuery({ ...getAgentQueryOptions(agentId), enabled: agentId > 0 });
  if (agentId > 0 && !existing.data) {
    return (
      <Stack gap="md" maw={640}>
        <Anchor component={Link} to="/view-agents" fz="sm">
          Back to agents
        </Anchor>
        <Title order={1} size="h2">
          Edit agent {agentId}
        </Title>
        {existing.isError ? (
          <Alert color="red" title={describeError(existing.error).title}>
            {describeError(existing.error).message} Open an agent from the agents list.
          </Alert>
        ) : (
          <Text>Loading…</Text>
        )}
      </Stack>
    );
  }
  return <AgentForm key={existing.data?.version ?? 0} agent={agentId > 0 ? (existing.data ?? null) : null} />;
}

function AgentForm({ agent }: { agent: AgentDetail | null }) {
  const navigate = useNavigate();
  const mayEdit = useMayEditAgents();
  const agentId = agent?.agent_id ?? 0;
  const editing = agent !== null;
  const parents = useParentOptions();
  const [draft, setDraft] = useState<Draft>(agent ? draftOf(agent) : EMPTY);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [emailNote, setEmailNote] = useState<string | null>(null);

  const set = (key: keyof Draft) => (value: string | number) => setDraft((d) => ({ ...d, [key]: value }));

  async function onEmailBlur() {
    const email = draft.email.trim();
    setEmailNote(null);
    // Only agent editors may ask (anyone else is refused, and a 403 would end the session); the save checks it again.
    if (!mayEdit || email === '' || !email.includes('@')) return;
    try {
      const r = await checkAgentEmail(email);
      if (r.exists && r.agent_id !== agentId)
        setErrors((e) => ({ ...e, email: `Agent ${r.agent_id} already uses this e-mail. Use another e-mail.` }));
      else {
        setErrors(({ email: _, ...rest }) => rest);
        setEmailNote('This e-mail is free.');
      }
    } catch {
      // The save checks it again.
    }
  }

  const save = useSaveAgent();

  function submit(e: FormEvent) {
    e.preventDefault();
    const body = {
      name: draft.name,
      email: draft.email,
      phone: draft.phone,
      contact_name: draft.contact_name,
      type: draft.type,
      sales_channel: draft.sales_channel,
      parent_agent_id: draft.parent_agent_id === '' ? null : Number(draft.parent_agent_id),
      commission_percent: draft.commission_percent === '' ? null : Number(draft.commission_percent),
    };
    const parsed = agentCreateRequest.safeParse(body);
    if (!parsed.success) {
      setErrors(fieldsFromZodError(parsed.error));
      return;
    }
    if (errors.email && errors.email.includes('already uses')) return;
    setErrors({});
    save.mutate(
      { agentId: editing ? agentId : null, body: body as AgentCreateInput, version: agent?.version ?? null },
      {
        onSuccess: (a) => {
          notifications.show({ color: 'green', title: editing ? 'Agent saved' : 'Agent created', message: a.name });
          void navigate(agentStoresPath(a.agent_id, a.name));
        },
        onError: (error) => {
          if (isApiError(error)) setErrors(error.fields);
          const { title, message } = describeError(error);
          const what = isVersionConflict(error)
            ? 'Someone changed this agent; reload the page and make your change again.'
            : 'Correct the marked fields and save again.';
          notifications.show({ color: 'red', title, message: `${message} ${what}`, autoClose: 8000 });
        },
      },
    );
  }

  const parentOptions = [
    { value: '', label: 'No parent agent' },
    ...(parents.data ?? [])
      .filter((a) => a.agent_id !== agentId)
      .map((a) => ({ value: String(a.agent_id), label: `${a.name} (${a.type})` })),
  ];
  const title = editing ? `Edit agent ${agent.name}` : 'New agent';

  return (
    <Stack gap="md" maw={640}>
      <Anchor component={Link} to="/view-agents" fz="sm">
        Back to agents
      </Anchor>
      <Title order={1} size="h2">
        {title}
      </Title>
      {!mayEdit && (
        <Alert color="yellow">Only Admin, RAM and IS staff create and edit agents. Ask one of them to do it.</Alert>
      )}
      <form onSubmit={submit} aria-label={title} noValidate>
        <Stack gap="sm">
          <TextInput
            label="Agent name"
            required
            value={draft.name}
            onChange={(e) => set('name')(e.currentTarget.value)}
            error={errors.name}
          />
          <TextInput
            label="E-mail"
            required
            type="email"
            value={draft.email}
            onChange={(e) => set('email')(e.currentTarget.value)}
            onBlur={() => void onEmailBlur()}
            error={errors.email}
            description={emailNote ?? undefined}
          />
          <Group grow>
            <TextInput
              label="Contact name"
              value={draft.contact_name}
              onChange={(e) => set('contact_name')(e.currentTarget.value)}
              error={errors.contact_name}
            />
            <TextInput
              label="Phone"
              value={draft.phone}
              onChange={(e) => set('phone')(e.currentTarget.value)}
              error={errors.phone}
            />
          </Group>
          <Group grow>
            <NativeSelect
              label="Agent type"
              data={AGENT_TYPES.map((t) => ({ value: t, label: t }))}
              value={draft.type}
              onChange={(e) => set('type')(e.currentTarget.value)}
              error={errors.type}
            />
            <NativeSelect
              label="Sales channel"
              data={SALES_CHANNELS.map((c) => ({ value: c, label: c }))}
              value={draft.sales_channel}
              onChange={(e) => set('sales_channel')(e.currentTarget.value)}
              error={errors.sales_channel}
            />
          </Group>
          <NativeSelect
            label="Parent agent"
            data={parentOptions}
            value={draft.parent_agent_id}
            onChange={(e) => set('parent_agent_id')(e.currentTarget.value)}
            error={errors.parent_agent_id}
          />
          <NumberInput
            label="Commission (%)"
            description="Percent of what the agent's stores are billed; leave empty when none is agreed"
            min={0}
            max={100}
            decimalScale={2}
            value={draft.commission_percent}
            onChange={(v) => set('commission_percent')(v)}
            error={errors.commission_percent}
          />
          <Group>
            <Button type="submit" loading={save.isPending} disabled={!mayEdit}>
              {editing ? 'Save agent' : 'Create agent'}
            </Button>
            <Button component={Link} to="/view-agents" variant="subtle">
              Cancel
            </Button>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}
