import {
  agentList,
  agentOrderAssignments,
  agentOrderRequest,
  agentOrderUpdateRequest,
  getAgentsQuery,
  successEnvelope,
  type Permission,
} from '@pos/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { serviceCtx } from '../../http/service-context';
import { requireSession } from '../../http/session';
import { addAgentOrder, deleteAgentOrder, listAgents, updateAgentOrder } from './agents.service';

/** Who may call what (any one privilege passes, spec §6; decision 076). */
export const AGENT_GUARDS = {
  read: ['search_orders_view', 'search_orders_edit', 'create_distributor_orders'],
  write: ['search_orders_edit'],
} as const satisfies Record<string, readonly Permission[]>;

const tags = ['agents'];
const tokenParams = z.object({ token: z.string() });

/** Agents lookup and agent orders (spec §7 Orders; decision 076). */
export const agentRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/customers/getagents/:token',
    {
      onRequest: requireSession({ anyOf: AGENT_GUARDS.read }),
      schema: {
        tags,
        summary: 'Active agents by exactly one of search=, type=, types= or email= (paginated)',
        params: tokenParams,
        querystring: getAgentsQuery,
        response: { 200: successEnvelope(agentList) },
      },
    },
    async (request) => ({ info: await listAgents(serviceCtx(request), request.query) }),
  );

  const write = requireSession({ anyOf: AGENT_GUARDS.write });

  app.post(
    '/api/customers/agentorders/:token/add',
    {
      onRequest: write,
      schema: {
        tags,
        summary: 'Put an agent on an order',
        params: tokenParams,
        body: agentOrderRequest,
        response: { 200: successEnvelope(agentOrderAssignments) },
      },
    },
    async (request) => ({ info: await addAgentOrder(serviceCtx(request), request.body) }),
  );

  app.put(
    '/api/customers/agentorders/:token/updateagentid',
    {
      onRequest: write,
      schema: {
        tags,
        summary: 'Switch the order to one agent (optional order version)',
        params: tokenParams,
        body: agentOrderUpdateRequest,
        response: { 200: successEnvelope(agentOrderAssignments) },
      },
    },
    async (request) => ({ info: await updateAgentOrder(serviceCtx(request), request.body) }),
  );

  app.delete(
    '/api/customers/agentorders/:token/delete',
    {
      onRequest: write,
      schema: {
        tags,
        summary: 'Take an agent off an order',
        params: tokenParams,
        body: agentOrderRequest,
        response: { 200: successEnvelope(agentOrderAssignments) },
      },
    },
    async (request) => ({ info: await deleteAgentOrder(serviceCtx(request), request.body) }),
  );
};
