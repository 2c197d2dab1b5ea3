import { z } from 'zod';
import { AGENT_TYPES, SALES_CHANNELS, type AgentType } from '../codes/sales';
import { isValidPercent } from '../rules/percent';
import { PAGINATION, emailSchema, pagedList, queryValueList } from './common';

/*
 * Agents and agent orders (spec §7 Orders; decision 076).
 *
 *   GET    /api/customers/getagents/{token}?search=|type=|types=|email=&limit&offset → agentList
 *   POST   /api/customers/agentorders/{token}/add            {order_id, agent_id}            → agentOrderAssignments
 *   PUT    /api/customers/agentorders/{token}/updateagentid  {order_id, agent_id, version?}  → agentOrderAssignments
 *   DELETE /api/customers/agentorders/{token}/delete         {order_id, agent_id}            → agentOrderAssignments
 *
 * getagents takes exactly one filter: search (name or e-mail text, at least 3 characters), type (one agent type),
 * types (a comma list of agent types) or email (exact, any case). Only active agents, by name; paginated.
 */

const MAX_ID = 2_147_483_647;
export const AGENT_SEARCH_MIN_LENGTH = 3;
const emptyAsAbsent = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);
const TYPE_MESSAGE = `Choose an agent type: ${AGENT_TYPES.join(', ')}.`;
const agentTypeEnum = z.enum(AGENT_TYPES as unknown as [AgentType, ...AgentType[]], { message: TYPE_MESSAGE });

export const getAgentsQuery = z
  .object({
    search: z.preprocess(
      emptyAsAbsent,
      z
        .string()
        .trim()
        .min(AGENT_SEARCH_MIN_LENGTH, { message: `Type at least ${AGENT_SEARCH_MIN_LENGTH} characters.` })
        .max(100, { message: 'Type at most 100 characters.' })
        .optional(),
    ),
    type: z.preprocess(emptyAsAbsent, z.string().trim().pipe(agentTypeEnum).optional()),
    types: queryValueList(AGENT_TYPES, TYPE_MESSAGE),
    email: z.preprocess(emptyAsAbsent, z.string().trim().toLowerCase().pipe(emailSchema).optional()),
    limit: z.coerce
      .number({ message: 'limit is a number.' })
      .int({ message: 'limit is a whole number.' })
      .min(1, { message: 'limit is at least 1.' })
      .max(PAGINATION.maxLimit, { message: `limit is at most ${PAGINATION.maxLimit}.` })
      .default(PAGINATION.defaultLimit),
    offset: z.coerce
      .number({ message: 'offset is a number.' })
      .int({ message: 'offset is a whole number.' })
      .min(0, { message: 'offset is at least 0.' })
      .default(0),
  })
  .superRefine((q, ctx) => {
    // The filters are optional (§7): none lists every agent the caller may see, a page at a time; two at once
    // would leave the caller guessing which one counts.
    const given = (['search', 'type', 'types', 'email'] as const).filter((k) => q[k] !== undefined);
    if (given.length > 1) {
      ctx.addIssue({
        code: 'custom',
        path: [given[1]!],
        message: 'Give at most one of search, type, types or email.',
      });
    }
  });
export type GetAgentsQueryInput = z.input<typeof getAgentsQuery>;
export type GetAgentsQuery = z.output<typeof getAgentsQuery>;

export const agentRecord = z.object({
  agent_id: z.number().int(),
  name: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  type: z.enum(AGENT_TYPES as unknown as [AgentType, ...AgentType[]]),
  sales_channel: z.enum(SALES_CHANNELS as unknown as [string, ...string[]]),
  sales_channel_code: z.number().int(),
  parent_agent_id: z.number().int().nullable(),
  active: z.boolean(),
});
export type AgentRecord = z.infer<typeof agentRecord>;

export const agentList = z.object({
  agents: z.array(agentRecord),
  total: z.number().int().min(0),
  limit: z.number().int(),
  offset: z.number().int(),
});
export type AgentList = z.infer<typeof agentList>;

const bodyId = (what: string) =>
  z
    .number({ message: `Enter the ${what} (a number).` })
    .int({ message: `The ${what} is a whole number.` })
    .positive({ message: `The ${what} is a positive number.` })
    .max(MAX_ID, { message: `The ${what} is too large.` });

