import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  numeric,
  pgTable,
  text,
  uniqueIndex,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { AGENT_TYPES, SALES_CHANNELS } from '@pos/domain';
import { inList, timestamps, version } from './columns';

/** Sales agents and distributors (types Distributor / REFP / RDC), in a hierarchy through parentAgentId. */
export const agents = pgTable(
  'agents',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    name: text().notNull(),
    email: text().notNull(),
    phone: text(),
    type: text().notNull(),
    salesChannel: text().notNull(),
    /** The sales-channel code of §9 (1 IS; 2,4 RAM; 5,7,8 Distributor; 10 MSS). */
    salesChannelCode: integer().notNull(),
    parentAgentId: integer().references((): AnyPgColumn => agents.id),
    /** The person to talk to at the agent (decision 124). */
    contactName: text(),
    /** The agent's commission, a percent of what its stores are billed (0–100, two decimals; decision 124). */
    commissionPercent: numeric({ precision: 5, scale: 2 }),
    active: boolean().notNull().default(true),
    ...timestamps,
    ...version,
  },
  (t) => [
    uniqueIndex('agents_email_uq').on(sql`lower(${t.email})`),
    index('agents_type_idx').on(t.type),
    index('agents_parent_idx').on(t.parentAgentId),
    index('agents_name_trgm_idx').using('gin', t.name.op('gin_trgm_ops')),
    check('agents_type_check', inList(t.type, AGENT_TYPES)),
    check('agents_sales_channel_check', inList(t.salesChannel, SALES_CHANNELS)),
    check('agents_commission_percent_check', sql`${t.commissionPercent} between 0 and 100`),
  ],
);
