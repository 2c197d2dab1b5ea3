import { AGENT_TYPE, SALES_CHANNEL, SALES_CHANNEL_CODES, type AgentType, type SalesChannel } from '@pos/domain';
import type { Db } from '../client';
import { agents } from '../schema';
import { uniqueSuffix } from './sequence';

export type AgentRow = typeof agents.$inferSelect;
export type NewAgent = typeof agents.$inferInsert;

export const CHANNEL_FOR_TYPE: Readonly<Record<AgentType, SalesChannel>> = {
  Distributor: SALES_CHANNEL.DISTRIBUTOR,
  REFP: SALES_CHANNEL.RAM,
  RDC: SALES_CHANNEL.IS,
};

/** Insert values of an agent (default type Distributor); channel and channel code follow the type unless given. */
export function agentValues(overrides: Partial<NewAgent> = {}, key = uniqueSuffix()): NewAgent {
  const type = (overrides.type as AgentType | undefined) ?? AGENT_TYPE.DISTRIBUTOR;
  const salesChannel = (overrides.salesChannel as SalesChannel | undefined) ?? CHANNEL_FOR_TYPE[type];
  return {
    name: `Agent ${key}`,
    email: `agent-${key}@example.com`,
    phone: '555-010-0000',
    type,
    salesChannel,
    salesChannelCode: SALES_CHANNEL_CODES[salesChannel][0]!,
    ...overrides,
  };
}

/** An agent (default type Distributor); the sales channel and its code follow the type unless given. */
export async function createAgent(db: Db, overrides: Partial<NewAgent> = {}): Promise<AgentRow> {
  const [row] = await db.insert(agents).values(agentValues(overrides)).returning();
  return row!;
}