export const agentOrderRequest = z.object({ order_id: bodyId('order id'), agent_id: bodyId('agent id') }).strict();
export type AgentOrderRequest = z.infer<typeof agentOrderRequest>;

/** The order's version (optional): when sent, a stale one → 409 version_conflict. */
export const agentOrderUpdateRequest = z
  .object({
    order_id: bodyId('order id'),
    agent_id: bodyId('agent id'),
    version: z
      .number({ message: 'The version is a number.' })
      .int({ message: 'The version is a whole number.' })
      .min(1, { message: 'The version is at least 1.' })
      .optional(),
  })
  .strict();
export type AgentOrderUpdateRequest = z.infer<typeof agentOrderUpdateRequest>;

export const agentOrderAssignment = z.object({
  agent_id: z.number().int(),
  name: z.string(),
  type: z.string(),
  assigned_by_email: z.string(),
  assigned_at: z.string(),
});

/** The order's agents after the change (by assignment time), and the order's version. */
export const agentOrderAssignments = z.object({
  order_id: z.number().int(),
  /** The order's main agent (orders.agent_id; updateagentid sets it). */
  agent_id: z.number().int().nullable(),
  version: z.number().int(),
  agents: z.array(agentOrderAssignment),
});
export type AgentOrderAssignments = z.infer<typeof agentOrderAssignments>;

// ── Agent management (issue 17; decision 124) ─────────────────────────────────────────────────────────
/*
 *   GET  /api/agents/{token}?type&channel&q&status&limit&offset[&format=csv]   → agentPage (or CSV of every row)
 *   GET  /api/agents/{agentId}/{token}                                   → agentDetail
 *   GET  /api/agents/{agentId}/{token}/stores?limit&offset               → agentStorePage
 *   POST /api/agents/{token}                   agentCreateRequest        → agentDetail   (Admin, RAM, IS)
 *   PUT  /api/agents/{agentId}/{token}         agentUpdateRequest        → agentDetail   (version; 409 stale)
 *   POST /api/agents/{agentId}/{token}/deactivate  {version}             → agentDetail
 *   POST /api/agents/{agentId}/{token}/invite                            → agentInviteResult (Distributor agents)
 * An agent-scoped session (distributor login, Distributor / RDC role) reads only its agent and sub-agents; any
 * other agent is answered 404 as if missing.
 */

export const AGENT_STATUS_FILTERS = ['active', 'inactive', 'all'] as const;
const channelEnum = z.enum(SALES_CHANNELS as unknown as [string, ...string[]], {
  message: `Choose a sales channel: ${SALES_CHANNELS.join(', ')}.`,
});

export const agentPageQuery = z.object({
  type: z.preprocess(emptyAsAbsent, agentTypeEnum.optional()),
  channel: z.preprocess(emptyAsAbsent, channelEnum.optional()),
  q: z.preprocess(emptyAsAbsent, z.string().trim().max(100, { message: 'Type at most 100 characters.' }).optional()),
  status: z.preprocess(
    emptyAsAbsent,
    z.enum(AGENT_STATUS_FILTERS, { message: 'Choose active, inactive or all.' }).default('active'),
  ),
  limit: z.coerce
    .number({ message: 'limit is a number.' })
    .int({ message: 'limit is a whole number.' })
    .min(1, { message: 'limit is at least 1.' })
    .max(PAGINATION.maxLimit, { message: `limit is at most ${PAGINATION.maxLimit}.` })
    .default(PAGINATION.defaultLimit),
  offset: z.coerce
    .number({ message: 'offset is a number.' })
    .int({ message: 'offset is a whole number.' })
    .min(0, { message: 'offset is at least 0.' })
    .default(0),
  format: z.enum(['json', 'csv']).default('json'),
});
export type AgentPageQueryInput = z.input<typeof agentPageQuery>;
export type AgentPageQuery = z.output<typeof agentPageQuery>;

export const agentDetail = agentRecord.extend({
  contact_name: z.string().nullable(),
  /** Percent of what the agent's stores are billed, e.g. 12.5; null when none is agreed. */
  commission_percent: z.number().nullable(),
  parent_agent_name: z.string().nullable(),
  store_count: z.number().int().min(0),
  /** Has a distributor login (a distributor_accounts row of this agent). */
  has_login: z.boolean(),
  version: z.number().int(),
});
export type AgentDetail = z.infer<typeof agentDetail>;

