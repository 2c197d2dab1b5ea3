import { AGENT_EDITOR_ROLES } from '@pos/domain';
import { useSession } from '../../lib/session';

/** May this session create and edit agents? Only to show the buttons: the server decides (decision 124). */
export function useMayEditAgents(): boolean {
  const { session, isDistributorToken } = useSession();
  return !isDistributorToken && (AGENT_EDITOR_ROLES as readonly string[]).includes(session?.role ?? '');
}

export const agentStoresPath = (agentId: number, name: string) =>
  `/view-agent-stores/${agentId}/${encodeURIComponent(name)}`;
