import { z } from 'zod';
import { AGENT_TYPES, SALES_CHANNELS, type AgentType } from '../codes/sales';
import { PAGINATION, emailSchema } from './common';

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
    types: z.preprocess(
      emptyAsAbsent,
      z
        .string()
        .transform((s) =>
          s
            .split(',')
            .map((t) => t.trim())
            .filter((t) => t !== ''),
        )
        .pipe(z.array(agentTypeEnum).min(1, { message: TYPE_MESSAGE }))
        .transform((list) => [...new Set(list)])
        .optional(),
    ),
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
    const given = (['search', 'type', 'types', 'email'] as const).filter((k) => q[k] !== undefined);
    if (given.length !== 1) {
      ctx.addIssue({
        code: 'custom',
        path: given.length === 0 ? ['search'] : [given[1]!],
        message: 'Give exactly one of search, type, types or email.',
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