export const agentPage = pagedList(agentDetail);
export type AgentPage = z.infer<typeof agentPage>;

/** The CSV columns of the agent list, in order. */
export const AGENT_CSV_COLUMNS = [
  'agent_id',
  'name',
  'type',
  'sales_channel',
  'parent_agent_name',
  'contact_name',
  'email',
  'phone',
  'commission_percent',
  'store_count',
  'status',
] as const;

export const agentIdParams = z.object({
  agentId: z.coerce
    .number({ message: 'The agent id is a number.' })
    .int({ message: 'The agent id is a whole number.' })
    .positive({ message: 'The agent id is a positive number.' })
    .max(MAX_ID, { message: 'The agent id is too large.' }),
  token: z.string(),
});

const optionalText = (label: string, max: number) =>
  z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? null : v),
    z
      .string({ message: `${label} is text.` })
      .trim()
      .max(max, { message: `${label} is at most ${max} characters.` })
      .nullable()
      .optional(),
  );

const agentFields = {
  name: z
    .string({ message: 'Enter the agent name.' })
    .trim()
    .min(2, { message: 'Enter the agent name (at least 2 characters).' })
    .max(120, { message: 'The name is at most 120 characters.' }),
  email: z.string({ message: 'Enter the e-mail.' }).trim().toLowerCase().pipe(emailSchema),
  phone: optionalText('The phone', 30),
  contact_name: optionalText('The contact name', 120),
  type: agentTypeEnum,
  sales_channel: channelEnum,
  parent_agent_id: bodyId('parent agent id').nullable().optional(),
  commission_percent: z
    .number({ message: 'The commission is a number (percent).' })
    .refine(isValidPercent, { message: 'The commission is a percent from 0 to 100.' })
    .refine((n) => Math.round(n * 100) === n * 100 || Math.abs(Math.round(n * 100) - n * 100) < 1e-9, {
      message: 'The commission has at most two decimals.',
    })
    .nullable()
    .optional(),
};

export const agentCreateRequest = z.object(agentFields).strict();
export type AgentCreateRequest = z.infer<typeof agentCreateRequest>;
export type AgentCreateInput = z.input<typeof agentCreateRequest>;

export const agentUpdateRequest = z
  .object({
    ...agentFields,
    version: z.number({ message: 'The version is a number.' }).int().min(1, { message: 'The version is at least 1.' }),
  })
  .strict();
export type AgentUpdateRequest = z.infer<typeof agentUpdateRequest>;

export const agentDeactivateRequest = z
  .object({
    version: z.number({ message: 'The version is a number.' }).int().min(1, { message: 'The version is at least 1.' }),
  })
  .strict();
export type AgentDeactivateRequest = z.infer<typeof agentDeactivateRequest>;

export const agentInviteResult = z.object({
  agent_id: z.number().int(),
  email: z.string(),
  /** True when this call made the distributor login; false when it existed and only a new link was sent. */
  created: z.boolean(),
});
export type AgentInviteResult = z.infer<typeof agentInviteResult>;

export const agentStoresQuery = z.object({
  limit: z.coerce.number().int().min(1).max(PAGINATION.maxLimit).default(PAGINATION.defaultLimit),
  offset: z.coerce.number().int().min(0).default(0),
});
export type AgentStoresQuery = z.infer<typeof agentStoresQuery>;

export const agentStoreRow = z.object({
  store_id: z.number().int(),
  store_name: z.string(),
  customer_id: z.number().int(),
  customer_name: z.string(),
  state: z.string().nullable(),
  /** The store's status code and its name. */
  status: z.string(),
  status_label: z.string(),
  currency: z.string(),
  /** What the store's pending invoices still owe (ledger view invoice_balances). */
  open_balance_cents: z.number().int(),
  assigned_at: z.string(),
});
export type AgentStoreRow = z.infer<typeof agentStoreRow>;

export const agentStorePage = z.object({
  agent: agentDetail,
  items: z.array(agentStoreRow),
  total: z.number().int().min(0),
});
export type AgentStorePage = z.infer<typeof agentStorePage>;
